import { expect, test } from 'bun:test'
import { TOOL_IDS } from '../../common/tools'
import { RUN_PAGE } from './person'
import { FIRST_PAGE, SECOND_PAGE, WALKERS, walkOf } from './walks'
import type { Transport } from './transports'

const PEOPLE_IDS = Object.keys(FIRST_PAGE)
const pagesOf = (ids: readonly string[], transport: Transport) => new Set(ids.flatMap((id) => walkOf(id, transport, TOOL_IDS).filter((s) => s.how !== 'run').map((s) => s.tool)))
const sorted = (xs: Iterable<string>) => [...xs].sort()

test('over HTTPS a person of each engine opens every tool page once (and reloads the second), then /run', () => {
  expect(sorted(WALKERS)).toEqual(['person', 'person-firefox', 'person-webkit'])
  for (const id of WALKERS) {
    const walk = walkOf(id, 'https', TOOL_IDS)
    expect(walk[0]).toEqual({ tool: FIRST_PAGE[id]!.https, how: 'first' })
    expect(sorted(walk.filter((s) => s.how === 'first' || s.how === 'typed').map((s) => s.tool))).toEqual(sorted(TOOL_IDS))
    expect(walk.filter((s) => s.how === 'reload')).toEqual([{ tool: walk[1]!.tool, how: 'reload' }])
    expect(walk.at(-1)).toEqual({ tool: RUN_PAGE, how: 'run' })
  }
})

test('every other walk: a first and a second page, the second reloaded, then /run', () => {
  for (const transport of ['https', 'http'] as const) {
    for (const id of PEOPLE_IDS.filter((p) => transport === 'http' || !WALKERS.includes(p))) {
      const second = SECOND_PAGE[id]![transport]!
      expect(second).toBeDefined()
      expect(second).not.toBe(FIRST_PAGE[id]![transport])
      expect(walkOf(id, transport, TOOL_IDS)).toEqual([
        { tool: FIRST_PAGE[id]![transport], how: 'first' },
        { tool: second, how: 'typed' },
        { tool: second, how: 'reload' },
        { tool: RUN_PAGE, how: 'run' },
      ])
    }
  }
  // Every tool page is someone's over HTTP too.
  expect(sorted(pagesOf(PEOPLE_IDS, 'http'))).toEqual(sorted(TOOL_IDS))
})

test('every tool is someone’s first page, and the wire-judged pages a Chromium person’s first over HTTPS', () => {
  const firsts = new Set(PEOPLE_IDS.flatMap((id) => [FIRST_PAGE[id]!.https, FIRST_PAGE[id]!.http]))
  expect(sorted(firsts)).toEqual(sorted(TOOL_IDS))
  const chromium = ['person', 'person-de', 'person-hidpi']
  for (const tool of ['http-headers', 'tls-fingerprint', 'vpn-detector']) expect(chromium.some((id) => FIRST_PAGE[id]!.https === tool)).toBe(true)
})

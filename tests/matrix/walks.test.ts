import { expect, test } from 'bun:test'
import { TOOL_IDS } from '../../common/tools'
import { FIRST_PAGE, RUN_STEP, SECOND_PAGE_HTTP, walkOf } from './walks'

const PEOPLE_IDS = Object.keys(FIRST_PAGE)
const pagesOf = (transport: 'https' | 'http') => new Set(PEOPLE_IDS.flatMap((id) => walkOf(id, transport, TOOL_IDS).filter((s) => s.how !== 'run').map((s) => s.tool)))

test('over HTTPS every person opens every tool page once (and reloads the second), then /run', () => {
  for (const id of PEOPLE_IDS) {
    const walk = walkOf(id, 'https', TOOL_IDS)
    expect(walk[0]).toEqual({ tool: FIRST_PAGE[id]!.https, how: 'first' })
    expect(walk.filter((s) => s.how === 'first' || s.how === 'typed').map((s) => s.tool).sort()).toEqual([...TOOL_IDS].sort())
    expect(walk.filter((s) => s.how === 'reload')).toEqual([{ tool: walk[1]!.tool, how: 'reload' }])
    expect(walk.at(-1)).toEqual({ tool: RUN_STEP, how: 'run' })
  }
})

test('over HTTP a person opens a first and a second page, reloads it, then /run; every tool page is someone’s', () => {
  for (const id of PEOPLE_IDS) {
    expect(walkOf(id, 'http', TOOL_IDS)).toEqual([
      { tool: FIRST_PAGE[id]!.http, how: 'first' },
      { tool: SECOND_PAGE_HTTP[id]!, how: 'typed' },
      { tool: SECOND_PAGE_HTTP[id]!, how: 'reload' },
      { tool: RUN_STEP, how: 'run' },
    ])
    expect(SECOND_PAGE_HTTP[id]).not.toBe(FIRST_PAGE[id]!.http)
  }
  expect([...pagesOf('http')].sort()).toEqual([...TOOL_IDS].sort())
})

test('every tool is someone’s first page, and the wire-judged pages a Chromium person’s first over HTTPS', () => {
  const firsts = new Set(PEOPLE_IDS.flatMap((id) => [FIRST_PAGE[id]!.https, FIRST_PAGE[id]!.http]))
  expect([...firsts].sort()).toEqual([...TOOL_IDS].sort())
  const chromium = ['person', 'person-de', 'person-hidpi']
  for (const tool of ['http-headers', 'tls-fingerprint', 'vpn-detector']) expect(chromium.some((id) => FIRST_PAGE[id]!.https === tool)).toBe(true)
})

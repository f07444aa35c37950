import { describe, expect, test } from 'bun:test'
import { compactResults, hydrateResults } from './check-text'
import { check } from './scoring'
import { webdriverFlag } from '../checks/webdriver-flag'

const full = check({ ...webdriverFlag, weight: 60 }, { verdict: 'fail', observed: true, expected: 'false' })

describe('check text', () => {
  test('compactResults leaves out name and why, and source when it is the definition’s', () => {
    const r = compactResults('bot-detector', { checks: [full, { ...full, source: 'server' }], summary: {} }) as { checks: object[] }
    expect(r.checks[0]).toEqual({ id: full.id, verdict: 'fail', observed: true, expected: 'false', points: 60 })
    expect(r.checks[1]).toEqual({ id: full.id, verdict: 'fail', observed: true, expected: 'false', points: 60, source: 'server' })
  })

  test('compactResults gives back what it cannot compact as it is', () => {
    for (const v of [null, 1, 'x', [], { checks: 'x' }, { checks: [{ ...full, why: 'other' }] }]) expect(compactResults('bot-detector', v)).toBe(v)
  })

  test('hydrateResults puts the text back in jsonb order', () => {
    const stored = `{"checks": [{"id": "${full.id}", "points": 60, "verdict": "fail", "expected": "false", "observed": true}], "summary": {}}`
    expect(hydrateResults('bot-detector', stored)).toBe(
      `{"checks": [{"id": "${full.id}", "why": ${JSON.stringify(full.why)}, "name": ${JSON.stringify(full.name)}, "points": 60, "source": "client", "verdict": "fail", "expected": "false", "observed": true}], "summary": {}}`,
    )
  })

  test('hydrateResults returns text it does not recognise unchanged, never throwing', () => {
    const cut = `{"checks": [{"id": "${full.id}", "points": 60, "verdict": "fail", "expected": "false", "observed": "unterminated`
    for (const t of ['', '[]', '{}', '{"checks": []}', '{"checks": [1]}', '{"checks": [{"id": 1}]}', cut, '{"checks": [{"id": "x"}, 2]}', '{"a": "\\\\", "checks": "x"}'])
      expect(hydrateResults('bot-detector', t)).toBe(t)
  })
})

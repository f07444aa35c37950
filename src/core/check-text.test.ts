import { describe, expect, test } from 'bun:test'
import { compactResults, hydrateResults } from './check-text'
import { CODE_LENGTH, detailCodes, detailTablesOf, expectations } from './text-codes'
import { FIXED_DETAILS } from './consistency'
import STORED_TEXTS from './stored-texts.json'
import { allChecks, storedTextsFile } from './tools/check-list'
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

describe('coded expectations', () => {
  const { codeOf, textOf } = expectations()
  const text = 'the same zone, offsets and languages in the page and in a worker'
  const withExpected = { ...full, expected: text }

  test('a compact check stores a listed expectation as its code, and is served with the text in place', () => {
    const r = compactResults('bot-detector', { checks: [withExpected, { ...withExpected, source: 'server' }] }) as { checks: Array<Record<string, unknown>> }
    const code = codeOf.get(text)!
    expect(code).toMatch(/^#[0-9a-f]{8}$/)
    expect(r.checks[0]!.expected).toBe(code)
    expect(r.checks[1]!.expected).toBe(code)
    for (const source of ['', '"source": "server", ']) {
      const stored = `{"checks": [{"id": "${full.id}", "points": 60, ${source}"verdict": "fail", "expected": "${code}", "observed": true}]}`
      expect(hydrateResults('bot-detector', stored)).toBe(
        `{"checks": [{"id": "${full.id}", "why": ${JSON.stringify(full.why)}, "name": ${JSON.stringify(full.name)}, "points": 60, ${source || '"source": "client", '}"verdict": "fail", "expected": ${JSON.stringify(text)}, "observed": true}]}`,
      )
    }
  })

  test('an expectation not listed, or as short as a code, is stored as it is', () => {
    for (const expected of ['false', 'equal', 'a text no definition has', '']) {
      const r = compactResults('bot-detector', { checks: [{ ...full, expected }] }) as { checks: Array<Record<string, unknown>> }
      expect(r.checks[0]!.expected).toBe(expected)
    }
    expect(codeOf.has('equal')).toBe(false)
  })

  test('a check whose own expectation looks like a known code is stored in full, and served as stored', () => {
    const code = codeOf.get(text)!
    const r = compactResults('bot-detector', { checks: [{ ...full, expected: code }] }) as { checks: Array<Record<string, unknown>> }
    expect(r.checks[0]).toEqual({ ...full, expected: code })
    // A look-alike that is no code is compacted, and served as stored.
    const other = compactResults('bot-detector', { checks: [{ ...full, expected: '#00000000' }] }) as { checks: Array<Record<string, unknown>> }
    expect(other.checks[0]!.expected).toBe('#00000000')
    expect(textOf.has('"#00000000"')).toBe(false)
  })

  test('a code is only put back as the expected member of a compact check', () => {
    const code = codeOf.get(text)!
    const cases = [
      // in observed, in a stored-in-full check, after a non-string verdict, a code with more after it, a code no table knows
      `{"checks": [{"id": "${full.id}", "points": 60, "verdict": "fail", "expected": "false", "observed": "${code}"}]}`,
      `{"checks": [{"id": "${full.id}", "why": "w", "name": "n", "points": 60, "source": "client", "verdict": "fail", "expected": "${code}", "observed": true}]}`,
      `{"checks": [{"id": "${full.id}", "points": 60, "verdict": null, "expected": "${code}", "observed": true}]}`,
      `{"checks": [{"id": "${full.id}", "points": 60, "source": 1, "verdict": "fail", "expected": "${code}", "observed": true}]}`,
      `{"checks": [{"id": "${full.id}", "points": 60, "verdict": "fail", "expected": "${code}0", "observed": true}]}`,
      `{"checks": [{"id": "no-such-check", "points": 60, "verdict": "fail", "expected": "${code}", "observed": true}]}`,
    ]
    for (const t of cases) expect(hydrateResults('bot-detector', t)).not.toContain(JSON.stringify(text))
    expect(hydrateResults('bot-detector', `{"checks": [{"id": "${full.id}", "points": 60, "verdict": "fail", "expected": "#ffffffff", "observed": true}]}`)).toContain('"expected": "#ffffffff"')
  })

  test('stored-texts.json lists every constant expectation longer than a code and every fixed sentence, each once, and is current (npm run docs:checks)', () => {
    const { expected, details } = STORED_TEXTS
    expect(new Set(expected).size).toBe(expected.length)
    expect(new Set(details).size).toBe(details.length)
    expect(expected.every((t) => typeof t === 'string' && t.length > CODE_LENGTH)).toBe(true)
    expect(storedTextsFile(STORED_TEXTS)).toEqual(STORED_TEXTS)
    for (const { def } of allChecks()) if (def.expected !== undefined && def.expected.length > CODE_LENGTH) expect(codeOf.has(def.expected)).toBe(true)
    for (const d of FIXED_DETAILS) expect(details).toContain(d)
  })

  test('the file only grows: a text the code no longer writes is kept, a new one appended', () => {
    const next = storedTextsFile({ expected: ['an expectation reworded since', ...STORED_TEXTS.expected.slice(1)], details: ['A sentence reworded since.'] })
    expect(next.expected[0]).toBe('an expectation reworded since')
    expect(next.expected.at(-1)).toBe(STORED_TEXTS.expected[0]!)
    expect(next.expected.length).toBe(STORED_TEXTS.expected.length + 1)
    expect(next.details).toEqual(['A sentence reworded since.', ...FIXED_DETAILS])
  })

  test('a fixed sentence the code no longer writes still has its codes, from the file', () => {
    const file = [...STORED_TEXTS.details, 'A sentence reworded since.']
    const tables = detailTablesOf([...file, ...FIXED_DETAILS])
    expect(tables.codeOf.size).toBe(FIXED_DETAILS.length + 1)
    const code = tables.codeOf.get('A sentence reworded since.')!
    expect(tables.textOf.get(JSON.stringify(code))).toBe('"A sentence reworded since."')
    expect(tables.itemCodeOf.get('A sentence reworded since.')?.size).toBeGreaterThan(0)
    // The same codes as the service's tables for every sentence both have.
    for (const d of FIXED_DETAILS) expect(tables.codeOf.get(d)).toBe(detailCodes().codeOf.get(d)!)
  })
})

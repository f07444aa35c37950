import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import { acceptLanguageVsLanguages, type LanguageSignals } from './accept-language-header'

const langs = (languages: string[]): LanguageSignals => ({ languages: { ok: true, value: { languages }, ms: 1 } })
const run = (s: LanguageSignals, header?: string) =>
  runChecks([[acceptLanguageVsLanguages, 25]], s, { ip: '192.0.2.1', userAgent: 'x', headers: header === undefined ? [] : [['accept-language', header]], receivedAt: 0 }, {}).checks[0]!

describe('accept-language-vs-languages', () => {
  test("passes the browser's own header, with Chromium's added base languages", () => {
    expect(run(langs(['en-US', 'de']), 'en-US,en;q=0.9,de;q=0.8').verdict).toBe('pass')
  })
  test('fails an injected header; a reduced one only warns', () => {
    expect(run(langs(['en-US', 'en']), 'de-DE,de;q=0.9')).toMatchObject({ verdict: 'fail', observed: { missing: ['en-US', 'en'], sameOrder: false } })
    expect(run(langs(['en-US', 'en']), 'en-US').verdict).toBe('warn')
  })
  test('is not applicable without the header (said first) or without navigator.languages', () => {
    const gone: LanguageSignals = { languages: { ok: false, error: { kind: 'timeout', message: 'no answer' }, ms: 1 } }
    expect(run(gone).expected).toBe('no Accept-Language header arrived')
    expect(run(gone, 'en-US')).toMatchObject({ verdict: 'na', expected: 'timeout: no answer' })
  })
})

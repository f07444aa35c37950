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
  test("WebKit's navigator.languages holds only the primary language: the header's first alone passes on JavaScriptCore, and only there", () => {
    const JSC = { evalLength: 37, nullError: "null is not an object (evaluating 'JSON.parse('null').x')", rangeError: 'toFixed() argument must be between 0 and 100' }
    const V8 = { evalLength: 33, nullError: "Cannot read properties of null (reading 'x')", rangeError: 'toFixed() digits argument must be between 0 and 100' }
    // GNOME Web with German, German and English chosen in its preferences.
    const gnomeWeb = { ...langs(['de-DE']), engine: { ok: true as const, value: JSC, ms: 1 } }
    const c = run(gnomeWeb, 'de-DE,de;q=0.90,en;q=0.80')
    expect(c).toMatchObject({ verdict: 'pass', observed: 'Accept-Language de-DE,de;q=0.90,en;q=0.80; navigator [de-DE]' })
    expect(c.expected).toContain('WebKit exposes only the primary language (judged by JavaScriptCore (WebKit)')
    // Another first language in the header is still a rewrite, on WebKit too.
    expect(run(gnomeWeb, 'fr-FR,de-DE;q=0.9').verdict).toBe('fail')
    // V8 and SpiderMonkey list every language: one navigator language under a longer header is an injected header.
    expect(run({ ...langs(['de-DE']), engine: { ok: true as const, value: V8, ms: 1 } }, 'de-DE,de;q=0.9,en;q=0.8').verdict).toBe('fail')
    expect(run(langs(['de-DE']), 'de-DE,de;q=0.9,en;q=0.8').verdict).toBe('fail')
  })
  test('is not applicable without the header (said first) or without navigator.languages', () => {
    const gone: LanguageSignals = { languages: { ok: false, error: { kind: 'timeout', message: 'no answer' }, ms: 1 } }
    expect(run(gone).expected).toBe('no Accept-Language header arrived')
    expect(run(gone, 'en-US')).toMatchObject({ verdict: 'na', expected: 'timeout: no answer' })
  })
})

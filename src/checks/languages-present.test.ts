import { describe, expect, test } from 'bun:test'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { runChecks } from '../core/judge'
import { acceptLanguageQ } from './accept-language-q'
import { languagesPresent } from './languages-present'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const present = (language: string, languages: string[]) =>
  runChecks([[languagesPresent, 15]], { languages: { ok: true, value: { language, languages }, ms: 1 } } as unknown as HttpHeadersSignals, { ip: '192.0.2.1', userAgent: CHROME, headers: [], receivedAt: 0 }, {}).checks[0]!.verdict
const q = (ua: string, header: string) => runChecks([[acceptLanguageQ, 8]], {} as HttpHeadersSignals, { ip: '192.0.2.1', userAgent: ua, headers: [['accept-language', header]], receivedAt: 0 }, {}).checks[0]!.verdict

describe('languages-present', () => {
  test('passes a list led by navigator.language, warns another first entry, fails an empty list', () => {
    expect(present('en-US', ['en-US', 'en'])).toBe('pass')
    expect(present('en-US', ['de'])).toBe('warn')
    expect(present('en-US', [])).toBe('fail')
  })
})

describe('accept-language-q', () => {
  test("each engine's own q-value scheme passes; the other's warns", () => {
    expect(q(CHROME, 'en-US,en;q=0.9,de;q=0.8')).toBe('pass')
    expect(q(FIREFOX, 'en-US,en;q=0.5')).toBe('pass')
    expect(q(CHROME, 'en-US,en;q=0.5')).toBe('warn')
    expect(q('curl/8', 'en-US,en;q=0.5')).toBe('na')
  })
})

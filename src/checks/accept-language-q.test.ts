import { describe, expect, test } from 'bun:test'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { runChecks } from '../core/judge'
import { acceptLanguageQ } from './accept-language-q'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'

const run = (ua: string, acceptLanguage?: string) => {
  const headers: Array<[string, string]> = [['user-agent', ua], ...(acceptLanguage === undefined ? [] : [['accept-language', acceptLanguage] as [string, string]])]
  return runChecks([[acceptLanguageQ, 10]], {} as HttpHeadersSignals, { ip: '81.2.69.23', userAgent: ua, headers, receivedAt: 0 }, {}).checks[0]!
}
const DECREMENT = 'q lowered by 0.1 per language (en-US,en;q=0.9)'
const FRACTION = 'Firefox q-values 1 − i/n (en-US,en;q=0.5)'

describe('accept-language-q', () => {
  test("passes Chrome's decreasing q-values, with its added base languages", () => {
    expect(run(CHROME, 'en-GB,en-US;q=0.9,en;q=0.8,de;q=0.7')).toMatchObject({ verdict: 'pass', source: 'server', observed: 'en-GB,en-US;q=0.9,en;q=0.8,de;q=0.7', expected: DECREMENT })
  })

  test('passes a long Chrome list whose q stays at 0.1', () => {
    const langs = ['en-US', 'en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da', 'fi']
    const header = langs.map((l, i) => (i ? `${l};q=${Math.max(0.1, 1 - i * 0.1).toFixed(1)}` : l)).join(',')
    expect(run(CHROME, header).verdict).toBe('pass')
  })

  test("passes Firefox's 1 − i/n q-values", () => {
    expect(run(FIREFOX, 'en-US,en;q=0.5')).toMatchObject({ verdict: 'pass', expected: FRACTION })
    expect(run(FIREFOX, 'de-DE,de;q=0.8,en-US;q=0.5,en;q=0.3').verdict).toBe('pass')
  })

  test('passes Safari (decreasing like Chromium) and a single language in any browser', () => {
    expect(run(SAFARI, 'en-GB,en;q=0.9')).toMatchObject({ verdict: 'pass', expected: DECREMENT })
    expect(run(CHROME, 'en-US').verdict).toBe('pass')
    expect(run(FIREFOX, 'fr').verdict).toBe('pass')
  })

  test("warns on Firefox's header under a Chrome User-Agent (a UA switcher), half the weight", () => {
    expect(run(CHROME, 'en-US,en;q=0.5')).toMatchObject({ verdict: 'warn', points: 5, observed: 'en-US,en;q=0.5', expected: DECREMENT })
  })

  test("warns on Chromium's header under a Firefox User-Agent", () => {
    expect(run(FIREFOX, 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7')).toMatchObject({ verdict: 'warn', expected: FRACTION })
  })

  test("warns on a hand-written header that follows neither browser's scheme", () => {
    expect(run(CHROME, 'en-US,en;q=0.8').verdict).toBe('warn')
    expect(run(CHROME, 'en-US,en;q=1').verdict).toBe('warn')
  })

  test('is not applicable without the header, or when the User-Agent names no engine', () => {
    expect(run(CHROME)).toMatchObject({ verdict: 'na', points: 0, expected: 'no Accept-Language header' })
    expect(run(CHROME, '')).toMatchObject({ verdict: 'na', expected: 'no Accept-Language header' })
    expect(run('python-requests/2.31.0', 'en-US,en;q=0.5')).toMatchObject({ verdict: 'na', observed: 'en-US,en;q=0.5', expected: 'the User-Agent names no browser engine' })
  })
})

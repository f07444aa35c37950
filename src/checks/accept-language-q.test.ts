import { describe, expect, test } from 'bun:test'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { runChecks } from '../core/judge'
import { acceptLanguageQ } from './accept-language-q'
import { ok } from '../../tests/support/signals'
import { SPIDERMONKEY, V8 } from '../core/tools/bot-detector.fixture'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'

const FIREFOX_153 = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0'

const run = (ua: string, acceptLanguage?: string, signals: Partial<HttpHeadersSignals> = {}) => {
  const headers: Array<[string, string]> = [['user-agent', ua], ...(acceptLanguage === undefined ? [] : [['accept-language', acceptLanguage] as [string, string]])]
  return runChecks([[acceptLanguageQ, 10]], signals as HttpHeadersSignals, { ip: '81.2.69.23', userAgent: ua, headers, receivedAt: 0 }, {}).checks[0]!
}
const CLAIM = 'the browser the User-Agent header claims'
const DECREMENT = `q lowered by 0.1 per language (en-US,en;q=0.9): the scheme of chrome 124 (blink) on windows, ${CLAIM}`
const FRACTION = `q-values 1 − i/n (en-US,en;q=0.5), as Firefox wrote them before 147: the scheme of firefox 125 (gecko) on windows, ${CLAIM}`

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
    expect(run(SAFARI, 'en-GB,en;q=0.9')).toMatchObject({ verdict: 'pass', expected: `q lowered by 0.1 per language (en-US,en;q=0.9): the scheme of safari 17 (webkit) on mac, ${CLAIM}` })
    expect(run(CHROME, 'en-US').verdict).toBe('pass')
    expect(run(FIREFOX, 'fr').verdict).toBe('pass')
  })

  test("warns on Firefox's header under a Chrome User-Agent (a UA switcher), half the weight", () => {
    expect(run(CHROME, 'en-US,en;q=0.5')).toMatchObject({ verdict: 'warn', points: 5, observed: 'en-US,en;q=0.5', expected: DECREMENT })
  })

  test("warns on Chromium's header under a Firefox 125 User-Agent", () => {
    expect(run(FIREFOX, 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7')).toMatchObject({ verdict: 'warn', expected: FRACTION })
  })

  test("Firefox 147 and later lower q by 0.1 like Chromium: Firefox ESR 153's own header passes, the old scheme warns", () => {
    // As Firefox ESR 153 sent them in the tools matrix (default and German profiles).
    const since = `q lowered by 0.1 per language (en-US,en;q=0.9), as Firefox writes them since 147: the scheme of firefox 153 (gecko) on linux, ${CLAIM}`
    expect(run(FIREFOX_153, 'en-US,en;q=0.9')).toMatchObject({ verdict: 'pass', expected: since })
    expect(run(FIREFOX_153, 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7').verdict).toBe('pass')
    expect(run(FIREFOX_153, 'en-US,en;q=0.5').verdict).toBe('warn')
    expect(run('Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox', 'en-US,en;q=0.5').verdict).toBe('pass')
  })

  test('names the engine the page runs on when the claim names another', () => {
    expect(run(CHROME, 'en-US,en;q=0.5', { engine: ok(SPIDERMONKEY) }).expected).toBe(`${DECREMENT} (the page runs on SpiderMonkey (Gecko), as its error messages show)`)
    expect(run(CHROME, 'en-US,en;q=0.9', { engine: ok(V8) }).expected).toBe(DECREMENT)
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

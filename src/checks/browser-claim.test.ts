import { describe, expect, test } from 'bun:test'
import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { runChecks } from '../core/judge'
import { browserClaim } from './browser-claim'
import { engineApis } from './engine-apis'
import { ok } from '../../tests/support/signals'
import { SPIDERMONKEY, V8 } from '../core/tools/bot-detector.fixture'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const HINTS: Array<[string, string]> = [['sec-ch-ua', '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"'], ['sec-ch-ua-platform', '"Windows"']]
const unsupported = { ok: false as const, error: { kind: 'unsupported' as const, message: 'no' }, ms: 1 }
const chromium = { uaData: ok({ brands: [], mobile: false, platform: 'Windows', high: null, highError: null }), connection: ok({ type: null, effectiveType: '4g', rtt: 50, downlink: 10, saveData: false }), stack: ok({ pageProtocol: 'https:', secureContext: true, navigationProtocol: 'h2', fetchProtocol: 'h2', navigationTls: true }) }
const gecko = { ...chromium, uaData: unsupported, connection: unsupported }
const checks = (s: object, ua: string, headers: Array<[string, string]> = []) =>
  runChecks([[browserClaim, 30], [engineApis, 30]], s as unknown as TlsFingerprintSignals, { ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua], ...headers], receivedAt: 0 }, {}).checks
const run = (s: object, ua: string, headers: Array<[string, string]> = []) => checks(s, ua, headers).map((c) => c.verdict)

describe('claimed-browser and engine-apis', () => {
  test('Chrome with its hints and APIs, and a real Firefox, pass both', () => {
    expect(run(chromium, CHROME_UA, HINTS)).toEqual(['pass', 'pass'])
    expect(run(gecko, FIREFOX_UA)).toEqual(['pass', 'pass'])
  })
  test('Firefox behind a Chrome User-Agent: no Chromium APIs; the claim fails by the engine the page runs on, and only warns without it', () => {
    const [claim, apis] = checks({ ...gecko, engine: ok(SPIDERMONKEY) }, CHROME_UA)
    expect(claim).toMatchObject({ verdict: 'fail', observed: 'chrome 124 (blink) on windows, no Sec-CH-UA: the User-Agent claims blink, but the page runs on SpiderMonkey (Gecko)' })
    expect(claim!.expected).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
    expect(apis!.verdict).toBe('fail')
    expect(apis!.observed).toContain('the page runs on SpiderMonkey (Gecko)')
    expect(apis!.expected).toBe('both present in Chromium, the engine the User-Agent claims; the page runs on SpiderMonkey (Gecko), as its error messages show')
    expect(run(gecko, CHROME_UA)).toEqual(['warn', 'fail'])
  })
  test("a person's Chromium whose User-Agent switcher strips the hints only warns, naming V8", () => {
    const [claim] = checks({ ...chromium, engine: ok(V8) }, CHROME_UA)
    expect(claim).toMatchObject({ verdict: 'warn', observed: expect.stringContaining('although the page runs on V8 (Blink)') })
    expect(claim!.expected).toContain('judged by V8 (Blink)')
  })
  test('hints that agree with the User-Agent pass on the engine they name', () => {
    expect(checks({ ...chromium, engine: ok(V8) }, CHROME_UA, HINTS)[0]!.expected).toContain('judged by V8 (Blink)')
  })
  test("Chromium behind a Firefox User-Agent keeps its APIs; an HTTP library's claim fails", () => {
    expect(run(chromium, FIREFOX_UA)[1]).toBe('fail')
    expect(run(chromium, 'python-requests/2.31.0')).toEqual(['fail', 'na'])
  })
})

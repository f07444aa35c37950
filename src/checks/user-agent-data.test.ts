import { describe, expect, test } from 'bun:test'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { runChecks } from '../core/judge'
import { brandsGrease, navigatorUaVsUaData } from './user-agent-data'
import { ok } from '../../tests/support/signals'
import { SPIDERMONKEY, V8 } from '../core/tools/bot-detector.fixture'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const BRANDS = [{ brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }, { brand: 'Not-A.Brand', version: '99' }]
const signals = (uaData: unknown, secureContext = true) =>
  ({ navigator: ok({ userAgent: CHROME }), uaData, context: ok({ secureContext, protocol: 'https:', hostname: 'a' }) }) as unknown as HttpHeadersSignals
const run = (s: HttpHeadersSignals) => runChecks([[brandsGrease, 15], [navigatorUaVsUaData, 25]], s, { ip: '192.0.2.1', userAgent: CHROME, headers: [], receivedAt: 0 }, {}).checks.map((c) => c.verdict)
const unsupported = { ok: false, error: { kind: 'unsupported', message: 'no navigator.userAgentData' }, ms: 1 }

describe('brands-grease and navigator-ua-vs-ua-data', () => {
  test("Chrome's own brands pass both", () => {
    expect(run(signals(ok({ brands: BRANDS, mobile: false, platform: 'Windows', high: null, highError: null })))).toEqual(['pass', 'pass'])
  })
  test('a hand-written brand list without GREASE, on another OS, fails both', () => {
    expect(run(signals(ok({ brands: [{ brand: 'Google Chrome', version: '124' }], mobile: false, platform: 'macOS', high: null, highError: null })))).toEqual(['fail', 'fail'])
  })
  test('a Chrome User-Agent without userAgentData fails in a secure context only', () => {
    expect(run(signals(unsupported))).toEqual(['na', 'fail'])
    expect(run(signals(unsupported, false))).toEqual(['na', 'pass'])
  })
  test('says which engine the page runs on, told by its error messages', () => {
    const one = (s: HttpHeadersSignals) => runChecks([[navigatorUaVsUaData, 25]], s, { ip: '192.0.2.1', userAgent: CHROME, headers: [], receivedAt: 0 }, {}).checks[0]!
    const firefox = one({ ...signals(unsupported), engine: ok(SPIDERMONKEY) })
    expect(firefox).toMatchObject({ verdict: 'fail', observed: 'no userAgentData; User-Agent claims chrome 124: the page runs on SpiderMonkey (Gecko), which has none, behind a User-Agent switched to Chrome' })
    expect(firefox.expected).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
    expect(one({ ...signals(unsupported), engine: ok(V8) }).observed).toContain('the page runs on V8 (Blink), so userAgentData was removed')
  })
})

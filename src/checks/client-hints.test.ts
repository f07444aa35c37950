import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { hintsFromHeaders, secChUaVsNavigator, uaVsClientHints, type ClientHintSignals, type PageIdentity } from './client-hints'
import { ok } from '../../tests/support/signals'
import { SPIDERMONKEY, V8 } from '../core/tools/bot-detector.fixture'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const BRANDS = [{ brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }, { brand: 'Not-A.Brand', version: '99' }]
const SEC_CH_UA = BRANDS.map((b) => `"${b.brand}";v="${b.version}"`).join(', ')
const HINTS: Array<[string, string]> = [['sec-ch-ua', SEC_CH_UA], ['sec-ch-ua-platform', '"Windows"'], ['sec-ch-ua-mobile', '?0']]

const page = (over: Partial<PageIdentity> = {}): ClientHintSignals => ({ navigator: ok({ userAgent: CHROME_UA, secureContext: true, uaData: { brands: BRANDS, mobile: false, platform: 'Windows' }, ...over }) })
const obs = (ua: string, headers: Array<[string, string]>): ServerObservation => ({ ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua], ...headers], receivedAt: 0 })
const run = (check: typeof uaVsClientHints | typeof secChUaVsNavigator, s: ClientHintSignals, o: ServerObservation) => runChecks([[check, 30]], s, o, {}).checks[0]!

describe('hintsFromHeaders', () => {
  test('parses the brand list, the platform string and the mobile boolean', () => {
    expect(hintsFromHeaders(obs(CHROME_UA, HINTS))).toEqual({ raw: SEC_CH_UA, brands: BRANDS, platform: 'Windows', mobile: false })
  })
  test('absent headers are null; a malformed brand list keeps its raw value', () => {
    expect(hintsFromHeaders(obs(FIREFOX_UA, []))).toEqual({ raw: null, brands: null, platform: null, mobile: null })
    expect(hintsFromHeaders(obs(CHROME_UA, [['sec-ch-ua', 'Chromium 124']]))).toMatchObject({ raw: 'Chromium 124', brands: null })
  })
})

describe('ua-vs-client-hints', () => {
  test('passes when the hints name the browser of the User-Agent', () => {
    expect(run(uaVsClientHints, page(), obs(CHROME_UA, HINTS)).verdict).toBe('pass')
  })
  test('fails a User-Agent of another version than the hints', () => {
    const r = run(uaVsClientHints, page(), obs(CHROME_UA.replace('124', '120'), HINTS))
    expect(r.verdict).toBe('fail')
    expect(r.observed).toEqual(expect.arrayContaining([expect.stringContaining('version 120')]))
  })
  test('fails a Sec-CH-UA that is not a brand list', () => {
    expect(run(uaVsClientHints, page(), obs(CHROME_UA, [['sec-ch-ua', 'Chromium 124']])).verdict).toBe('fail')
  })
  test('warns, never fails, when a Chrome 90+ User-Agent from a secure page comes without hints', () => {
    expect(run(uaVsClientHints, page(), obs(CHROME_UA, [])).verdict).toBe('warn')
  })
  test('without hints, says which engine really sent the request and how it was told', () => {
    const firefox = run(uaVsClientHints, { ...page({ uaData: null }), engine: ok(SPIDERMONKEY) }, obs(CHROME_UA, []))
    expect(firefox).toMatchObject({ verdict: 'warn', observed: { engine: 'the page runs on SpiderMonkey (Gecko), which sends none: a User-Agent switched to Chrome' } })
    expect(firefox.expected).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
    const stripped = run(uaVsClientHints, { ...page(), engine: ok(V8) }, obs(CHROME_UA, []))
    expect(stripped).toMatchObject({ verdict: 'warn', observed: { engine: expect.stringContaining('removed them') } })
    expect(stripped.expected).toContain('judged by V8 (Blink)')
    expect(run(uaVsClientHints, page(), obs(CHROME_UA, [])).expected).toContain('the page did not report its error messages')
  })
  test('is not applicable without hints from an insecure page, from Firefox, or without the page\'s word', () => {
    expect(run(uaVsClientHints, page({ secureContext: false, uaData: null }), obs(CHROME_UA, [])).verdict).toBe('na')
    expect(run(uaVsClientHints, page({ userAgent: FIREFOX_UA, uaData: null }), obs(FIREFOX_UA, [])).verdict).toBe('na')
    const gone = { navigator: { ok: false as const, error: { kind: 'timeout' as const, message: 'no answer' }, ms: 1 } }
    expect(run(uaVsClientHints, gone, obs(CHROME_UA, [])).verdict).toBe('na')
  })
})

describe('sec-ch-ua-vs-navigator', () => {
  test('passes when headers and userAgentData agree', () => {
    expect(run(secChUaVsNavigator, page(), obs(CHROME_UA, HINTS)).verdict).toBe('pass')
  })
  test('fails different brands or platform, and hints from a page without userAgentData', () => {
    const patched = page({ uaData: { brands: [{ brand: 'Google Chrome', version: '124' }], mobile: false, platform: 'macOS' } })
    expect(run(secChUaVsNavigator, patched, obs(CHROME_UA, HINTS)).observed).toMatchObject({ differ: ['brands', 'platform'] })
    expect(run(secChUaVsNavigator, page({ uaData: null }), obs(CHROME_UA, HINTS)).verdict).toBe('fail')
  })
  test('warns when a secure Chromium page sends no hints (stripped on the way)', () => {
    expect(run(secChUaVsNavigator, page(), obs(CHROME_UA, [])).verdict).toBe('warn')
  })
  test('is not applicable with neither hints nor userAgentData', () => {
    expect(run(secChUaVsNavigator, page({ userAgent: FIREFOX_UA, uaData: null }), obs(FIREFOX_UA, [])).verdict).toBe('na')
  })
})

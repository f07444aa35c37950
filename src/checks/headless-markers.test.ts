import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { CHROME_BRANDS, CHROME_UA, FIREFOX_UA, HEADLESS_UA, chromeServer, humanChrome, missing, ok, playwrightHeadless, scope } from '../core/tools/bot-detector.fixture'
import { brandText, headlessBrands, headlessUa, headlessUaHeader, headlessWorkerUa } from './headless-markers'

const CHECKS = [[headlessUa, 40], [headlessWorkerUa, 40], [headlessBrands, 40], [headlessUaHeader, 40]] as const
const run = (s: Partial<BotDetectorSignals>, server: ServerObservation = chromeServer()) => {
  const j = runChecks(CHECKS, s as BotDetectorSignals, server, {})
  return { verdicts: j.checks.map((c) => c.verdict), by: Object.fromEntries(j.checks.map((c) => [c.id, c])), labels: [...j.labels] }
}
const HEADLESS_120 = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36'
const PATCHED_120 = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const HEADLESS_BRANDS_120 = [{ brand: 'Not_A Brand', version: '8' }, { brand: 'Chromium', version: '120' }, { brand: 'HeadlessChrome', version: '120' }]

/** Firefox: no userAgentData in the page or the worker, no client hints. */
function firefox(): Partial<BotDetectorSignals> {
  const s = humanChrome()
  if (!s.navigator.ok) throw new Error('fixture')
  const sc = scope(FIREFOX_UA, { uaPlatform: null, uaBrands: null })
  return { navigator: ok({ ...s.navigator.value, userAgent: FIREFOX_UA, appVersion: '5.0 (Windows)', vendor: '', uaData: null }), worker: ok(sc) }
}

describe('brandText', () => {
  test('writes brands as name/version', () => {
    expect(brandText(CHROME_BRANDS)).toBe('Google Chrome/131, Chromium/131, Not_A Brand/24')
  })
})

describe('headless markers', () => {
  test("pass a person's Chrome, naming nothing", () => {
    const r = run(humanChrome())
    expect(r.verdicts).toEqual(['pass', 'pass', 'pass', 'pass'])
    expect(r.by['headless-brands']).toMatchObject({ observed: 'Google Chrome/131, Chromium/131, Not_A Brand/24' })
    expect(r.labels).toEqual([])
  })

  test('pass Firefox; the brands check does not apply without userAgentData', () => {
    const r = run(firefox(), { ...chromeServer(FIREFOX_UA, {}) })
    expect(r.verdicts).toEqual(['pass', 'pass', 'na', 'pass'])
    expect(r.by['headless-brands']!.expected).toBe('no navigator.userAgentData (not Chromium, or not a secure context)')
  })

  test('fail Playwright headless in the page, the worker and the header (not the brands of Chromium 132+)', () => {
    const { signals, server } = playwrightHeadless()
    const r = run(signals, server)
    expect(r.verdicts).toEqual(['fail', 'fail', 'pass', 'fail'])
    expect(r.by['headless-ua']).toMatchObject({ points: 40, observed: HEADLESS_UA })
    expect(r.by['headless-ua-header']!.observed).toBe(`User-Agent: ${HEADLESS_UA}; Sec-CH-UA: "Not:A-Brand";v="8", "Chromium";v="156"`)
    expect(r.labels).toEqual(['headless'])
  })

  test('a user agent patched in the page only leaves the worker, the brands and the headers of headless 120', () => {
    const s = humanChrome()
    if (!s.navigator.ok) throw new Error('fixture')
    s.navigator = ok({ ...s.navigator.value, userAgent: PATCHED_120, appVersion: PATCHED_120.slice(8), uaData: { brands: HEADLESS_BRANDS_120, mobile: false, platform: 'Linux' } })
    s.worker = ok(scope(HEADLESS_120, { webdriver: null, uaBrands: brandText(HEADLESS_BRANDS_120) }))
    const r = run(s, chromeServer(PATCHED_120, { 'sec-ch-ua': '"Not_A Brand";v="8", "Chromium";v="120", "HeadlessChrome";v="120"' }))
    expect(r.verdicts).toEqual(['pass', 'fail', 'fail', 'fail'])
    expect(r.by['headless-brands']!.observed).toBe('Not_A Brand/8, Chromium/120, HeadlessChrome/120')
    expect(r.labels).toEqual(['headless'])
  })

  test('headless-ua also reads appVersion', () => {
    const s = humanChrome()
    if (!s.navigator.ok) throw new Error('fixture')
    s.navigator = ok({ ...s.navigator.value, appVersion: HEADLESS_UA.slice(8) })
    expect(run(s).by['headless-ua']!.verdict).toBe('fail')
  })

  test('headless-brands reads the worker when the page navigator is missing', () => {
    const r = run({ navigator: missing(), worker: ok(scope(HEADLESS_120, { uaBrands: brandText(HEADLESS_BRANDS_120) })) })
    expect(r.by['headless-brands']!.verdict).toBe('fail')
  })

  test('are not applicable without their signals, saying why', () => {
    const r = run({ navigator: missing(), worker: missing('unsupported', 'no Worker') }, chromeServer(CHROME_UA))
    expect(r.verdicts).toEqual(['na', 'na', 'na', 'pass'])
    expect(r.by['headless-ua']!.expected).toBe('timeout: no answer within 3000 ms')
    expect(r.by['headless-worker-ua']!.expected).toBe('unsupported: no Worker')
    expect(r.by['headless-brands']!.expected).toBe('timeout: no answer within 3000 ms')
  })
})

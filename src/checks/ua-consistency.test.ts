import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import { CHROME_UA, FIREFOX_UA, SAFARI_UA, chromeServer, humanChrome, missing, ok, playwrightHeadless } from '../core/tools/bot-detector.fixture'
import { uaConsistency } from './ua-consistency'

type Nav = Extract<BotDetectorSignals['navigator'], { ok: true }>['value']
const nav = (o: Partial<Nav>) => {
  const base = humanChrome().navigator
  if (!base.ok) throw new Error('fixture')
  return ok({ ...base.value, ...o })
}
const run = (navigator: BotDetectorSignals['navigator'], server = chromeServer()) => runChecks([[uaConsistency, 30]], { navigator } as BotDetectorSignals, server, {}).checks[0]!

describe('ua-consistency', () => {
  test("passes a person's Chrome on Windows, naming platform and brands", () => {
    expect(run(humanChrome().navigator)).toMatchObject({
      verdict: 'pass',
      points: 0,
      observed: 'platform "Win32", userAgentData Windows Google Chrome/131, Chromium/131, Not_A Brand/24',
    })
  })

  test("passes a person's Firefox (no userAgentData) and Safari (MacIntel)", () => {
    expect(run(nav({ userAgent: FIREFOX_UA, appVersion: '5.0 (Windows)', vendor: '', uaData: null }), chromeServer(FIREFOX_UA, {}))).toMatchObject({ verdict: 'pass', observed: 'platform "Win32"' })
    expect(run(nav({ userAgent: SAFARI_UA, appVersion: SAFARI_UA.slice(8), platform: 'MacIntel', vendor: 'Apple Computer, Inc.', uaData: null }), chromeServer(SAFARI_UA, {})).verdict).toBe('pass')
  })

  test("passes an iPad's Safari, which says MacIntel, and Android Chrome's Linux armv8l", () => {
    const ipad = 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
    expect(run(nav({ userAgent: ipad, platform: 'MacIntel', uaData: null })).verdict).toBe('pass')
    const android = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
    const brands = [{ brand: 'Google Chrome', version: '131' }, { brand: 'Chromium', version: '131' }, { brand: 'Not_A Brand', version: '24' }]
    expect(run(nav({ userAgent: android, platform: 'Linux armv8l', uaData: { brands, mobile: true, platform: 'Android' } })).verdict).toBe('pass')
  })

  test("headless Chromium with only its user agent set to Windows Chrome fails on platform, version and platform hint", () => {
    const { signals, server } = playwrightHeadless()
    if (!signals.navigator.ok) throw new Error('fixture')
    const r = run(ok({ ...signals.navigator.value, userAgent: CHROME_UA, appVersion: CHROME_UA.slice(8) }), server)
    expect(r).toMatchObject({ verdict: 'fail', points: 30 })
    expect(r.observed).toEqual([
      'the user agent claims windows, navigator.platform is "Linux x86_64"',
      'the User-Agent says version 131, the brands 156',
      'the User-Agent claims windows, the platform hint Linux',
    ])
  })

  test('a Firefox user agent on a Chromium build fails: userAgentData gives it away', () => {
    const r = run(nav({ userAgent: FIREFOX_UA }), chromeServer(FIREFOX_UA, {}))
    expect(r.verdict).toBe('fail')
    expect(r.observed).toEqual(['the User-Agent claims firefox (gecko), which sends no client hints'])
  })

  test('an overridden platform alone fails', () => {
    expect(run(nav({ platform: 'MacIntel', uaData: null }))).toMatchObject({ verdict: 'fail', observed: ['the user agent claims windows, navigator.platform is "MacIntel"'] })
  })

  test('is na with the reason when navigator could not be read', () => {
    expect(run(missing())).toMatchObject({ verdict: 'na', points: 0, expected: 'timeout: no answer within 3000 ms' })
  })
})

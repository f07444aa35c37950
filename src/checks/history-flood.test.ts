import { describe, expect, test } from 'bun:test'
import { ok, humanChrome, LINUX_UA, CHROMIUM_HINTS, linuxChromium, chromeServer, judge, failing, missing, V8 } from '../core/tools/bot-detector.fixture'

// Firefox ESR 153 on Linux as the detection matrix's Firefox person reported it (issue 11).
const FIREFOX_153_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0'
const FIREFOX_153_ENGINE = { evalLength: 37, nullError: 'can\'t access property "x", JSON.parse(...) is null', rangeError: 'precision -1 out of range' }
const FIREFOX_153_NAV = { userAgent: FIREFOX_153_UA, appVersion: '5.0 (X11)', platform: 'Linux x86_64', language: 'en-US', languages: ['en-US', 'en'], vendor: '', secureContext: true, uaData: null }

describe('history floods in bot-detector', () => {
  test('history floods: a lifted cap (Playwright and Puppeteer launch flags) fails; Firefox and Safari throwing pass', () => {
    const s = humanChrome()
    s.navRate = ok({ calls: 400, accepted: 100, lastApplied: 100, error: 'SecurityError: Attempt to use history.replaceState() more than 100 times per 30 seconds' })
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('pass')
    s.navRate = ok({ calls: 400, accepted: 400, lastApplied: 400, error: null })
    const r = judge(s)
    expect(r.byId('navigation-rate-limit').verdict).toBe('fail')
    expect(r.byId('navigation-rate-limit').expected).toBe("the browser stops applying them after its cap (200 calls in Chromium); judged by V8 (Blink), the engine the page's error messages show")
    expect(r.sections.frameworks).toEqual(['automation-flags'])
    expect(r.sections.verdict).toBe('suspicious')
    s.navRate = ok({ calls: 50, accepted: 50, lastApplied: 50, error: null })
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('na')
    // A flood no longer than Chromium's cap of 200 cannot tell; one call more can.
    s.navRate = ok({ calls: 200, accepted: 200, lastApplied: 200, error: null })
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('na')
    s.navRate = ok({ calls: 201, accepted: 201, lastApplied: 201, error: null })
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('fail')
    s.navRate = ok({ calls: 201, accepted: 201, lastApplied: 200, error: null })
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('pass')
  })

  test('headful Puppeteer or Playwright without --enable-automation (webdriver false) is a bot from CDP and its launch flags', () => {
    const s = linuxChromium()
    s.cdp = ok({ prepareStackTrace: true, stackGetter: false })
    s.navRate = ok({ calls: 400, accepted: 400, lastApplied: 400, error: null })
    const r = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(failing(r.checks)).toEqual(['cdp-runtime', 'navigation-rate-limit'])
    expect(r.score).toBeLessThanOrEqual(40)
    expect(r.sections.verdict).toBe('bot')
    expect(r.sections.frameworks).toEqual(['cdp', 'automation-flags'])
  })

  test('Firefox applying all 400 calls as shipped is not applicable, judged by the SpiderMonkey engine', () => {
    const s = humanChrome()
    s.engine = ok(FIREFOX_153_ENGINE)
    s.navigator = ok(FIREFOX_153_NAV)
    s.navRate = ok({ calls: 400, accepted: 400, lastApplied: 400, error: null })
    const r = judge(s)
    expect(r.byId('navigation-rate-limit').verdict).toBe('na')
    expect(r.byId('navigation-rate-limit').expected).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
    expect(r.sections.frameworks).not.toContain('automation-flags')
  })

  test('an uncapped flood on V8 fails whatever the user agent claims; without the engine signal it is not applicable', () => {
    const s = humanChrome()
    s.navigator = ok(FIREFOX_153_NAV)
    s.navRate = ok({ calls: 400, accepted: 400, lastApplied: 400, error: null })
    expect(s.engine).toEqual(ok(V8))
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('fail')
    s.engine = missing()
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('na')
  })
})

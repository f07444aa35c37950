import { describe, expect, test } from 'bun:test'
import { ok, humanChrome, LINUX_UA, CHROMIUM_HINTS, linuxChromium, chromeServer, judge, failing } from '../core/tools/bot-detector.fixture'

describe('history floods in bot-detector', () => {
  test('history floods: a lifted cap (Playwright and Puppeteer launch flags) fails; Firefox and Safari throwing pass', () => {
    const s = humanChrome()
    s.navRate = ok({ calls: 400, accepted: 100, lastApplied: 100, error: 'SecurityError: Attempt to use history.replaceState() more than 100 times per 30 seconds' })
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('pass')
    s.navRate = ok({ calls: 400, accepted: 400, lastApplied: 400, error: null })
    const r = judge(s)
    expect(r.byId('navigation-rate-limit').verdict).toBe('fail')
    expect(r.sections.frameworks).toEqual(['automation-flags'])
    expect(r.sections.verdict).toBe('suspicious')
    s.navRate = ok({ calls: 50, accepted: 50, lastApplied: 50, error: null })
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('na')
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
})

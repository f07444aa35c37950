import { describe, expect, test } from 'bun:test'
import { parseUserAgent, uaHintMismatches } from '../../common/user-agent'
import { CHROME_UA, defaultFirefox, desktopChrome, fail, FIREFOX_153_UA, plain, requestFrom, runOne, twice } from '../core/tools/browser-fingerprint.fixture'
import { SPIDERMONKEY } from '../core/tools/bot-detector.fixture'
import { fpPlatform, fpUaClientHints, fpVendor } from './navigator-claims'

const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'

// fp-ua-client-hints compares navigator.userAgentData with the one comparison of UA and client
// hints (uaHintMismatches), which http-headers, bot-detector and tls-fingerprint use too.
describe('userAgentData against the User-Agent (fp-ua-client-hints)', () => {
  test('ignores GREASE brands and compares version, platform and mobile', () => {
    const brands = [{ brand: 'Not/A)Brand', version: '8' }, { brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }]
    expect(uaHintMismatches(parseUserAgent(CHROME_UA), { brands, platform: 'Windows', mobile: false })).toEqual([])
    expect(uaHintMismatches(parseUserAgent(CHROME_UA), { brands: [{ brand: 'Chromium', version: '120' }], platform: 'macOS', mobile: true })).toEqual([
      'the User-Agent says version 124, the brands 120',
      'the User-Agent claims windows, the platform hint macOS',
      'the User-Agent says mobile=false, the hint true',
    ])
    expect(uaHintMismatches(parseUserAgent(FIREFOX_UA), { brands, platform: 'Windows', mobile: false })[0]).toContain('gecko')
  })

  test('an Android tablet (no "Mobile" token) is not mobile, a phone is', () => {
    const tablet = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
    const phone = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
    const brands = [{ brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }]
    expect(uaHintMismatches(parseUserAgent(tablet), { brands, platform: 'Android', mobile: false })).toEqual([])
    expect(uaHintMismatches(parseUserAgent(phone), { brands, platform: 'Android', mobile: true })).toEqual([])
    expect(uaHintMismatches(parseUserAgent(tablet), { brands, platform: 'Android', mobile: true })).toEqual(['the User-Agent says mobile=false, the hint true'])
  })
})

describe('navigator against the User-Agent', () => {
  test('fp-ua-client-hints warns when a Chromium page has no userAgentData, and is na for other engines', () => {
    const s = desktopChrome()
    s.uaData = fail('unsupported', 'no navigator.userAgentData (Chromium only, in secure contexts)')
    expect(runOne(fpUaClientHints, s)).toMatchObject({ verdict: 'warn', observed: expect.stringContaining('on V8 (Blink), which has it, so it was removed'), expected: expect.stringContaining('judged by V8 (Blink)') })
    // Firefox behind a Chrome User-Agent: the page's engine says why there is none.
    expect(runOne(fpUaClientHints, { ...s, engine: plain(SPIDERMONKEY) }).observed).toContain('the User-Agent claims blink, but the page runs on SpiderMonkey (Gecko), which has none')
    s.navigator = twice({ userAgent: FIREFOX_UA, appVersion: '5.0 (Windows)', platform: 'Win32', vendor: '', productSub: '20100101', oscpu: null, cpuClass: null })
    expect(runOne(fpUaClientHints, s, requestFrom(FIREFOX_UA))).toMatchObject({ verdict: 'na', expected: 'unsupported: no navigator.userAgentData (Chromium only, in secure contexts)' })
  })
  test('fp-platform and fp-vendor pass desktop Chrome and fail Firefox’s vendor under a Chrome UA', () => {
    expect(runOne(fpPlatform).verdict).toBe('pass')
    expect(runOne(fpVendor).verdict).toBe('pass')
    const s = desktopChrome()
    s.navigator = twice({ userAgent: CHROME_UA, appVersion: CHROME_UA.slice(8), platform: 'Win32', vendor: '', productSub: '20100101', oscpu: null, cpuClass: null })
    expect(runOne(fpVendor, s)).toMatchObject({ verdict: 'fail', observed: 'vendor "" (V8 (Blink) gives "Google Inc.")' })
  })
  test('fp-vendor judges by the engine the page runs on: Firefox under a Chrome User-Agent fails on the claim, not on its own vendor', () => {
    const ff = defaultFirefox()
    expect(runOne(fpVendor, ff, requestFrom(FIREFOX_153_UA))).toMatchObject({ verdict: 'pass', expected: 'vendor "", under a User-Agent of the same engine (judged by SpiderMonkey (Gecko), the engine the page\'s error messages show)' })
    ff.navigator = twice({ userAgent: CHROME_UA, appVersion: CHROME_UA.slice(8), platform: 'Linux x86_64', vendor: '', productSub: '20100101', oscpu: 'Linux x86_64', cpuClass: null })
    expect(runOne(fpVendor, ff)).toMatchObject({ verdict: 'fail', observed: 'the User-Agent claims blink, but the page runs on SpiderMonkey (Gecko)' })
    const { engine: _, ...old } = ff
    expect(runOne(fpVendor, old)).toMatchObject({ verdict: 'na', expected: expect.stringContaining('the page did not report its error messages') })
  })
})

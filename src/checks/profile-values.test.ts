import { describe, expect, test } from 'bun:test'
import { defaultFirefox, desktopChrome, fail, FIREFOX_153_UA, plain, requestFrom, resistingFirefox, runOne, twice } from '../core/tools/browser-fingerprint.fixture'
import { SPIDERMONKEY } from '../core/tools/bot-detector.fixture'
import { fpHardware, fpPrivacyMode, fpStorage, fpTimezone } from './profile-values'

describe('profile values', () => {
  test('fp-timezone is na where Intl cannot format an offset', () => {
    const s = desktopChrome()
    s.timezone = twice({ zone: 'Europe/Berlin', offset: -120, intlOffset: null, locale: 'de-DE', calendar: 'gregory' })
    expect(runOne(fpTimezone, s)).toMatchObject({ verdict: 'na', expected: 'this engine cannot format a zone offset (Intl longOffset)' })
  })
  test('fp-hardware fails a deviceMemory that is no power of two', () => {
    const s = desktopChrome()
    s.hardware = twice({ hardwareConcurrency: 8, deviceMemory: 6 })
    expect(runOne(fpHardware, s)).toMatchObject({ verdict: 'fail', observed: 'deviceMemory 6 is not a power of two' })
  })
  test('fp-hardware judges deviceMemory by the engine the page runs on, not the user agent', () => {
    const s = desktopChrome()
    expect(runOne(fpHardware, s).expected).toBe("a positive core count; deviceMemory a power of two, on V8 (Blink) only (judged by V8 (Blink), the engine the page's error messages show)")
    s.engine = plain(SPIDERMONKEY)
    expect(runOne(fpHardware, s)).toMatchObject({ verdict: 'fail', observed: 'deviceMemory on SpiderMonkey (Gecko), which does not implement it', expected: expect.stringContaining('judged by SpiderMonkey (Gecko)') })
  })
  test('fp-privacy-mode needs the time zone and touch support, and says which are missing', () => {
    const s = desktopChrome()
    s.timezone = fail('timeout', 'no answer')
    s.touch = fail('error', 'threw')
    expect(runOne(fpPrivacyMode, s)).toMatchObject({ verdict: 'na', expected: 'timeout: no answer; error: threw' })
    expect(runOne(fpPrivacyMode)).toMatchObject({ verdict: 'pass', expected: "an ordinary profile (resistFingerprinting is Gecko's; judged by V8 (Blink), the engine the page's error messages show)" })
  })
  test("fp-privacy-mode: a default Firefox on a 2-core machine in UTC is an ordinary profile (the tools matrix's Firefox person)", () => {
    const c = runOne(fpPrivacyMode, defaultFirefox(), requestFrom(FIREFOX_153_UA))
    expect(c).toMatchObject({ verdict: 'pass', observed: { zone: 'UTC', maxTouchPoints: 0, touchEvent: false } })
    expect(c.expected).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
  })
  test('fp-privacy-mode: resistFingerprinting is detected by its zone with another tell, on SpiderMonkey only', () => {
    expect(runOne(fpPrivacyMode, resistingFirefox(), requestFrom(FIREFOX_153_UA))).toMatchObject({
      verdict: 'warn',
      observed: 'anti-fingerprinting detected (resistFingerprinting): the zone Atlantic/Reykjavik, maxTouchPoints 5 without touch events, canvas read differently twice (randomised reads)',
    })
    // Firefox before 128 reported UTC; its randomised canvas is tell enough.
    const old = resistingFirefox()
    old.timezone = twice({ zone: 'UTC', offset: 0, intlOffset: 0, locale: 'en-US', calendar: 'gregory' })
    old.touch = twice({ maxTouchPoints: 0, touchEvent: false })
    expect(runOne(fpPrivacyMode, old).verdict).toBe('warn')
    // A person in Iceland with a touch screen: touch events on, canvas stable.
    const iceland = defaultFirefox()
    iceland.timezone = twice({ zone: 'Atlantic/Reykjavik', offset: 0, intlOffset: 0, locale: 'is-IS', calendar: 'gregory' })
    iceland.touch = twice({ maxTouchPoints: 10, touchEvent: true })
    expect(runOne(fpPrivacyMode, iceland).verdict).toBe('pass')
    // The same values on V8 are no Gecko setting; without the engine signal nothing is judged.
    expect(runOne(fpPrivacyMode, { ...resistingFirefox(), engine: desktopChrome().engine }).verdict).toBe('pass')
    const { engine: _, ...old2 } = resistingFirefox()
    expect(runOne(fpPrivacyMode, old2)).toMatchObject({ verdict: 'na', expected: expect.stringContaining('the page did not report its error messages') })
  })
  test('fp-storage warns on blocked storage', () => {
    const s = desktopChrome()
    s.storage = twice({ cookieEnabled: true, cookies: false, localStorage: false, sessionStorage: true, indexedDB: true, openDatabase: false })
    expect(runOne(fpStorage, s)).toMatchObject({ verdict: 'warn', observed: 'blocked: cookies, localStorage' })
  })
})

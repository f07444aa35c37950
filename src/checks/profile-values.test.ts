import { describe, expect, test } from 'bun:test'
import { desktopChrome, fail, runOne, twice } from '../core/tools/browser-fingerprint.fixture'
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
  test('fp-privacy-mode needs hardware, time zone and languages, and says which are missing', () => {
    const s = desktopChrome()
    s.hardware = fail('timeout', 'no answer')
    s.languages = fail('error', 'threw')
    expect(runOne(fpPrivacyMode, s)).toMatchObject({ verdict: 'na', expected: 'timeout: no answer; error: threw' })
    expect(runOne(fpPrivacyMode).verdict).toBe('pass')
  })
  test('fp-storage warns on blocked storage', () => {
    const s = desktopChrome()
    s.storage = twice({ cookieEnabled: true, cookies: false, localStorage: false, sessionStorage: true, indexedDB: true, openDatabase: false })
    expect(runOne(fpStorage, s)).toMatchObject({ verdict: 'warn', observed: 'blocked: cookies, localStorage' })
  })
})

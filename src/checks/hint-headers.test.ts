import { describe, expect, test } from 'bun:test'
import { CHROME_UA, desktopChrome, requestFrom, runOne, twice } from '../core/tools/browser-fingerprint.fixture'
import { fpArchitecture, fpDeviceMemoryHint, fpLanguage, fpMediaHints } from './hint-headers'

describe('request hints against the page', () => {
  test('fp-architecture: the NaN byte against the hint, from the header or userAgentData', () => {
    expect(runOne(fpArchitecture, desktopChrome(), requestFrom(CHROME_UA, [['sec-ch-ua-arch', '"x86"']])).verdict).toBe('pass')
    expect(runOne(fpArchitecture).verdict).toBe('pass') // userAgentData.high.architecture "x86"
    const arm = desktopChrome()
    arm.architecture = twice(127)
    expect(runOne(fpArchitecture, arm).verdict).toBe('warn')
  })
  test('fp-device-memory-hint says which side is missing', () => {
    expect(runOne(fpDeviceMemoryHint)).toMatchObject({ verdict: 'na', expected: 'the browser sent no Device-Memory hint (Chromium only, after Accept-CH)' })
    const s = desktopChrome()
    s.hardware = twice({ hardwareConcurrency: 8, deviceMemory: null })
    expect(runOne(fpDeviceMemoryHint, s, requestFrom(CHROME_UA, [['device-memory', '8']]))).toMatchObject({ verdict: 'na', expected: 'no navigator.deviceMemory' })
    expect(runOne(fpDeviceMemoryHint, desktopChrome(), requestFrom(CHROME_UA, [['sec-ch-device-memory', '8']])).verdict).toBe('pass')
  })
  test('fp-language: another region of the same language only warns', () => {
    expect(runOne(fpLanguage, desktopChrome(), requestFrom(CHROME_UA, [['accept-language', 'de-DE,de;q=0.9']])).verdict).toBe('pass')
    expect(runOne(fpLanguage, desktopChrome(), requestFrom(CHROME_UA, [['accept-language', 'de-AT,de;q=0.9']])).verdict).toBe('warn')
    expect(runOne(fpLanguage, desktopChrome(), requestFrom(CHROME_UA, [['accept-language', 'fr-FR']])).verdict).toBe('fail')
  })
  test('fp-media-hints: na without hints, fail when CSS disagrees', () => {
    expect(runOne(fpMediaHints).verdict).toBe('na')
    expect(runOne(fpMediaHints, desktopChrome(), requestFrom(CHROME_UA, [['sec-ch-prefers-reduced-motion', 'reduce']])).verdict).toBe('fail')
  })
})

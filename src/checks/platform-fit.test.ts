import { describe, expect, test } from 'bun:test'
import { defaultFirefox, desktopChrome, FIREFOX_153_UA, requestFrom, runOne, twice } from '../core/tools/browser-fingerprint.fixture'
import { fpAudioEngine, fpFontsOs, fpGpuOs, fpSoftwareRenderer } from './platform-fit'

describe('components against the claimed platform', () => {
  test('GPU and fonts fit Windows Chrome; an unknown OS has nothing to compare fonts with', () => {
    expect(runOne(fpSoftwareRenderer).verdict).toBe('pass')
    expect(runOne(fpGpuOs).verdict).toBe('pass')
    expect(runOne(fpFontsOs).verdict).toBe('pass')
    expect(runOne(fpFontsOs, desktopChrome(), requestFrom('Mozilla/5.0 (compatible; Something)'))).toMatchObject({ verdict: 'na', expected: 'the User-Agent names no known OS' })
  })
  test("fp-fonts-os fails a Windows claim over a Linux server's fonts (fingerprint spoofers), passes a Mac with Office fonts", () => {
    const WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36'
    const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36'
    const s = desktopChrome()
    // fingerprint-injector's Windows Chrome on Playwright's headless Chromium on Linux, in the tools matrix.
    s.fonts = twice(['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Mono', 'Arial', 'Courier New', 'Times New Roman', 'Helvetica'])
    expect(runOne(fpFontsOs, s, requestFrom(WIN))).toMatchObject({ verdict: 'fail', observed: { inferred: 'linux', claimed: 'windows' } })
    s.fonts = twice(['Helvetica Neue', 'Menlo', 'Monaco', 'Geneva', 'Lucida Grande', 'Calibri', 'Cambria', 'Consolas'])
    expect(runOne(fpFontsOs, s, requestFrom(MAC)).verdict).toBe('pass')
  })
  test('fp-audio-engine cannot judge a noised sum', () => {
    const s = desktopChrome()
    s.audio = twice({ sum: 124.04347527516074, copySum: null, reduction: null }, { sum: 124.0434761, copySum: null, reduction: null })
    expect(runOne(fpAudioEngine, s)).toMatchObject({ verdict: 'na', expected: 'the sum is noised (see fp-stability)' })
    expect(runOne(fpAudioEngine).verdict).toBe('pass')
  })
  test('fp-audio-engine names the engine the page runs on beside the claimed one', () => {
    expect(runOne(fpAudioEngine).expected).toBe("a sum known for blink, the engine the User-Agent claims (judged by V8 (Blink), the engine the page's error messages show)")
    expect(runOne(fpAudioEngine, defaultFirefox(), requestFrom(FIREFOX_153_UA))).toMatchObject({ verdict: 'pass', expected: expect.stringContaining('judged by SpiderMonkey (Gecko)') })
    // Firefox's sum under a Chrome User-Agent (a UA switcher): the claim is what fails.
    const s = defaultFirefox()
    s.navigator = desktopChrome().navigator
    expect(runOne(fpAudioEngine, s)).toMatchObject({ verdict: 'fail', observed: { reason: expect.stringContaining('the User-Agent lies about the engine') } })
  })
})

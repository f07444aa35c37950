import { describe, expect, test } from 'bun:test'
import { desktopChrome, requestFrom, runOne, twice } from '../core/tools/browser-fingerprint.fixture'
import { fpAudioEngine, fpFontsOs, fpGpuOs, fpSoftwareRenderer } from './platform-fit'

describe('components against the claimed platform', () => {
  test('GPU and fonts fit Windows Chrome; an unknown OS has nothing to compare fonts with', () => {
    expect(runOne(fpSoftwareRenderer).verdict).toBe('pass')
    expect(runOne(fpGpuOs).verdict).toBe('pass')
    expect(runOne(fpFontsOs).verdict).toBe('pass')
    expect(runOne(fpFontsOs, desktopChrome(), requestFrom('Mozilla/5.0 (compatible; Something)'))).toMatchObject({ verdict: 'na', expected: 'the User-Agent names no known OS' })
  })
  test('fp-audio-engine cannot judge a noised sum', () => {
    const s = desktopChrome()
    s.audio = twice({ sum: 124.04347527516074, copySum: null, reduction: null }, { sum: 124.0434761, copySum: null, reduction: null })
    expect(runOne(fpAudioEngine, s)).toMatchObject({ verdict: 'na', expected: 'the sum is noised (see fp-stability)' })
    expect(runOne(fpAudioEngine).verdict).toBe('pass')
  })
})

import { describe, expect, test } from 'bun:test'
import { desktopChrome, fail, runOne, twice } from '../core/tools/browser-fingerprint.fixture'
import { fingerprintOf, fpStability, visitorIdOf } from './visitor-id'

describe('the visitor id', () => {
  test('keeps steady absences (unsupported, blocked) and leaves out noise, timeouts and failures', () => {
    const s = desktopChrome()
    s.webgl = fail('unsupported', 'no webgl context')
    s.audio = fail('timeout', 'no answer within 3000 ms')
    s.canvas = fail('farbled', 'two reads differ')
    const fp = fingerprintOf(s)
    expect(fp.components.webgl).toMatchObject({ inVisitorId: true, stable: true })
    expect(fp.components.audio).toMatchObject({ inVisitorId: false, stable: true, hash: null })
    expect(fp.unstable).toEqual(['canvas'])
    expect(fp.excluded).toEqual(['audio', 'canvas'])
  })
  test('is null when no component went into it', () => {
    expect(visitorIdOf({})).toBeNull()
    expect(visitorIdOf(desktopChrome())).toMatch(/^[0-9a-f]{16}$/)
  })
})

describe('fp-stability', () => {
  test('passes identical reads, naming the visitor id', () => {
    expect(String(runOne(fpStability).observed)).toBe(`17 components identical on both reads; visitor id ${visitorIdOf(desktopChrome())}`)
  })
  test('warns on a component that read differently, saying how', () => {
    const s = desktopChrome()
    s.screen = twice({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1032, colorDepth: 24, pixelDepth: 24, orientation: null, devicePixelRatio: 1 }, { width: 1280, height: 720, availWidth: 1280, availHeight: 680, colorDepth: 24, pixelDepth: 24, orientation: null, devicePixelRatio: 1 })
    expect(runOne(fpStability, s)).toMatchObject({ verdict: 'warn', observed: 'anti-fingerprinting detected, noise added per read (farbling): screen (two reads differ); left out of the visitor id' })
  })
})

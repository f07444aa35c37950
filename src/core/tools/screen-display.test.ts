import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { ScreenDisplaySignals } from '../../../common/signals/screen-display'
import { summarize } from '../scoring'
import type { ServerObservation } from './observation'
import { screenDisplay } from './screen-display'
import {
  CHROMIUM_156_SERVER, FIREFOX_153_SERVER, SPOOFER_FIREFOX_SERVER, SPOOFER_MACOS_SERVER, SPOOFER_WINDOWS_FULL_HD_SERVER, SPOOFER_WINDOWS_SERVER, V8_156,
  chromium156, firefox153, firefox153Rfp, spooferFirefox, spooferMacos, spooferWindows, spooferWindowsFullHd,
} from './screen-display.fixture'

const ok = <T,>(value: T) => ({ ok: true as const, value, ms: 2 })
const server = (headers: Array<[string, string]> = []): ServerObservation => ({ ip: '192.0.2.1', userAgent: '', headers, receivedAt: 0 })

/** A desktop Chrome window on a 1920×1080 screen with a taskbar (from a real run, trimmed). */
function desktop(): ScreenDisplaySignals {
  return {
    screen: ok({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24, pixelDepth: 24, orientation: 'landscape-primary' }),
    window: ok({ innerWidth: 1920, innerHeight: 945, outerWidth: 1920, outerHeight: 1040, screenX: 0, screenY: 0, devicePixelRatio: 1 }),
    visualViewport: ok({ width: 1920, height: 945, scale: 1 }),
    media: ok({
      deviceWidthMatches: true, deviceHeightMatches: true, resolutionMatches: true, colorGamut: 'srgb', dynamicRange: 'standard',
      pointer: 'fine', hover: 'hover', colorScheme: 'light', reducedMotion: false, forcedColors: false,
    }),
    touch: ok({ maxTouchPoints: 0, touchEvent: false }),
    engine: ok(V8_156),
  }
}

describe('screen-display tool', () => {
  test('a desktop window passes, the checks in their order, and the display section', () => {
    const s = desktop()
    expect(Value.Check(ScreenDisplaySignals, s)).toBe(true)
    const { checks, sections } = screenDisplay.judge(s, server([['sec-ch-viewport-width', '1920'], ['sec-ch-dpr', '1']]))
    expect(checks.map((c) => [c.id, c.verdict])).toEqual([
      ['screen-size', 'pass'], ['default-viewport', 'pass'], ['outer-equals-inner', 'pass'], ['page-in-window', 'pass'], ['screen-taskbar', 'pass'], ['color-depth', 'pass'],
      ['window-position', 'pass'], ['screen-anti-fingerprinting', 'pass'], ['device-width-media', 'pass'], ['resolution-media', 'pass'], ['touch-consistency', 'pass'],
      ['client-hint-viewport', 'pass'], ['client-hint-dpr', 'pass'],
    ])
    expect(summarize(checks).score).toBe(100)
    expect(sections).toEqual({
      display: {
        screen: { width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24, pixelDepth: 24, orientation: 'landscape-primary' },
        viewport: { width: 1920, height: 945, outerWidth: 1920, outerHeight: 1040 },
        devicePixelRatio: 1, colorGamut: 'srgb', hdr: false, maxTouchPoints: 0,
      },
    })
  })

  test('Playwright’s headless 1280×720 page: no chrome fails, the defaults warn, with the tool’s weights', () => {
    const s = desktop()
    s.screen = ok({ width: 1280, height: 720, availWidth: 1280, availHeight: 720, colorDepth: 24, pixelDepth: 24, orientation: 'landscape-primary' })
    s.window = ok({ innerWidth: 1280, innerHeight: 720, outerWidth: 1280, outerHeight: 720, screenX: 0, screenY: 0, devicePixelRatio: 1 })
    const { checks } = screenDisplay.judge(s, server())
    const by = (id: string) => checks.find((c) => c.id === id)!
    expect(by('outer-equals-inner')).toMatchObject({ verdict: 'fail', points: 20 })
    expect(by('default-viewport')).toMatchObject({ verdict: 'warn', points: 10 })
    expect(by('screen-taskbar').verdict).toBe('warn')
    expect(by('window-position').verdict).toBe('warn')
  })

  test('no signals at all: every check is not applicable and the section is empty', () => {
    const none = { ok: false as const, error: { kind: 'error' as const, message: 'boom' }, ms: 1 }
    const { checks, sections } = screenDisplay.judge({ screen: none, window: none, visualViewport: none, media: none, touch: none, engine: none }, server())
    expect(checks.every((c) => c.verdict === 'na')).toBe(true)
    expect(sections).toEqual({ display: { screen: null, viewport: null, devicePixelRatio: null, colorGamut: null, hdr: null, maxTouchPoints: null } })
  })

  test('the people of the tools matrix as captured: no failed check and at least 80', () => {
    const problems = (s: ScreenDisplaySignals, obs: ServerObservation) => {
      const { checks } = screenDisplay.judge(s, obs)
      return { failed: checks.filter((c) => c.verdict === 'fail').map((c) => c.id), warned: checks.filter((c) => c.verdict === 'warn').map((c) => c.id), score: summarize(checks).score }
    }
    // Xvfb has no window manager: nothing reserves a taskbar.
    expect(problems(chromium156(), CHROMIUM_156_SERVER)).toEqual({ failed: [], warned: ['screen-taskbar'], score: 98 })
    expect(problems(firefox153(), FIREFOX_153_SERVER)).toEqual({ failed: [], warned: ['screen-taskbar'], score: 98 })
    // resistFingerprinting: one warning, the checks of the values it replaces not judged.
    const rfp = screenDisplay.judge(firefox153Rfp(), FIREFOX_153_SERVER).checks
    expect(rfp.filter((c) => c.verdict !== 'pass').map((c) => [c.id, c.verdict])).toEqual([
      ['outer-equals-inner', 'na'], ['screen-taskbar', 'na'], ['window-position', 'na'], ['screen-anti-fingerprinting', 'warn'], ['touch-consistency', 'na'],
      ['client-hint-viewport', 'na'], ['client-hint-dpr', 'na'],
    ])
    expect(summarize(rfp).score).toBe(95)
  })

  test('the fingerprint-injector spoofers as captured stay under 80: a page the whole screen’s size in a smaller window, and a devicePixelRatio CSS and Sec-CH-DPR contradict', () => {
    const cases = [
      [spooferWindows(), SPOOFER_WINDOWS_SERVER, ['page-in-window', 'resolution-media', 'client-hint-dpr']],
      [spooferMacos(), SPOOFER_MACOS_SERVER, ['page-in-window', 'resolution-media', 'client-hint-dpr']],
      // A fingerprint whose devicePixelRatio is the real one: the window around the page gives it away alone.
      [spooferWindowsFullHd(), SPOOFER_WINDOWS_FULL_HD_SERVER, ['page-in-window']],
      [spooferFirefox(), SPOOFER_FIREFOX_SERVER, ['page-in-window']],
    ] as const
    for (const [s, obs, failed] of cases) {
      const { checks } = screenDisplay.judge(s, obs)
      expect(checks.filter((c) => c.verdict === 'fail').map((c) => c.id)).toEqual([...failed])
      expect(summarize(checks).score).toBeLessThan(80)
    }
  })
})

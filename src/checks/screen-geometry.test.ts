import { describe, expect, test } from 'bun:test'
import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import type { JsEngine } from '../../common/signals/shared'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import {
  SPIDERMONKEY_153, V8_156, chromium156, firefox153, firefox153Rfp, spooferFirefox, spooferMacos, spooferWindows, spooferWindowsFullHd,
} from '../core/tools/screen-display.fixture'
import { colorDepth, outerEqualsInner, pageInWindow, screenSize, screenTaskbar, windowPosition } from './screen-geometry'
import { ok } from '../../tests/support/signals'

const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers: [], receivedAt: 0 }
const unsupported = { ok: false as const, error: { kind: 'unsupported' as const, message: 'no visualViewport' }, ms: 1 }
type Screen = ScreenDisplaySignals['screen'] & { ok: true }
type Win = ScreenDisplaySignals['window'] & { ok: true }

const SCREEN: Screen['value'] = { width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24, pixelDepth: 24, orientation: 'landscape-primary' }
const WINDOW: Win['value'] = { innerWidth: 1920, innerHeight: 945, outerWidth: 1920, outerHeight: 1040, screenX: 0, screenY: 0, devicePixelRatio: 1 }
const CHECKS = [[screenSize, 30], [outerEqualsInner, 20], [screenTaskbar, 4], [colorDepth, 6], [windowPosition, 4]] as const

const judge = (s: ScreenDisplaySignals) => Object.fromEntries(runChecks([...CHECKS], s, server, {}).checks.map((c) => [c.id, c]))

function run(screen: Partial<Screen['value']> = {}, win: Partial<Win['value']> = {}, engine: JsEngine = V8_156) {
  const s: ScreenDisplaySignals = { screen: ok({ ...SCREEN, ...screen }), window: ok({ ...WINDOW, ...win }), visualViewport: unsupported, media: unsupported, touch: unsupported, engine: ok(engine) }
  return Object.fromEntries(Object.entries(judge(s)).map(([id, c]) => [id, c.verdict]))
}

describe('screen geometry', () => {
  test('a maximised desktop window passes everything', () => {
    expect(run()).toEqual({ 'screen-size': 'pass', 'outer-equals-inner': 'pass', 'screen-taskbar': 'pass', 'color-depth': 'pass', 'window-position': 'pass' })
  })

  test('a 0×0 screen, or an available area larger than the screen, fails screen-size', () => {
    expect(run({ width: 0, height: 0, availWidth: 0, availHeight: 0 })['screen-size']).toBe('fail')
    expect(run({ availHeight: 1200 })['screen-size']).toBe('fail')
  })

  test('a headless window (outer == inner at 0, 0, no taskbar) fails chrome and warns on taskbar and position', () => {
    const r = run({ availHeight: 1080 }, { innerHeight: 1040, outerHeight: 1040 })
    expect(r).toMatchObject({ 'outer-equals-inner': 'fail', 'screen-taskbar': 'warn', 'window-position': 'warn' })
  })

  test('an outer size of 0 has no chrome', () => {
    expect(run({}, { outerWidth: 0, outerHeight: 0 })['outer-equals-inner']).toBe('fail')
  })

  test('a window placed away from the origin is not judged by position', () => {
    expect(run({}, { innerHeight: 1040, screenX: 40, screenY: 20 })['window-position']).toBe('pass')
  })

  test('colour depths other than 24, 30 and 48 warn', () => {
    expect(run({ colorDepth: 30 })['color-depth']).toBe('pass')
    expect(run({ colorDepth: 16 })['color-depth']).toBe('warn')
  })

  test('Chromium 156 and Firefox ESR 153 as captured (Xvfb, no taskbar): only the taskbar warns, each check says its engine', () => {
    const chrome = judge(chromium156())
    expect(Object.values(chrome).filter((c) => c.verdict !== 'pass').map((c) => c.id)).toEqual(['screen-taskbar'])
    expect(chrome['outer-equals-inner']!.expected).toBe("outer height greater than inner height; judged by V8 (Blink), the engine the page's error messages show")
    const firefox = judge(firefox153())
    expect(Object.values(firefox).filter((c) => c.verdict !== 'pass').map((c) => c.id)).toEqual(['screen-taskbar'])
    expect(firefox['window-position']!.expected).toBe("a window placed by a window manager; judged by SpiderMonkey (Gecko), the engine the page's error messages show")
  })

  test("Firefox ESR 153 with resistFingerprinting as captured: chrome, taskbar and position are not judged, saying why", () => {
    const r = judge(firefox153Rfp())
    expect(Object.fromEntries(Object.entries(r).map(([id, c]) => [id, c.verdict]))).toEqual({
      'screen-size': 'pass', 'outer-equals-inner': 'na', 'screen-taskbar': 'na', 'color-depth': 'pass', 'window-position': 'na',
    })
    expect(r['outer-equals-inner']!.expected).toBe(
      "anti-fingerprinting (resistFingerprinting) reports the page's size as the window's (1400×900), so this is not judged (see screen-anti-fingerprinting); judged by SpiderMonkey (Gecko), the engine the page's error messages show",
    )
  })

  test('the same sizes on V8, or without the engine signal, are a window without chrome: fail', () => {
    const rfp = firefox153Rfp()
    expect(judge({ ...rfp, engine: ok(V8_156) })['outer-equals-inner']!.verdict).toBe('fail')
    expect(judge({ ...rfp, engine: unsupported })['outer-equals-inner']!.verdict).toBe('fail')
  })

  test('SpiderMonkey with a window larger than its page is judged as usual', () => {
    expect(run({ availHeight: 1080 }, { innerHeight: 1040, outerHeight: 1040 }, SPIDERMONKEY_153)['outer-equals-inner']).toBe('fail')
  })
})

describe('page-in-window', () => {
  const page = (s: ScreenDisplaySignals) => runChecks([[pageInWindow, 30]], s, server, {}).checks[0]!
  const media = (pointer: string) => {
    const m = chromium156().media
    if (!m.ok) throw new Error('no media')
    return ok({ ...m.value, pointer })
  }

  test('the four fingerprint-injector runs as captured: the page is the whole screen, the window around it smaller', () => {
    for (const s of [spooferWindows(), spooferMacos(), spooferWindowsFullHd(), spooferFirefox()]) expect(page(s).verdict).toBe('fail')
    expect(page(spooferFirefox()).observed).toBe('page 3840×1080 (the whole screen) in a 1280×1040 window, screen 3840×1080')
  })

  test('people as captured pass, resistFingerprinting too (its window is the page’s size, not smaller)', () => {
    for (const s of [chromium156(), firefox153(), firefox153Rfp()]) expect(page(s).verdict).toBe('pass')
  })

  test('a page zoomed out beyond its window but not the screen’s size passes (Chromium measures the page in CSS pixels, the window in screen pixels)', () => {
    // Chromium 156 as captured with a default zoom of 67 %, and of 80 % in a window filling the 1920×1080 screen.
    const at67 = ok({ screenX: 10, screenY: 10, innerWidth: 1410, outerWidth: 945, innerHeight: 1368, outerHeight: 1060, devicePixelRatio: 0.6700000166893005 })
    const at80 = ok({ screenX: 0, screenY: 0, innerWidth: 2398, outerWidth: 1919, innerHeight: 1170, outerHeight: 1079, devicePixelRatio: 0.800000011920929 })
    for (const window of [at67, at80]) expect(page({ ...chromium156(), window }).verdict).toBe('pass')
  })

  test('a touch device is not judged', () => {
    expect(page({ ...spooferWindows(), media: media('coarse') })).toMatchObject({ verdict: 'na' })
  })
})

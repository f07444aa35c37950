import { describe, expect, test } from 'bun:test'
import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { SPIDERMONKEY_153, V8_156, chromium156, firefox153, firefox153Rfp, spooferMacos, spooferWindows } from '../core/tools/screen-display.fixture'
import { screenAntiFingerprinting, screenMasking } from './screen-anti-fingerprinting'
import { missing, ok } from '../../tests/support/signals'

const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers: [], receivedAt: 0 }
const judge = (s: ScreenDisplaySignals) => runChecks([[screenAntiFingerprinting, 10]], s, server, {}).checks[0]!
const value = <T,>(s: { ok: true; value: T } | { ok: false }) => {
  if (!s.ok) throw new Error('no value')
  return s.value
}

describe('screen-anti-fingerprinting', () => {
  test('Firefox ESR 153 with resistFingerprinting as captured warns once, naming the protection and the engine', () => {
    expect(judge(firefox153Rfp())).toMatchObject({
      verdict: 'warn',
      points: 5,
      observed: 'anti-fingerprinting detected: window and screen sizes are rounded/letterboxed (screen, available area, window and page all 1400×900, at (0, 0))',
      expected: "the real screen and window sizes (only Gecko's resistFingerprinting reports the page's size for all of them); judged by SpiderMonkey (Gecko), the engine the page's error messages show",
    })
  })

  test('headless resistFingerprinting rounds to 1200×600 and looks the same (the known false negative)', () => {
    const rfp = firefox153Rfp()
    const win = { ...value(rfp.window), innerWidth: 1200, outerWidth: 1200, innerHeight: 600, outerHeight: 600 }
    const scr = { ...value(rfp.screen), width: 1200, height: 600, availWidth: 1200, availHeight: 600 }
    expect(judge({ ...rfp, window: ok(win), screen: ok(scr) }).verdict).toBe('warn')
  })

  test('people and spoofers as captured pass: no page-sized screen, or not Gecko', () => {
    for (const s of [chromium156(), firefox153(), spooferWindows(), spooferMacos()]) expect(judge(s).verdict).toBe('pass')
  })

  test('it takes Gecko by its error messages and every value at once', () => {
    const rfp = firefox153Rfp()
    const scr = value(rfp.screen)
    const win = value(rfp.window)
    expect(screenMasking(SPIDERMONKEY_153, scr, win)).toMatchObject({ engine: 'gecko', resisting: true })
    expect(screenMasking(V8_156, scr, win)).toMatchObject({ engine: 'blink', resisting: false })
    expect(screenMasking(undefined, scr, win)).toMatchObject({ engine: 'unknown', resisting: false })
    // Any one value as a window shows it: browser chrome above the page, a taskbar, a window away from the origin.
    expect(screenMasking(SPIDERMONKEY_153, scr, { ...win, outerHeight: 985 }).resisting).toBe(false)
    expect(screenMasking(SPIDERMONKEY_153, { ...scr, availHeight: 860 }, win).resisting).toBe(false)
    expect(screenMasking(SPIDERMONKEY_153, scr, { ...win, screenX: 8 }).resisting).toBe(false)
    // Firefox ESR 153 in --kiosk mode as captured: no chrome at (0, 0), but the screen is the real 1920×1080.
    const kiosk = { ...win, innerWidth: 1280, outerWidth: 1280, innerHeight: 972, outerHeight: 972, devicePixelRatio: 1 }
    expect(screenMasking(SPIDERMONKEY_153, { ...scr, width: 1920, height: 1080, availWidth: 1920, availHeight: 1080 }, kiosk).resisting).toBe(false)
    expect(judge({ ...rfp, engine: missing('timeout', 'no answer') }).verdict).toBe('pass')
  })
})

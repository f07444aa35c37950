import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks, type WeightedCheck } from '../core/judge'
import { animationFrames, headlessScreen, isDesktop, pointerless, pointingDevice } from './headless-display'
import { ok, missing, NO_POINTER, LINUX_UA, CHROMIUM_HINTS, linuxChromium, chromeServer, judge, failing } from '../core/tools/bot-detector.fixture'

const ANDROID = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const at = (ua: string) => ({ ip: '203.0.113.7', userAgent: ua, headers: [], receivedAt: 0 })
const MOUSE = { pointer: 'fine', anyPointer: ['fine'], hover: 'hover', anyHover: ['hover'] }
const VIRTUAL = { width: 800, height: 600, availWidth: 800, availHeight: 600, colorDepth: 24 }
const UNDRAWN = { frames: 4, ticks: 50, waitedMs: 2500, firstFrameMs: 20, steadyAtMs: null, maxTicksWithoutFrame: 20, visible: true }
const run = (check: WeightedCheck<BotDetectorSignals>[0], s: Partial<BotDetectorSignals>, ua = LINUX_UA) => {
  const j = runChecks([[check, 10]], s as BotDetectorSignals, at(ua), {})
  return { check: j.checks[0]!, labels: j.labels }
}

describe('no input devices and no display', () => {
  test('a desktop is judged from the header when the page could not read navigator', () => {
    expect(isDesktop(undefined, at(LINUX_UA))).toBe(true)
    expect(isDesktop(undefined, at(ANDROID))).toBe(false)
    expect(pointerless(NO_POINTER, undefined, at(LINUX_UA))).toBe(true)
    expect(pointerless({ ...NO_POINTER, anyHover: [] }, undefined, at(LINUX_UA))).toBe(false)
  })

  test('pointing-device and headless-screen are not applicable to a phone', () => {
    expect(run(pointingDevice, { pointer: ok(NO_POINTER) }, ANDROID).check).toMatchObject({ verdict: 'na', expected: 'not a desktop user agent (android, mobile)' })
    expect(run(headlessScreen, { pointer: ok(NO_POINTER), screen: ok(VIRTUAL) }, ANDROID).check.verdict).toBe('na')
  })

  test('the virtual 800×600 display fails only without a pointing device', () => {
    expect(run(headlessScreen, { pointer: ok(NO_POINTER), screen: ok(VIRTUAL) }).check.verdict).toBe('fail')
    expect(run(headlessScreen, { pointer: ok(MOUSE), screen: ok(VIRTUAL) }).check.verdict).toBe('pass')
  })

  test('a page never drawn fails with no pointing device and names headless; without the pointer signal it is not judged', () => {
    const r = run(animationFrames, { frames: ok(UNDRAWN), pointer: ok(NO_POINTER) })
    expect(r.check.verdict).toBe('fail')
    expect([...r.labels]).toEqual(['headless'])
    expect(run(animationFrames, { frames: ok(UNDRAWN) }).check.verdict).toBe('na')
  })
})

describe('headless display in bot-detector', () => {
  test('chromium --headless --dump-dom under a Chrome user agent: never drawn, no pointer, 800×600 screen — a bot', () => {
    const s = linuxChromium()
    // Measured: frames while the page loaded, then about one per second of virtual time.
    s.frames = ok({ frames: 4, ticks: 50, waitedMs: 2500, firstFrameMs: 20, steadyAtMs: null, maxTicksWithoutFrame: 20, visible: true })
    s.pointer = ok(NO_POINTER)
    s.screen = ok({ width: 800, height: 600, availWidth: 800, availHeight: 600, colorDepth: 24 })
    s.window = ok({ innerWidth: 780, innerHeight: 437, outerWidth: 780, outerHeight: 580 })
    const r = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(failing(r.checks)).toEqual(['pointing-device', 'headless-screen', 'animation-frames'])
    expect(r.score).toBeLessThanOrEqual(40)
    expect(r.sections.verdict).toBe('bot')
    expect(r.sections.frameworks).toEqual(['headless'])
  })

  test('chromium --headless --dump-dom under a Chrome user agent, drawn while loading: still a bot from its virtual display', () => {
    const s = linuxChromium()
    s.pointer = ok(NO_POINTER)
    s.screen = ok({ width: 800, height: 600, availWidth: 800, availHeight: 600, colorDepth: 24 })
    s.window = ok({ innerWidth: 780, innerHeight: 437, outerWidth: 780, outerHeight: 580 })
    const r = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(failing(r.checks)).toEqual(['pointing-device', 'headless-screen'])
    expect(r.score).toBeLessThanOrEqual(40)
    expect(r.sections.verdict).toBe('bot')
  })

  test('an 800×600 screen with a mouse (a VM without display drivers) only warns', () => {
    const s = linuxChromium()
    s.screen = ok({ width: 800, height: 600, availWidth: 800, availHeight: 600, colorDepth: 24 })
    s.window = ok({ innerWidth: 800, innerHeight: 513, outerWidth: 800, outerHeight: 600 })
    const r = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(r.byId('headless-screen').verdict).toBe('pass')
    expect(r.byId('default-viewport').verdict).toBe('warn')
    expect(failing(r.checks)).toEqual([])
    expect(r.sections.verdict).toBe('human')
  })

  test('frames: a page never drawn steadily fails only when visible, with free timers and no pointing device', () => {
    const s = linuxChromium()
    const undrawn = { frames: 4, ticks: 50, waitedMs: 2500, firstFrameMs: 20, steadyAtMs: null, maxTicksWithoutFrame: 20, visible: true }
    const verdict = () => judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS)).byId('animation-frames').verdict
    s.pointer = ok(NO_POINTER)
    s.frames = ok(undrawn)
    expect(verdict()).toBe('fail')
    s.frames = ok({ ...undrawn, visible: false })
    expect(verdict()).toBe('na')
    // A main thread too busy to run its timers proves nothing.
    s.frames = ok({ ...undrawn, frames: 0, firstFrameMs: null, ticks: 3 })
    expect(verdict()).toBe('na')
    // A person's browser started with the page: a lone early frame, then the window opening.
    s.frames = ok({ frames: 14, ticks: 30, waitedMs: 1660, firstFrameMs: 120, steadyAtMs: 1660, maxTicksWithoutFrame: 28, visible: true })
    expect(verdict()).toBe('pass')
    // Not drawn but with a mouse: a window still opening on a slow machine looks the same.
    s.pointer = ok({ pointer: 'fine', anyPointer: ['fine'], hover: 'hover', anyHover: ['hover'] })
    s.frames = ok(undrawn)
    expect(verdict()).toBe('na')
    s.frames = missing()
    expect(verdict()).toBe('na')
  })

  test('pointing device: none fails on a desktop, not on phones, TVs or browsers without the media features', () => {
    const s = linuxChromium()
    s.pointer = ok(NO_POINTER)
    const alone = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(alone.byId('pointing-device').verdict).toBe('fail')
    expect(alone.sections.verdict).toBe('suspicious')
    s.pointer = ok({ pointer: 'coarse', anyPointer: ['coarse'], hover: 'none', anyHover: ['none'] })
    expect(judge(s).byId('pointing-device').verdict).toBe('pass')
    s.pointer = ok({ pointer: null, anyPointer: [], hover: null, anyHover: [] })
    expect(judge(s).byId('pointing-device').verdict).toBe('pass')
    const tv = 'Mozilla/5.0 (Linux; Tizen 6.5) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/85.0.4183.93 TV Safari/537.36'
    s.pointer = ok(NO_POINTER)
    const nav = s.navigator.ok ? s.navigator.value : null
    s.navigator = ok({ ...nav!, userAgent: tv, appVersion: tv.slice(8) })
    expect(judge(s).byId('pointing-device').verdict).toBe('na')
  })
})

import { describe, expect, test } from 'bun:test'
import type { InputClock } from '../../common/signals/bot-detector'
import { CHROMIUM_HINTS, chromeServer, humanChrome, judge, LINUX_UA, linuxChromium, ok, SPIDERMONKEY } from '../core/tools/bot-detector.fixture'
import { onOneGrid } from './input-clock'

const run = (clock: InputClock, s = linuxChromium()) => {
  s.inputClock = ok(clock)
  const r = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
  return { check: r.byId('input-clock'), verdict: r.sections.verdict, failing: r.checks.filter((c) => c.verdict === 'fail').map((c) => c.id) }
}

// As measured on Chromium 156 on Xvfb (probes/signals/input-clock.ts): xdotool's moves all at
// 0.4 ms into their millisecond; a raw DevTools client's (Input.dispatchMouseEvent) anywhere.
const XDOTOOL: InputClock = { events: 235, fractions: Array.from({ length: 64 }, (_, i) => (i % 7 === 0 ? 0.5 : 0.4)), screenX: 10, screenY: 10 }
const DEVTOOLS: InputClock = { events: 6, fractions: [0.9, 0.23, 0.61, 0.05, 0.47, 0.78], screenX: 10, screenY: 10 }

describe('input-clock', () => {
  test('the stamps that share one place within the millisecond are counted across its end', () => {
    expect(onOneGrid([0.95, 0.02, 0.91, 0.4])).toEqual({ best: 3, at: 0.9 })
    expect(onOneGrid([0.4, 0.41, 0.5, 0.49]).best).toBe(4)
  })

  test("the X server's clock passes: every stamp at one place, split between two clamped tenths", () => {
    expect(run(XDOTOOL).check.verdict).toBe('pass')
    expect(String(run(XDOTOOL).check.observed)).toContain("64 of 64 input time stamps within 0.4–0.6 ms")
  })

  test("input stamped by the browser's clock fails and makes the verdict bot on its own, whatever input-pacing says", () => {
    const { check, verdict, failing } = run(DEVTOOLS)
    expect(check.verdict).toBe('fail')
    expect(String(check.observed)).toContain("stamped by the browser's clock")
    expect(failing).toEqual(['input-clock'])
    expect(verdict).toBe('bot')
  })

  test('a person who barely touched the page, or a stray stamp or two elsewhere, is not failed', () => {
    expect(run({ ...DEVTOOLS, fractions: [0.1, 0.7, 0.3] }).check.verdict).toBe('na')
    expect(run({ ...XDOTOOL, fractions: [0.4, 0.4, 0.4, 0.9] }).check.verdict).toBe('na')
    expect(run({ ...XDOTOOL, fractions: [...XDOTOOL.fractions.slice(0, 20), 0.9, 0.1] }).check.verdict).toBe('pass')
  })

  test('native Wayland (a window at 0, 0), other systems and other engines are not judged', () => {
    expect(String(run({ ...DEVTOOLS, screenX: 0, screenY: 0 }).check.expected)).toContain('Wayland')
    expect(run({ ...DEVTOOLS, screenX: 0, screenY: 0 }).check.verdict).toBe('na')
    expect(run(DEVTOOLS, humanChrome()).check.verdict).toBe('na')
    const firefox = linuxChromium()
    firefox.engine = ok(SPIDERMONKEY)
    expect(run(DEVTOOLS, firefox).check.verdict).toBe('na')
  })
})

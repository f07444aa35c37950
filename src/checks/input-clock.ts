// Input stamped by the browser's clock where the system's would be the X server's: under X11,
// Chromium takes every input event's time from the X server, which counts whole milliseconds
// (ui/events/x/events_x_utils.cc, TimeTicksFromXEventTime), so all of a page's system input sits
// at one place within its millisecond; the DevTools protocol's Input.dispatchMouseEvent and
// dispatchKeyEvent stamp events with base::TimeTicks::Now() as the command arrives
// (content/browser/devtools/protocol/input_handler.cc, GetEventTimeTicks), anywhere within it.
// probes/signals/input-clock.ts records the places; nothing here depends on timing or load.

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'

/** Fewest distinct input time stamps to judge. */
export const MIN_STAMPS = 4
/** Width of the place within the millisecond that one clock's stamps share (ms): two of the 0.1 ms steps the page's clock is clamped to, either of which a stamp may round to. */
export const GRID_MS = 0.2

/** The most stamps within one GRID_MS window of the millisecond (circular), and where it starts. */
export function onOneGrid(fractions: readonly number[]): { best: number; at: number } {
  const tenths = Array<number>(10).fill(0)
  for (const f of fractions) tenths[Math.min(9, Math.max(0, Math.floor(f * 10)))]!++
  let best = -1
  let at = 0
  for (let i = 0; i < 10; i++) {
    const n = tenths[i]! + tenths[(i + 1) % 10]!
    if (n > best) [best, at] = [n, i / 10]
  }
  return { best, at }
}

export const inputClock = checkOn<BotDetectorSignals>()({
  id: 'input-clock',
  name: "Input is stamped by the system's clock",
  found: "input was stamped by the browser's clock, not the system's",
  source: 'client',
  why: "Under X11 (Linux), Chromium takes each mouse, wheel and key event's time from the X server, which counts whole milliseconds, so every event the system delivers falls at the same place within its millisecond, whatever the machine's load. Input made over the DevTools protocol (Input.dispatchMouseEvent and dispatchKeyEvent: nodriver, zendriver, selenium-driverless, Puppeteer, Playwright, chromedriver's actions) never passes the X server: the browser stamps each event with its own microsecond clock as the command arrives, anywhere within the millisecond. A mouse, touchpad, pen, keyboard, xdotool, a VNC or remote-desktop session all go through the X server and pass. Judged only in Chromium on Linux, with at least four stamps, and not for a window at the screen's origin (native Wayland, whose Chromium stamps input with its own clock as the protocol does, puts every window there); other systems, where Chromium does not use the X server's time, are not judged. A person who does not touch the page is not judged; touch input is left out.",
  ref: 'https://source.chromium.org/chromium/chromium/src/+/main:content/browser/devtools/protocol/input_handler.cc',
  expected: "every input time stamp at one place within its millisecond (the X server's clock), or no X11 input to judge",
  needs: ['inputClock'],
  uses: ['engine', 'navigator'],
  judge: ({ inputClock: clock, engine: e, navigator: nav }) => {
    const { engine, basis } = pageEngine(e)
    if (engine !== 'blink') return na(`not applicable: only Chromium's X11 input is judged (${basis})`)
    const platform = nav?.platform ?? ''
    if (!platform.startsWith('Linux') || /Android|CrOS/.test(nav?.userAgent ?? '')) return na(`not applicable: only Chromium on Linux takes input times from the X server (navigator.platform ${JSON.stringify(platform)})`)
    if (clock.screenX === 0 && clock.screenY === 0) return na('the window is at the screen\'s origin, as native Wayland (whose Chromium stamps input with its own clock) puts every window: cannot tell X11')
    const n = clock.fractions.length
    if (n < MIN_STAMPS) return na(`${n} input time stamp(s), at least ${MIN_STAMPS} are needed`)
    const { best, at } = onOneGrid(clock.fractions)
    const off = n - best
    const where = `${best} of ${n} input time stamps within ${at.toFixed(1)}–${(at + GRID_MS).toFixed(1)} ms of their millisecond`
    if (best >= 0.9 * n) return { verdict: 'pass', observed: `${where}: one clock counting whole milliseconds (the X server's)` }
    if (off >= 2 && best <= 0.75 * n) {
      return {
        verdict: 'fail',
        observed: `${where}, ${off} elsewhere (${clock.fractions.slice(0, 12).map((f) => f.toFixed(2)).join(', ')}${n > 12 ? ', …' : ''} ms): stamped by the browser's clock as each event was made, not by the X server`,
        labels: ['cdp'],
      }
    }
    return na(`${where}: too few elsewhere to tell`)
  },
})

// Which clock stamped the page's input. On Linux under X11, Chromium takes every input event's
// time from the X server, whose clock counts whole milliseconds
// (ui/events/x/events_x_utils.cc, TimeTicksFromXEventTime: TimeTicks() + ms), so every mouse,
// wheel and key event the system delivers sits at one and the same place within its
// millisecond: event.timeStamp modulo 1 ms is constant for a page (its time origin's fraction,
// then clamped to 100 µs). Input made by the DevTools protocol never passes the X server:
// Input.dispatchMouseEvent / dispatchKeyEvent stamp each event with the browser's own
// microsecond clock as the command arrives (content/browser/devtools/protocol/input_handler.cc,
// GetEventTimeTicks: base::TimeTicks::Now()), so its events fall anywhere within their
// millisecond. Measured on Chromium 156 on Xvfb: 235 pointer events moved by xdotool all had
// the same tenth of a millisecond; 360 moved over a raw DevTools WebSocket were spread evenly
// over all ten. Nothing here depends on timing or load: only where in its millisecond each
// stamp falls.
// The probe records that place (0–0.99 ms) for the first trusted input events, and where the
// window is (native Wayland, whose Chromium stamps events with its own clock, puts every
// window at 0,0); the server judges.

import type { InputClock } from '../../common/signals/bot-detector'

/** Events whose time stamps are recorded; pointer events of touch are left out. */
const TYPES = ['pointermove', 'pointerdown', 'pointerup', 'wheel', 'keydown', 'keyup'] as const
/** The most time stamps kept. */
export const MAX_STAMPS = 64

export interface InputClockWatch {
  stop(): InputClock
}

/** Place within its millisecond of a time stamp (ms, to 0.01). */
export const withinMs = (t: number) => Math.round((((t % 1) + 1) % 1) * 100) / 100 % 1

/** Starts watching now (target: the window; tests pass their own). */
export function watchInputClock(target: Pick<Window, 'addEventListener' | 'removeEventListener'> & Partial<Pick<Window, 'screenX' | 'screenY'>> = window): InputClockWatch {
  const seen = new Set<number>()
  const fractions: number[] = []
  let events = 0
  const add = (t: number) => {
    // One input event is seen by several listeners (pointermove and its coalesced copy).
    if (seen.has(t) || fractions.length >= MAX_STAMPS) return
    seen.add(t)
    fractions.push(withinMs(t))
  }
  const on = (e: Event) => {
    if (!e.isTrusted) return
    const pointer = e as PointerEvent
    if (typeof pointer.pointerType === 'string' && pointer.pointerType === 'touch') return
    events++
    // A pointermove's coalesced events carry the system's own stamps; the pointermove itself may
    // be given the frame's time where Chromium resamples input (the ResamplingInputEvents feature).
    const list = e.type === 'pointermove' && typeof pointer.getCoalescedEvents === 'function' ? pointer.getCoalescedEvents() : []
    for (const c of list.length ? list : [pointer]) add(c.timeStamp)
  }
  for (const type of TYPES) target.addEventListener(type, on, { capture: true, passive: true })
  return {
    stop() {
      for (const type of TYPES) target.removeEventListener(type, on, { capture: true })
      return { events, fractions, screenX: Math.round(target.screenX ?? 0), screenY: Math.round(target.screenY ?? 0) }
    },
  }
}

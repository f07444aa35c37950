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

export interface ClockOptions {
  /** Distinct stamps after which the page need not wait. */
  wanted: number
  /** A page nobody touched this long (from the start), with the page's other work done, does not wait. */
  quietMs: number
  /** How long the page waits for `wanted` stamps once input came (from its first event). */
  waitMs: number
  /** The longest it waits in all, from the start (the source's timeout is above it). */
  capMs: number
  clock: () => number
  /** Whether stamps are worth waiting for: only Chromium's are judged (the check is Blink-only). */
  judged: boolean
}

export const CLOCK_DEFAULTS: Omit<ClockOptions, 'clock' | 'judged'> = { wanted: 8, quietMs: 500, waitMs: 4000, capMs: 10_000 }

export interface InputClockWatch {
  /**
   * Resolves once there is nothing more to wait for: `wanted` stamps, nobody touched the page in
   * its first `quietMs` nor while its other work (`othersDone`) ran, `waitMs` since the first
   * event, or `capMs` in all. Injected input comes one event per command and, on a loaded
   * machine, a command per second or so (each waits for the page's next frame), and its first
   * event may come seconds after the page started; so a few stamps are worth the wait. A
   * person's hand gives eight at once (coalesced moves carry their own stamps).
   */
  settled(othersDone?: Promise<unknown>): Promise<void>
  stop(): InputClock
}

/** Place within its millisecond of a time stamp (ms, to 0.01). */
export const withinMs = (t: number) => Math.round((((t % 1) + 1) % 1) * 100) / 100 % 1

/** Starts watching now (target: the window; tests pass their own). */
export function watchInputClock(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> & Partial<Pick<Window, 'screenX' | 'screenY'>> = window,
  options: Partial<ClockOptions> = {},
): InputClockWatch {
  // Blink alone has navigator.userAgentData (secure contexts) and window.chrome; a page that is
  // not Chromium's does not wait (Firefox fires trusted moves of its own when content appears
  // under a resting pointer, and its page would wait for nothing the server judges).
  const blink = typeof navigator !== 'undefined' && ('userAgentData' in navigator || (typeof window !== 'undefined' && 'chrome' in window))
  const o = { ...CLOCK_DEFAULTS, clock: () => performance.now(), judged: blink, ...options }
  const started = o.clock()
  let first: number | null = null
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
    first ??= o.clock()
    // A pointermove's coalesced events carry the system's own stamps; the pointermove itself may
    // be given the frame's time where Chromium resamples input (the ResamplingInputEvents feature).
    const list = e.type === 'pointermove' && typeof pointer.getCoalescedEvents === 'function' ? pointer.getCoalescedEvents() : []
    for (const c of list.length ? list : [pointer]) add(c.timeStamp)
  }
  for (const type of TYPES) target.addEventListener(type, on, { capture: true, passive: true })
  return {
    settled: (othersDone = Promise.resolve()) =>
      new Promise<void>((resolve) => {
        let othersRan = false
        void othersDone.then(() => (othersRan = true))
        const poll = () => {
          const now = o.clock()
          const untouched = first === null && now - started >= o.quietMs && othersRan
          const done = !o.judged || fractions.length >= o.wanted || untouched || (first !== null && now - first >= o.waitMs) || now - started >= o.capMs
          if (done) resolve()
          else setTimeout(poll, 50)
        }
        poll()
      }),
    stop() {
      for (const type of TYPES) target.removeEventListener(type, on, { capture: true })
      return { events, fractions, screenX: Math.round(target.screenX ?? 0), screenY: Math.round(target.screenY ?? 0) }
    },
  }
}

/**
 * The plan's sources with each one's end observed: `done` resolves once every one has answered
 * or reached its timeout (the runner's per-signal timeout, at least `pageTimeoutMs`), so the
 * input-clock source can tell a page still at work (input may yet come) from one that is done.
 */
export function observeEnds<S extends Record<string, (() => unknown) & { timeoutMs?: number }>>(sources: S, pageTimeoutMs = 3000): { sources: S; done: Promise<void> } {
  const ends: Array<Promise<unknown>> = []
  const out: Record<string, unknown> = {}
  for (const [name, source] of Object.entries(sources)) {
    let end!: () => void
    ends.push(new Promise<void>((r) => (end = r)))
    const wrapped = Object.assign(
      () => {
        const timer = setTimeout(end, Math.max(pageTimeoutMs, source.timeoutMs ?? 0))
        const ended = () => {
          clearTimeout(timer)
          end()
        }
        try {
          // Called as the runner calls it (at once), so the sources' order is kept.
          return Promise.resolve(source()).finally(ended)
        } catch (e) {
          ended()
          throw e
        }
      },
      source.timeoutMs === undefined ? {} : { timeoutMs: source.timeoutMs },
    )
    out[name] = wrapped
  }
  return { sources: out as S, done: Promise.all(ends).then(() => {}) }
}

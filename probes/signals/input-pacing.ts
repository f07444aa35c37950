// Pointer input driven over the DevTools protocol arrives one event at a time: a client's
// Input.dispatchMouseEvent is answered only once the page has handled the event, and the
// libraries that move the mouse along "human" curves (nodriver, zendriver, selenium-driverless,
// Puppeteer's mouse.move) await each answer before sending the next point. The system's pointer
// does not wait for the page: while a page's main thread is busy, the moves keep coming and are
// queued, then delivered as one pointermove whose getCoalescedEvents() lists each of them with
// its own time stamp (https://w3c.github.io/pointerevents/#coalesced-events).
// So while the pointer moves steadily, this probe holds the main thread for a moment (four of the
// stream's intervals, 100–300 ms) from inside a pointermove handler until three blocks fell in
// steady movement (at most five blocks: one at the end of a curve or before a pause tells
// nothing), and records the input created meanwhile; the page waits for that (at most 2.5 s
// from the first move) only when the pointer moves: the system's
// pointer leaves several events inside the block, a client awaiting each event none (its next
// event is created only after this handler returned). Measured on Chromium 156 (headful, Xvfb):
// xdotool moves every 15 ms left 6–9 events in a 150 ms block; a raw DevTools client moving
// every 8–20 ms left none, every time. Nothing happens for a pointer that does not move.

import { informative, LOST_GAP_MS } from '../../common/input-pacing'
import type { InputBlock, InputPacing } from '../../common/signals/bot-detector'

export interface PacingOptions {
  /** Shortest and longest block: four intervals of the stream, within these bounds. */
  minBlockMs: number
  maxBlockMs: number
  /** Streams slower than this (median interval, ms) are not probed. */
  slowestMs: number
  /** Blocks in steady movement (informative) to collect before the page goes on. */
  wanted: number
  /** The most blocks in all, informative or not. */
  maxBlocks: number
  /** How long to wait after the last block for the stream to show whether it went on. */
  afterMs: number
  /** Least time from the end of one block to the start of the next. */
  spacingMs: number
  /** How long the page waits for the blocks once the pointer moves (from its first move). */
  waitMs: number
  /** A page nobody has moved the pointer on this long does not wait. */
  quietMs: number
  /** The longest the page waits in all, from the start (under the collector's per-signal timeout). */
  capMs: number
  /** Whether events carry getCoalescedEvents (detected; tests set it). */
  coalescing: boolean
  /** The page's clock (performance.now; tests give their own, read by the busy loop too). */
  clock: () => number
}

const DEFAULTS: Omit<PacingOptions, 'coalescing' | 'clock'> = { minBlockMs: 100, maxBlockMs: 300, slowestMs: 80, wanted: 3, maxBlocks: 5, afterMs: 300, spacingMs: 200, waitMs: 2500, quietMs: 250, capMs: 2800 }

export interface InputWatch {
  /**
   * Resolves once there is nothing more to wait for: nobody moved the pointer in the first
   * `quietMs`, `wanted` blocks fell in steady movement, the last of `maxBlocks` blocks is
   * settled (or `afterMs` passed since it), or `waitMs` passed since the first move. A client that
   * injects moves and awaits each one gets few through while the page is busy (each waits for
   * the page), so a pause in moves is no reason to stop waiting.
   */
  settled(): Promise<void>
  /** Stops watching and reports (call it as the page submits). */
  stop(): InputPacing
}

/** Median of the intervals between the last `n + 1` time stamps, or null with fewer. */
function medianInterval(stamps: readonly number[], n: number): number | null {
  if (stamps.length < n + 1) return null
  const tail = stamps.slice(-(n + 1))
  const gaps = tail.slice(1).map((t, i) => t - tail[i]!).sort((a, b) => a - b)
  return Math.round(gaps[Math.floor(gaps.length / 2)]! * 10) / 10
}

/** Starts watching now. */
export function watchInputPacing(options: Partial<PacingOptions> = {}, target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): InputWatch {
  const o = { ...DEFAULTS, coalescing: typeof PointerEvent !== 'undefined' && typeof PointerEvent.prototype.getCoalescedEvents === 'function', clock: () => performance.now(), ...options }
  const clock = o.clock
  const coalescing = o.coalescing
  const stamps: number[] = []
  const blocks: Array<InputBlock & { start: number; end: number }> = []
  let moves = 0
  let raw = 0
  let wheels = 0
  let lastEnd = -Infinity
  let firstMove: number | null = null

  const told = () => blocks.filter(informative).length
  const enough = () => told() >= o.wanted || blocks.length >= o.maxBlocks
  const settle = (b: InputBlock & { start: number; end: number }) => {
    const after = stamps.filter((t) => t >= b.end)
    b.inBlock = stamps.filter((t) => t > b.start && t < b.end).length
    b.after = after.length >= 2 ? Math.round((after[1]! - after[0]!) * 10) / 10 : null
  }
  const onMove = (e: Event) => {
    const pe = e as PointerEvent
    moves++
    firstMove ??= clock()
    const list = coalescing ? pe.getCoalescedEvents() : []
    for (const t of list.length ? list.map((c) => c.timeStamp) : [pe.timeStamp]) {
      if (stamps.length && t <= stamps[stamps.length - 1]!) continue
      stamps.push(t)
      raw++
    }
    if (stamps.length > 400) stamps.splice(0, 200)
    for (const b of blocks) if (b.after === null) settle(b)
    // A steady stream: the last four events at most `slowestMs` apart, the latest just now.
    const before = medianInterval(stamps, 3)
    const now = clock()
    if (!coalescing || enough() || before === null || before > o.slowestMs || now - lastEnd < o.spacingMs || now - stamps[stamps.length - 1]! > 50) return
    const blockMs = Math.min(o.maxBlockMs, Math.max(o.minBlockMs, 4 * before))
    const start = clock()
    let read = start
    let lost = 0
    while (read - start < blockMs) {
      // Holding the main thread on purpose: input that arrives now is queued. A long gap between
      // two reads is time another process had the CPU.
      const t = clock()
      if (t - read > LOST_GAP_MS) lost += t - read
      read = t
    }
    lastEnd = read
    blocks.push({ ms: Math.round(lastEnd - start), before, inBlock: 0, after: null, lostMs: Math.round(lost), start, end: lastEnd })
  }
  const onWheel = () => {
    wheels++
  }
  target.addEventListener('pointermove', onMove, { capture: true, passive: true })
  target.addEventListener('wheel', onWheel, { capture: true, passive: true })
  const started = clock()
  return {
    settled: () =>
      new Promise<void>((resolve) => {
        const poll = () => {
          const now = clock()
          const untouched = firstMove === null && now - started >= o.quietMs
          const last = blocks[blocks.length - 1]
          const lastSettled = last !== undefined && (last.after !== null || now - last.end >= o.afterMs)
          if (untouched || (enough() && lastSettled) || (firstMove !== null && now - firstMove >= o.waitMs) || now - started >= o.capMs) resolve()
          else setTimeout(poll, 50)
        }
        poll()
      }),
    stop() {
      target.removeEventListener('pointermove', onMove, { capture: true })
      target.removeEventListener('wheel', onWheel, { capture: true })
      for (const b of blocks) settle(b)
      return {
        coalescing,
        moves,
        raw,
        wheels,
        blocks: blocks.map(({ ms, before, inBlock, after, lostMs }) => ({ ms, before, inBlock, after, lostMs })),
      }
    },
  }
}

import { describe, expect, test } from 'bun:test'
import { watchInputPacing } from './input-pacing'

type Listener = (e: Event) => void

/** A window stand-in whose pointermove events the test delivers, each with its coalesced time stamps. */
function fakeWindow() {
  const listeners = new Map<string, Listener>()
  return {
    addEventListener: (type: string, fn: Listener) => listeners.set(type, fn),
    removeEventListener: (type: string) => listeners.delete(type),
    move(stamps: number[]) {
      const coalesced = stamps.map((timeStamp) => ({ timeStamp }))
      listeners.get('pointermove')?.({ timeStamp: stamps[stamps.length - 1], getCoalescedEvents: () => coalesced } as unknown as Event)
    },
    has: (type: string) => listeners.has(type),
  }
}

/**
 * The page's clock as the probe reads it: each read moves it on by 0.5 ms, so a block's busy
 * loop ends after its length in reads, whatever the machine is doing (no time lost to other
 * processes unless a test says so); `skip` moves it on at once.
 */
function fakeClock() {
  let t = 1000
  return { now: () => (t += 0.5), skip: (ms: number) => (t += ms), peek: () => t }
}
const clock = fakeClock()
const OPTIONS = { coalescing: true, minBlockMs: 60, maxBlockMs: 60, spacingMs: 0, maxBlocks: 2, clock: clock.now }

/** Delivers a steady stream 10 ms apart up to now, which sets off a block; returns the block's window. */
function steadyThenBlock(w: ReturnType<typeof fakeWindow>): { start: number; end: number } {
  const t = clock.peek()
  w.move([t - 40, t - 30, t - 20, t - 10, t])
  const start = t
  const end = clock.peek()
  return { start, end }
}

describe('watchInputPacing', () => {
  test('the system pointer: events created during the block arrive coalesced and are counted inside it', () => {
    const w = fakeWindow()
    const watch = watchInputPacing({ ...OPTIONS, maxBlocks: 1 }, w)
    const b = steadyThenBlock(w)
    expect(b.end - b.start).toBeGreaterThanOrEqual(60)
    const inside = [b.start + 10, b.start + 25, b.start + 40, b.start + 55]
    w.move([...inside, b.end + 1])
    w.move([b.end + 11])
    const r = watch.stop()
    expect(r.blocks).toHaveLength(1)
    expect(r.blocks[0]).toMatchObject({ inBlock: 4, before: 10, after: 10 })
    expect(r.raw).toBeGreaterThan(r.moves)
    expect(w.has('pointermove')).toBe(false)
  })

  test('a client awaiting each event: nothing inside the block, the stream resumes after it', () => {
    const w = fakeWindow()
    const watch = watchInputPacing(OPTIONS, w)
    const b = steadyThenBlock(w)
    w.move([b.end + 15])
    w.move([b.end + 30])
    const r = watch.stop()
    expect(r.blocks[0]).toMatchObject({ inBlock: 0, before: 10, after: 15 })
  })

  test('a slow pointer sets off no block, and a page nobody moves on does not wait', async () => {
    const w = fakeWindow()
    const watch = watchInputPacing({ ...OPTIONS, clock: () => performance.now(), quietMs: 30, waitMs: 50 }, w)
    const t = performance.now()
    w.move([t - 300, t - 200, t - 100, t])
    await watch.settled()
    expect(watch.stop().blocks).toEqual([])
    // Only the quiet start can settle it: the waits since the first move and in all are far
    // beyond the test's own timeout.
    const idle = watchInputPacing({ ...OPTIONS, clock: () => performance.now(), quietMs: 30, waitMs: 600_000, capMs: 600_000 }, fakeWindow())
    await idle.settled()
    expect(idle.stop()).toMatchObject({ moves: 0, blocks: [] })
  })

  test('a block the pointer paused after tells nothing: the probe holds the page again until enough blocks tell', async () => {
    const w = fakeWindow()
    // spacingMs: no block while the test delivers the moves that follow one (they come at once).
    const watch = watchInputPacing({ ...OPTIONS, spacingMs: 30, wanted: 2, maxBlocks: 4, waitMs: 600_000, capMs: 600_000 }, w)
    // Block 1, then the stream 50 ms apart after it (a wheel turn, the end of a curve): it tells nothing.
    const b1 = steadyThenBlock(w)
    w.move([b1.end + 1])
    w.move([b1.end + 51])
    // Blocks 2 and 3, each followed by the stream going on 10 ms apart.
    for (let i = 0; i < 2; i++) {
      clock.skip(100)
      const b = steadyThenBlock(w)
      w.move([b.end + 10])
      w.move([b.end + 20])
    }
    await watch.settled()
    expect(watch.stop().blocks.map((b) => b.after)).toEqual([50, 10, 10])
  })

  test('time the page did not run during a block is recorded as lost', () => {
    const w = fakeWindow()
    // Another process takes the CPU for 25 ms, twenty reads into the block.
    let reads = 0
    const jumpy = () => (++reads === 25 ? clock.skip(25) : clock.now())
    const watch = watchInputPacing({ ...OPTIONS, clock: jumpy, maxBlocks: 1 }, w)
    const b = steadyThenBlock(w)
    w.move([b.end + 10])
    w.move([b.end + 20])
    const [block] = watch.stop().blocks
    expect(block!.lostMs).toBe(25)
    expect(block!.ms).toBeGreaterThanOrEqual(60)
  })

  test('at most maxBlocks blocks, informative or not', async () => {
    const w = fakeWindow()
    const watch = watchInputPacing({ ...OPTIONS, wanted: 3, maxBlocks: 2, afterMs: 0, waitMs: 600_000, capMs: 600_000 }, w)
    for (let i = 0; i < 4; i++) {
      const b = steadyThenBlock(w)
      w.move([b.end + 300])
    }
    await watch.settled()
    expect(watch.stop().blocks).toHaveLength(2)
  })

  test('without getCoalescedEvents it never blocks the page', () => {
    const w = fakeWindow()
    const watch = watchInputPacing({ ...OPTIONS, coalescing: false }, w)
    steadyThenBlock(w)
    expect(watch.stop()).toMatchObject({ coalescing: false, blocks: [] })
  })
})

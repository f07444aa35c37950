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

const OPTIONS = { coalescing: true, minBlockMs: 60, maxBlockMs: 60, spacingMs: 0, maxBlocks: 2 }

/** Delivers a steady stream 10 ms apart up to now, which sets off a block; returns the block's window. */
function steadyThenBlock(w: ReturnType<typeof fakeWindow>): { start: number; end: number } {
  const t = performance.now()
  w.move([t - 40, t - 30, t - 20, t - 10, t])
  const start = t
  const end = performance.now()
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
    const watch = watchInputPacing({ ...OPTIONS, quietMs: 30, waitMs: 50 }, w)
    const t = performance.now()
    w.move([t - 300, t - 200, t - 100, t])
    await watch.settled()
    expect(watch.stop().blocks).toEqual([])
    const idle = watchInputPacing({ ...OPTIONS, quietMs: 30 }, fakeWindow())
    const t0 = performance.now()
    await idle.settled()
    expect(performance.now() - t0).toBeLessThan(1000)
    expect(idle.stop()).toMatchObject({ moves: 0, blocks: [] })
  })

  test('without getCoalescedEvents it never blocks the page', () => {
    const w = fakeWindow()
    const watch = watchInputPacing({ ...OPTIONS, coalescing: false }, w)
    const t0 = performance.now()
    steadyThenBlock(w)
    expect(performance.now() - t0).toBeLessThan(50)
    expect(watch.stop()).toMatchObject({ coalescing: false, blocks: [] })
  })
})

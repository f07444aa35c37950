import { expect, test } from 'bun:test'
import { observeEnds, watchInputClock, withinMs } from './input-clock'

type Listener = (e: Event) => void

function fakeWindow() {
  const listeners = new Map<string, Listener>()
  return {
    screenX: 10,
    screenY: 10.4,
    addEventListener: (type: string, fn: Listener) => listeners.set(type, fn),
    removeEventListener: (type: string) => listeners.delete(type),
    fire(type: string, e: Record<string, unknown>) {
      listeners.get(type)?.({ type, isTrusted: true, ...e } as unknown as Event)
    },
    count: () => listeners.size,
  }
}

test('a time stamp becomes its place within the millisecond', () => {
  expect(withinMs(1766.9000000000233)).toBe(0.9)
  expect(withinMs(2000.2000000000116)).toBe(0.2)
  expect(withinMs(12.999)).toBe(0)
})

test("records each trusted input event's stamps once, coalesced ones included, and leaves touch and synthetic events out", () => {
  const w = fakeWindow()
  const watch = watchInputClock(w)
  const coalesced = [{ timeStamp: 100.4 }, { timeStamp: 108.4 }]
  w.fire('pointermove', { pointerType: 'mouse', timeStamp: 108.4, getCoalescedEvents: () => coalesced })
  w.fire('pointermove', { pointerType: 'mouse', timeStamp: 108.4, getCoalescedEvents: () => [coalesced[1]] })
  w.fire('wheel', { timeStamp: 120.4 })
  w.fire('keydown', { timeStamp: 130.4 })
  w.fire('pointerdown', { pointerType: 'touch', timeStamp: 140.7 })
  w.fire('pointermove', { pointerType: 'mouse', timeStamp: 150.7, isTrusted: false, getCoalescedEvents: () => [] })
  const r = watch.stop()
  expect(r).toEqual({ events: 4, fractions: [0.4, 0.4, 0.4, 0.4], screenX: 10, screenY: 10 })
  expect(w.count()).toBe(0)
})

test('the page waits for stamps only once input came, and not for a page nobody touches', async () => {
  let t = 0
  const w = fakeWindow()
  const watch = watchInputClock(w, { clock: () => t, quietMs: 100, waitMs: 1000, capMs: 5000, wanted: 3, judged: true })
  let done = false
  void watch.settled().then(() => (done = true))
  w.fire('wheel', { timeStamp: 10.4 })
  t = 500
  await new Promise((r) => setTimeout(r, 80))
  expect(done).toBe(false)
  w.fire('wheel', { timeStamp: 20.7 })
  w.fire('keydown', { timeStamp: 30.1 })
  await new Promise((r) => setTimeout(r, 80))
  expect(done).toBe(true)
  const idle = watchInputClock(fakeWindow(), { clock: () => t, quietMs: 100, judged: true })
  t += 200
  await idle.settled()
  expect(idle.stop().events).toBe(0)
})

test('a page that is not Chromium does not wait for stamps', async () => {
  const w = fakeWindow()
  const watch = watchInputClock(w, { clock: () => 0, judged: false })
  w.fire('wheel', { timeStamp: 10.4 })
  await watch.settled()
  expect(watch.stop().fractions).toEqual([0.4])
})

test("a page nobody touches waits until its other sources are done, and input that comes late is waited for", async () => {
  let t = 0
  let finish!: () => void
  const slow = () => new Promise<string>((r) => (finish = () => r('late')))
  const { sources, done } = observeEnds({ fast: () => 1, slow })
  expect(await sources.fast()).toBe(1)
  const pending = sources.slow()
  const w = fakeWindow()
  const watch = watchInputClock(w, { clock: () => t, quietMs: 100, waitMs: 1000, capMs: 50_000, wanted: 8, judged: true })
  let settled = false
  void watch.settled(done).then(() => (settled = true))
  t = 500
  await new Promise((r) => setTimeout(r, 80))
  expect(settled).toBe(false)
  // Injected input arrives after the quiet time, while the page still works: it is waited for.
  w.fire('wheel', { timeStamp: 10.4 })
  finish()
  expect(await pending).toBe('late')
  await new Promise((r) => setTimeout(r, 80))
  expect(settled).toBe(false)
  t = 1600
  await new Promise((r) => setTimeout(r, 80))
  expect(settled).toBe(true)
  // With nothing touched, the end of the other sources ends the wait.
  let t2 = 0
  const idle = watchInputClock(fakeWindow(), { clock: () => (t2 += 50), quietMs: 100, judged: true })
  await idle.settled(done)
  expect(idle.stop().events).toBe(0)
})

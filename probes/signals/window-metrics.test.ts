import { describe, expect, test } from 'bun:test'
import { OUTER_WAIT_MS, windowMetrics } from './window-metrics'

/** A window whose outer size the browser tells after `late` reads (never, when Infinity). */
function fakeWindow(late: number) {
  let reads = 0
  const size = () => (reads++ >= late ? 1 : 0)
  return {
    innerWidth: 945,
    innerHeight: 917,
    get outerWidth() {
      return 945 * size()
    },
    get outerHeight() {
      return 1060 * size()
    },
    screenX: 10,
    screenY: 10,
    devicePixelRatio: 1,
  }
}

describe('windowMetrics', () => {
  const noWait = async () => {}
  test('a reloaded page of a person: 0×0 at first, then the window’s size, which is what is kept', async () => {
    const m = await windowMetrics(fakeWindow(6), OUTER_WAIT_MS, noWait)
    expect([m.outerWidth, m.outerHeight]).toEqual([945, 1060])
  })
  test('a window that never tells its outer size keeps 0 once the wait is over', async () => {
    let slept = 0
    const m = await windowMetrics(fakeWindow(Number.POSITIVE_INFINITY), OUTER_WAIT_MS, async (ms) => {
      slept += ms
    })
    expect([m.outerWidth, m.outerHeight]).toEqual([0, 0])
    expect(slept).toBe(OUTER_WAIT_MS)
  })
  test('a size known at once is read once, without waiting', async () => {
    let slept = 0
    const m = await windowMetrics(fakeWindow(0), OUTER_WAIT_MS, async () => {
      slept++
    })
    expect(m.outerWidth).toBe(945)
    expect(slept).toBe(0)
  })
})

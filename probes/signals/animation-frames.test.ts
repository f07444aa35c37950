import { describe, expect, test } from 'bun:test'
import { animationFrames, type FrameEnv } from './animation-frames'

/**
 * A fake event loop: a tick every `tickMs` (50), a frame every `frameMs` from `framesFrom`
 * (never when null), plus one at `earlyFrameAt`; hidden from `hiddenAt`.
 */
function fakeEnv(o: { frameMs: number | null; tickMs?: number; hiddenAt?: number; framesFrom?: number; earlyFrameAt?: number }): FrameEnv & { run(): void } {
  let now = 0
  let interval: (() => void) | null = null
  let frameCb: (() => void) | null = null
  const frameTimes = function* () {
    if (o.earlyFrameAt !== undefined) yield o.earlyFrameAt
    if (o.frameMs === null) return
    for (let t = (o.framesFrom ?? 0) + o.frameMs; ; t += o.frameMs) yield t
  }()
  let nextFrame = frameTimes.next().value ?? Infinity
  return {
    requestAnimationFrame: (cb) => (frameCb = cb),
    setInterval: (cb) => (interval = cb),
    clearInterval: () => (interval = null),
    now: () => now,
    visible: () => o.hiddenAt === undefined || now < o.hiddenAt,
    run() {
      const tick = o.tickMs ?? 50
      let nextTick = tick
      while (interval) {
        if (nextFrame <= nextTick && frameCb) {
          now = nextFrame
          nextFrame = frameTimes.next().value ?? Infinity
          const cb = frameCb
          frameCb = null
          cb()
        } else {
          now = nextTick
          nextTick += tick
          interval()
        }
      }
    },
  }
}

describe('animationFrames', () => {
  test('a visible page at 60 Hz is drawn steadily within 10 frames', async () => {
    const env = fakeEnv({ frameMs: 16 })
    const p = animationFrames(env)
    env.run()
    expect(await p).toEqual({ frames: 10, ticks: 3, waitedMs: 160, firstFrameMs: 16, steadyAtMs: 160, maxTicksWithoutFrame: 1, visible: true })
  })
  test('a window that opens late, after a lone early frame, is steady once it draws', async () => {
    const env = fakeEnv({ frameMs: 16, framesFrom: 1500, earlyFrameAt: 120 })
    const p = animationFrames(env)
    env.run()
    expect(await p).toMatchObject({ firstFrameMs: 120, steadyAtMs: 1660, maxTicksWithoutFrame: 28 })
  })
  test('virtual time: a frame while loading, then one a second: never steady', async () => {
    const env = fakeEnv({ frameMs: 1000, earlyFrameAt: 53 })
    const p = animationFrames(env)
    env.run()
    expect(await p).toEqual({ frames: 3, ticks: 50, waitedMs: 2500, firstFrameMs: 53, steadyAtMs: null, maxTicksWithoutFrame: 20, visible: true })
  })
  test('no frame at all', async () => {
    const env = fakeEnv({ frameMs: null })
    const p = animationFrames(env)
    env.run()
    expect(await p).toEqual({ frames: 0, ticks: 50, waitedMs: 2500, firstFrameMs: null, steadyAtMs: null, maxTicksWithoutFrame: 0, visible: true })
  })
  test('a busy main thread shows as few ticks', async () => {
    const env = fakeEnv({ frameMs: null, tickMs: 1000 })
    const p = animationFrames(env)
    env.run()
    expect(await p).toMatchObject({ frames: 0, ticks: 3, steadyAtMs: null })
  })
  test('a page hidden meanwhile is reported as not visible', async () => {
    const env = fakeEnv({ frameMs: null, hiddenAt: 300 })
    const p = animationFrames(env)
    env.run()
    expect((await p).visible).toBe(false)
  })
})

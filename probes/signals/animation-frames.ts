// Does the page get drawn? A visible document is rendered at the display's rate (30–144 Hz)
// and runs its requestAnimationFrame callbacks before every frame. Headless Chromium run
// without a driver — `--dump-dom`, `--screenshot` or `--print-to-pdf` with
// `--virtual-time-budget`, which is what lets a page finish at all there — draws a few frames
// while the page loads and then, once virtual time fast-forwards, about one per virtual second
// (measured on Chromium 156: frames at 53 ms and 1040 ms of a 2 s wait during which 40 timer
// ticks ran). A renderer whose frames a tool issues itself (`--enable-begin-frame-control`)
// draws only on request. Timers keep firing in both.
// So the probe runs a 50 ms timer next to a requestAnimationFrame loop and waits for the page
// to be drawn steadily: 10 frames in a row, each within two ticks of the one before. A drawn
// page gets there in a fraction of a second; one that never does while the timers run freely
// is not being drawn. When the main thread is busy neither runs, so a slow machine shows few
// ticks, not many, and the judge leaves it alone. A browser started with the page draws a frame
// or two, then nothing while its window opens (measured on Xvfb: gaps of 300–600 ms, steady
// drawing after up to 1.5 s), which is why one gap proves nothing and the wait is 2.5 s.
// Hidden documents get no frames by design (background tabs, minimised or occluded windows,
// prerendering: https://html.spec.whatwg.org/multipage/webappapis.html#update-the-rendering),
// so the probe says whether the page stayed visible and the judge skips it when not.

import type { AnimationFrames } from '../../common/signals/bot-detector'

export interface FrameEnv {
  requestAnimationFrame(cb: () => void): unknown
  setInterval(cb: () => void, ms: number): unknown
  clearInterval(id: unknown): void
  now(): number
  visible(): boolean
}

const browserEnv = (): FrameEnv => ({
  requestAnimationFrame: (cb) => requestAnimationFrame(cb),
  setInterval: (cb, ms) => setInterval(cb, ms),
  clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
  now: () => performance.now(),
  visible: () => document.visibilityState === 'visible',
})

/** Frames in a row, each at most `CLOSE_TICKS` ticks after the previous one, that count as steady. */
const STEADY_FRAMES = 10
const CLOSE_TICKS = 2

/** Under the collector's 3 s timeout per signal (probes/core/collect.ts). */
export function animationFrames(env: FrameEnv = browserEnv(), maxMs = 2500): Promise<AnimationFrames> {
  return new Promise((resolve) => {
    const start = env.now()
    let frames = 0
    let ticks = 0
    let run = 0
    let longest = 0
    let streak = 0
    let firstFrameMs: number | null = null
    let visible = env.visible()
    let done = false
    const elapsed = () => Math.round(env.now() - start)
    const finish = (steady: boolean) => {
      done = true
      env.clearInterval(timer)
      resolve({ frames, ticks, waitedMs: elapsed(), firstFrameMs, steadyAtMs: steady ? elapsed() : null, maxTicksWithoutFrame: longest, visible })
    }
    const timer = env.setInterval(() => {
      ticks++
      run++
      if (firstFrameMs !== null) longest = Math.max(longest, run)
      if (!env.visible()) visible = false
      if (env.now() - start >= maxMs) finish(false)
    }, 50)
    const frame = () => {
      if (done) return
      frames++
      if (firstFrameMs === null) firstFrameMs = elapsed()
      streak = run <= CLOSE_TICKS ? streak + 1 : 1
      run = 0
      if (streak >= STEADY_FRAMES) finish(true)
      else env.requestAnimationFrame(frame)
    }
    env.requestAnimationFrame(frame)
  })
}

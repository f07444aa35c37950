// Is the browser's navigation flood protection on? Browsers cap how often a page may call
// history.pushState/replaceState: Chromium 200 times per 10 s (NavigationRateLimiter; later
// calls are dropped with a console warning), Safari 100 per 30 s (it throws a SecurityError);
// Firefox ESR 153 applies every call (issue 11), so the check judges only a V8 engine.
// Chromium lifts the cap only with --disable-ipc-flooding-protection,
// which Playwright and Puppeteer pass on every launch (their default arguments) and people do
// not. The probe calls replaceState 210 times and reads back which call stuck: past Chromium's
// 200 and Safari's 100, and no more, since each call that is applied is a message the browser
// process handles (about 3 ms each on a 2-core machine, with a driver attached) before anything
// else the page asks of it, such as starting a worker or sending the results. At 250 calls the
// 40 extra messages held bot-detector's page about 0.1 s longer under Playwright
// (docs/performance.md).
// https://source.chromium.org/chromium/chromium/src/+/main:third_party/blink/renderer/core/frame/navigation_rate_limiter.cc
// The page's URL never changes; only history.state does, and the page does not use it. After
// the probe a protected browser drops this page's history updates for ten seconds, which the
// tool page does not need.

import type { NavigationRateLimit } from '../../common/signals/bot-detector'

type HistoryLike = Pick<History, 'replaceState' | 'state'>

export function navigationRateLimit(h: HistoryLike = history, calls = 210): NavigationRateLimit {
  let accepted = 0
  let error: string | null = null
  for (let i = 1; i <= calls; i++) {
    try {
      h.replaceState({ antibotRateProbe: i }, '')
      accepted++
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 200) : String(e).slice(0, 200)
      break
    }
  }
  const state = h.state as { antibotRateProbe?: unknown } | null
  return { calls, accepted, lastApplied: typeof state?.antibotRateProbe === 'number' ? state.antibotRateProbe : null, error }
}

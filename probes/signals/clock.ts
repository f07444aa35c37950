// The page's wall clock (Date.now) and its monotonic clock projected to wall time
// (performance.timeOrigin + performance.now). The server compares the first with its own
// clock at receipt; the two should agree with each other within milliseconds on a fresh page,
// unless Date was replaced (fake-timer libraries, time-shifting extensions).
// The runner re-reads both just before submitting (see the timezone-geo entry), so transit
// time, not collection time, is all that separates them from the server's clock.

import type { PageClock } from '../../common/signals/timezone-geo'

export function clockNow(): PageClock {
  return { now: Date.now(), perf: Math.round(performance.timeOrigin + performance.now()) }
}

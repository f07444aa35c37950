// The one fixed-window limiter. A window opens with the first counted hit for a subject and
// lasts `windowSeconds`; hits after it has ended open a new one. The counts live in PostgreSQL
// in one table (db/rate-windows.ts does afterHit's arithmetic atomically in one upsert, and
// a filled miss window marks its key refused until it ends, db/rate-windows.ts recordMiss, which
// the keyed fetch reads from the key's row), so every app instance sees the same
// numbers; these functions are the rule.
//
// These limits use it, each a scope of that table:
// - log-in attempts per address and per account, and sign-ups per address (src/core/throttle.ts
//   has those policies; log-in counts an attempt before its password is checked, gated address
//   first, with db/rate-windows.ts hitGatedWindows);
// - task submissions per client address (TASK_RATE_LIMIT, off by default: the spec says running
//   tools and creating tasks is unlimited, and fleets of browsers share one address);
// - keyed fetches of task ids that do not exist, per key (always on): after `max` misses in a
//   window, every fetch with that key is refused with 429 until the window ends. Misses never
//   count against the monthly limit, and fetches of existing tasks never count as misses.

export interface WindowPolicy {
  /** Hits allowed in one window. */
  max: number
  windowSeconds: number
}

export interface WindowState {
  count: number
  windowStartedAt: Date
}

export type WindowDecision = { ok: true } | { ok: false; retryAfterSeconds: number }

/** 100 misses per 10 minutes: a client that reads ids from `data-task` should never see one. */
export const DEFAULT_MISS_LIMIT: WindowPolicy = { max: 100, windowSeconds: 600 }

function windowEnd(policy: WindowPolicy, state: WindowState): number {
  return state.windowStartedAt.getTime() + policy.windowSeconds * 1000
}

/** Whole seconds until `end` (ms since the epoch), at least 1: a Retry-After value. */
export function retryAfter(end: number, now: Date): number {
  return Math.max(1, Math.ceil((end - now.getTime()) / 1000))
}

/** The window after one more hit: a new one when there is none or it has ended. */
export function afterHit(policy: WindowPolicy, state: WindowState | null, now: Date): WindowState {
  if (!state || now.getTime() >= windowEnd(policy, state)) return { count: 1, windowStartedAt: now }
  return { count: state.count + 1, windowStartedAt: state.windowStartedAt }
}

/** For a hit already counted (`after` includes it): allowed while the window holds at most `max`. */
export function decideHit(policy: WindowPolicy, after: WindowState, now: Date): WindowDecision {
  const end = windowEnd(policy, after)
  if (after.count <= policy.max || now.getTime() >= end) return { ok: true }
  return { ok: false, retryAfterSeconds: retryAfter(end, now) }
}

/** Whether a subject is shut out now: `max` hits already fall in a window that has not ended. */
export function decideBlocked(policy: WindowPolicy, state: WindowState | null, now: Date): WindowDecision {
  if (!state) return { ok: true }
  const end = windowEnd(policy, state)
  if (state.count < policy.max || now.getTime() >= end) return { ok: true }
  return { ok: false, retryAfterSeconds: retryAfter(end, now) }
}

/** `<max>/<window seconds>`, e.g. `120/60`; both positive integers. Null when malformed. */
export function parseWindowPolicy(text: string): WindowPolicy | null {
  const m = /^\s*(\d{1,9})\s*\/\s*(\d{1,9})\s*$/.exec(text)
  if (!m) return null
  const max = Number(m[1])
  const windowSeconds = Number(m[2])
  if (max < 1 || windowSeconds < 1) return null
  return { max, windowSeconds }
}

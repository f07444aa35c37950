// Failed log-in throttling, per account and per client address, in fixed windows: the first
// failure opens a window; once `maxFailures` failures fall in it, log-ins for that subject are
// refused (even with the right password) until the window ends. Unknown emails are counted
// exactly like known ones, so the throttle never tells whether an account exists.
// The counts live in PostgreSQL (db/login-throttle.ts does the same arithmetic atomically in
// one upsert); these functions are the rule, and the database contract tests compare the two.

export interface ThrottlePolicy {
  maxFailures: number
  windowSeconds: number
}

export interface ThrottleState {
  failures: number
  windowStartedAt: Date
}

export type ThrottleScope = 'account' | 'address'

/**
 * Five wrong passwords per account per 15 minutes keeps online guessing under 500 a day; an
 * address gets more room because offices and carrier NAT put many people behind one address.
 */
export const LOGIN_THROTTLE: Readonly<Record<ThrottleScope, ThrottlePolicy>> = {
  account: { maxFailures: 5, windowSeconds: 15 * 60 },
  address: { maxFailures: 20, windowSeconds: 15 * 60 },
}

export type ThrottleDecision = { ok: true } | { ok: false; retryAfterSeconds: number }

function windowEnd(policy: ThrottlePolicy, state: ThrottleState): number {
  return state.windowStartedAt.getTime() + policy.windowSeconds * 1000
}

/** Whether one more attempt may be made now. */
export function decideThrottle(policy: ThrottlePolicy, state: ThrottleState | null, now: Date): ThrottleDecision {
  if (!state) return { ok: true }
  const end = windowEnd(policy, state)
  if (now.getTime() >= end || state.failures < policy.maxFailures) return { ok: true }
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((end - now.getTime()) / 1000)) }
}

/** The state after one more failure: a new window when there is none or it has ended. */
export function afterFailure(policy: ThrottlePolicy, state: ThrottleState | null, now: Date): ThrottleState {
  if (!state || now.getTime() >= windowEnd(policy, state)) return { failures: 1, windowStartedAt: now }
  return { failures: state.failures + 1, windowStartedAt: state.windowStartedAt }
}

/** Every scope must allow the attempt; when several refuse, the longest wait is the answer. */
export function decideLoginThrottle(
  checks: ReadonlyArray<{ policy: ThrottlePolicy; state: ThrottleState | null }>,
  now: Date,
): ThrottleDecision {
  let wait = 0
  for (const { policy, state } of checks) {
    const d = decideThrottle(policy, state, now)
    if (!d.ok) wait = Math.max(wait, d.retryAfterSeconds)
  }
  return wait > 0 ? { ok: false, retryAfterSeconds: wait } : { ok: true }
}

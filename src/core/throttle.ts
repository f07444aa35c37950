// Failed log-in throttling, per account and per client address, on the fixed-window limiter
// (src/core/fixed-window.ts): the first failure opens a window; once `max` failures fall in it,
// log-ins for that subject are refused (even with the right password) until the window ends.
// Unknown emails are counted exactly like known ones, so the throttle never tells whether an
// account exists. The counts are rows of rate_windows under the scopes login_account and
// login_address (db/rate-windows.ts).

import { decideBlocked, type WindowDecision, type WindowPolicy, type WindowState } from './fixed-window'

export type ThrottleScope = 'account' | 'address'

/**
 * Five wrong passwords per account per 15 minutes keeps online guessing under 500 a day; an
 * address gets more room because offices and carrier NAT put many people behind one address.
 */
export const LOGIN_THROTTLE: Readonly<Record<ThrottleScope, WindowPolicy>> = {
  account: { max: 5, windowSeconds: 15 * 60 },
  address: { max: 20, windowSeconds: 15 * 60 },
}

/** Every scope must allow the attempt; when several refuse, the longest wait is the answer. */
export function decideLoginThrottle(
  checks: ReadonlyArray<{ policy: WindowPolicy; state: WindowState | null }>,
  now: Date,
): WindowDecision {
  let wait = 0
  for (const { policy, state } of checks) {
    const d = decideBlocked(policy, state, now)
    if (!d.ok) wait = Math.max(wait, d.retryAfterSeconds)
  }
  return wait > 0 ? { ok: false, retryAfterSeconds: wait } : { ok: true }
}

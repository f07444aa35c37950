// Throttling the account forms, on the fixed-window limiter (src/core/fixed-window.ts). The
// counts are rows of rate_windows (db/rate-windows.ts); subjects are hashed.
//
// Log-in: every attempt is counted *before* its password is checked, in one statement that
// also returns the new counts (db/rate-windows.ts hitGatedWindows), and an attempt whose count
// is over the limit is refused without looking at the password. So N concurrent attempts get
// at most `max` judged, on any number of app instances. Two subjects, checked in order:
// 1. the client address, strictly: 10 attempts per 15 minutes, whatever account they name;
// 2. the account (the lower-cased email), loosely: 50 per 15 minutes from all addresses
//    together. An attempt refused at its address is not counted against the account, so one
//    address can never lock an account: that takes at least five addresses at once, and the
//    owner, from an address of their own, can still log in while one address guesses.
// A successful log-in takes back its own count at the address (so only failures use it up,
// and an own account cannot buy guesses at others: its success is worth exactly its own hit)
// and clears the account's count. Unknown emails are counted exactly like known ones, so the
// throttle never tells whether an account exists.
//
// Sign-up: every sign-up that passes the form's checks is counted per client address before
// its password is hashed: 10 per hour, so no one can make the server compute argon2id at will.

import { decideHit, type WindowDecision, type WindowPolicy, type WindowState } from './fixed-window'

export type ThrottleScope = 'account' | 'address'

/**
 * The address is the attacker's handle, so it gets the strict limit; the account gets five
 * times as much room, so an attacker needs five addresses at once to shut its owner out. The
 * account limit still caps distributed guessing at 4,800 a day for one account.
 */
export const LOGIN_THROTTLE: Readonly<Record<ThrottleScope, WindowPolicy>> = {
  address: { max: 10, windowSeconds: 15 * 60 },
  account: { max: 50, windowSeconds: 15 * 60 },
}

/** Sign-ups per client address: a person signs up once; an office or a class has room. */
export const SIGNUP_THROTTLE: WindowPolicy = { max: 10, windowSeconds: 60 * 60 }

/** The longest window of these limits: ended windows are pruned after it (src/maintenance.ts). */
export const LONGEST_ACCOUNT_WINDOW_SECONDS = Math.max(LOGIN_THROTTLE.address.windowSeconds, LOGIN_THROTTLE.account.windowSeconds, SIGNUP_THROTTLE.windowSeconds)

/**
 * For windows already counted (`after` includes this attempt; null for a subject that was not
 * counted because an earlier one refused): every counted subject must be within its limit;
 * when several are over, the longest wait is the answer.
 */
export function decideLoginThrottle(checks: ReadonlyArray<{ policy: WindowPolicy; after: WindowState | null }>, now: Date): WindowDecision {
  let wait = 0
  for (const { policy, after } of checks) {
    if (!after) continue
    const d = decideHit(policy, after, now)
    if (!d.ok) wait = Math.max(wait, d.retryAfterSeconds)
  }
  return wait > 0 ? { ok: false, retryAfterSeconds: wait } : { ok: true }
}

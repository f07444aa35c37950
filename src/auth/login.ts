// Log-in. A failure is one value, 'invalid', whether the email is unknown, belongs to an account
// without a password, or the password is wrong; the throttle counts all three alike. The attempt
// is counted before the password is checked, in one statement that returns the new counts
// (src/core/throttle.ts has the rule and the numbers), so a refused attempt never reaches
// argon2id, concurrent attempts cannot slip past the limit, and a locked account cannot be
// guessed into even with the right password.

import { getLoginAccount } from '../../db/accounts'
import type { Db } from '../../db/client'
import { clearWindow, forgiveHit, hitGatedWindows, type RateSubject } from '../../db/rate-windows'
import type { Credentials } from '../core/account-input'
import { networkKey } from '../core/ip'
import { hashSecret } from '../core/keys'
import { decideLoginThrottle, LOGIN_THROTTLE } from '../core/throttle'
import { verifyPassword } from './password'

export type LoginResult =
  | { ok: true; accountId: string }
  | { ok: false; code: 'invalid' }
  | { ok: false; code: 'throttled'; retryAfterSeconds: number }

/**
 * The throttle subjects of an attempt: hashed, so the table never holds what was typed. The
 * address counts per network (an IPv6 /64: networkKey), so a /64's many addresses are one.
 */
export function throttleSubjects(email: string, address: string): { account: RateSubject; address: RateSubject } {
  return {
    account: { scope: 'login_account', subject: hashSecret(`account:${email}`) },
    address: { scope: 'login_address', subject: hashSecret(`address:${networkKey(address)}`) },
  }
}

export async function logIn(db: Db, input: Credentials & { address: string; now: Date }): Promise<LoginResult> {
  const { now } = input
  const subjects = throttleSubjects(input.email, input.address)
  // Ended windows are dropped by the maintenance run (db/retention.ts pruneWindows).
  const counted = await hitGatedWindows(db, {
    first: { ...subjects.address, policy: LOGIN_THROTTLE.address },
    second: { ...subjects.account, policy: LOGIN_THROTTLE.account },
    now,
  })
  const throttle = decideLoginThrottle(
    [
      { policy: LOGIN_THROTTLE.address, after: counted.first },
      { policy: LOGIN_THROTTLE.account, after: counted.second },
    ],
    now,
  )
  if (!throttle.ok) return { ok: false, code: 'throttled', retryAfterSeconds: throttle.retryAfterSeconds }

  const account = await getLoginAccount(db, input.email)
  if (account && (await verifyPassword(input.password, account.passwordHash))) {
    // The address gets back only this attempt's hit: logging in to one's own account must not
    // wipe the count of an address that is guessing at others. The account's count is cleared.
    await forgiveHit(db, subjects.address, counted.first.windowStartedAt)
    await clearWindow(db, subjects.account)
    return { ok: true, accountId: account.id }
  }
  if (!account) await verifyPassword(input.password, null)
  return { ok: false, code: 'invalid' }
}

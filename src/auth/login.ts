// Sign-up and log-in. A log-in failure is one value, 'invalid', whether the email is unknown,
// belongs to an account without a password, or the password is wrong; the throttle counts all
// three alike. Throttling is checked before the password, so a locked account cannot be
// guessed into even with the right password.

import { createAccountWithPassword, getLoginAccount } from '../../db/accounts'
import type { Db } from '../../db/client'
import { clearWindow, hitWindow, readWindows, windowKey, type RateSubject } from '../../db/rate-windows'
import type { Credentials } from '../core/account-input'
import { hashSecret } from '../core/keys'
import { decideLoginThrottle, LOGIN_THROTTLE } from '../core/throttle'
import { hashPassword, verifyPassword } from './password'

export type SignupResult = { ok: true; accountId: string } | { ok: false; code: 'email_taken' }

export async function signUp(db: Db, input: Credentials): Promise<SignupResult> {
  const account = await createAccountWithPassword(db, { email: input.email, passwordHash: await hashPassword(input.password) })
  return account ? { ok: true, accountId: account.id } : { ok: false, code: 'email_taken' }
}

export type LoginResult =
  | { ok: true; accountId: string }
  | { ok: false; code: 'invalid' }
  | { ok: false; code: 'throttled'; retryAfterSeconds: number }

/** The throttle subjects of an attempt: hashed, so the table never holds what was typed. */
export function throttleSubjects(email: string, address: string): { account: RateSubject; address: RateSubject } {
  return {
    account: { scope: 'login_account', subject: hashSecret(`account:${email}`) },
    address: { scope: 'login_address', subject: hashSecret(`address:${address}`) },
  }
}

export async function logIn(db: Db, input: Credentials & { address: string; now: Date }): Promise<LoginResult> {
  const { now } = input
  const subjects = throttleSubjects(input.email, input.address)
  const states = await readWindows(db, [subjects.account, subjects.address])
  const state = (s: RateSubject) => states.get(windowKey(s)) ?? null
  const throttle = decideLoginThrottle(
    [
      { policy: LOGIN_THROTTLE.account, state: state(subjects.account) },
      { policy: LOGIN_THROTTLE.address, state: state(subjects.address) },
    ],
    now,
  )
  if (!throttle.ok) return { ok: false, code: 'throttled', retryAfterSeconds: throttle.retryAfterSeconds }

  const account = await getLoginAccount(db, input.email)
  if (account && (await verifyPassword(input.password, account.passwordHash))) {
    // Only the account's count is cleared: logging in to one's own account must not reset
    // the count of an address that is guessing at others.
    await clearWindow(db, subjects.account)
    return { ok: true, accountId: account.id }
  }
  if (!account) await verifyPassword(input.password, null)
  // Ended windows are dropped by the maintenance run (db/retention.ts pruneWindows).
  await hitWindow(db, { ...subjects.account, policy: LOGIN_THROTTLE.account, now })
  await hitWindow(db, { ...subjects.address, policy: LOGIN_THROTTLE.address, now })
  return { ok: false, code: 'invalid' }
}

// Sign-up, without telling whether an email already has an account. Every accepted sign-up
// does the same work and gets the same answer: the password is hashed (argon2id), then the
// account is inserted unless the email is taken, in which case nothing changes. The caller
// cannot tell which happened (SignupResult does not say), so neither can the person asking;
// the owner of an existing account is not told either (sending email is out of scope).
//
// Each sign-up is counted per client address before the hash (src/core/throttle.ts), so
// sign-ups cannot be used to make the server compute argon2id at will, nor to probe emails
// through sign-up then log-in faster than SIGNUP_THROTTLE allows.

import { createAccountWithPassword } from '../../db/accounts'
import type { Db } from '../../db/client'
import { hitWindow, type RateSubject } from '../../db/rate-windows'
import type { Credentials } from '../core/account-input'
import { decideHit, type WindowPolicy } from '../core/fixed-window'
import { networkKey } from '../core/ip'
import { hashSecret } from '../core/keys'
import { SIGNUP_THROTTLE } from '../core/throttle'
import { hashPassword } from './password'

export type SignupResult = { ok: true } | { ok: false; code: 'throttled'; retryAfterSeconds: number }

/**
 * The throttle subject of a sign-up from this address: its own scope (migration 0008), apart
 * from log-ins, counted per network (an IPv6 /64: networkKey).
 */
export function signupSubject(address: string): RateSubject {
  return { scope: 'signup_address', subject: hashSecret(networkKey(address)) }
}

export async function signUp(db: Db, input: Credentials & { address: string; now: Date; policy?: WindowPolicy | undefined }): Promise<SignupResult> {
  const policy = input.policy ?? SIGNUP_THROTTLE
  const after = await hitWindow(db, { ...signupSubject(input.address), policy, now: input.now })
  const d = decideHit(policy, after, input.now)
  if (!d.ok) return { ok: false, code: 'throttled', retryAfterSeconds: d.retryAfterSeconds }
  const passwordHash = await hashPassword(input.password)
  await createAccountWithPassword(db, { email: input.email, passwordHash })
  return { ok: true }
}

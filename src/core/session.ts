// Dashboard session tokens. The cookie carries 32 random bytes (256 bits, base64url, 43
// characters); the database stores only hashSecret(token), so reading the sessions table does
// not let anyone log in. Sessions last 14 days and are pushed forward when less than half of
// that is left, so someone using the dashboard every week stays logged in and an abandoned
// session dies within two weeks. (Lucia's session guide uses the same half-life renewal.)

import type { RandomBytes } from './keys'

export const SESSION_TOKEN_BYTES = 32
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/
export const SESSION_LIFETIME_SECONDS = 14 * 24 * 60 * 60

export function generateSessionToken(random: RandomBytes): string {
  const bytes = random(SESSION_TOKEN_BYTES)
  if (bytes.length !== SESSION_TOKEN_BYTES) throw new Error(`random source gave ${bytes.length} bytes, wanted ${SESSION_TOKEN_BYTES}`)
  return Buffer.from(bytes).toString('base64url')
}

/** Shape only: rejects junk cookies before the database is asked. */
export function isWellFormedSessionToken(token: string): boolean {
  return TOKEN_PATTERN.test(token)
}

export function sessionExpiry(now: Date): Date {
  return new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000)
}

/** The new expiry when the session should be extended now, or null while more than half is left. */
export function sessionRenewal(expiresAt: Date, now: Date): Date | null {
  const left = expiresAt.getTime() - now.getTime()
  if (left <= 0) return null
  return left < (SESSION_LIFETIME_SECONDS * 1000) / 2 ? sessionExpiry(now) : null
}

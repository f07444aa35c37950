// Starting, resuming and ending dashboard sessions: the token rules of src/core/session.ts
// applied to the sessions table. Cookies are the HTTP layer's business (src/http/web-session.ts).

import { createSession, deleteSession, extendSession, getSession, type SessionRecord } from '../../db/sessions'
import type { Db } from '../../db/client'
import { hashSecret, type RandomBytes } from '../core/keys'
import { generateSessionToken, isWellFormedSessionToken, sessionExpiry, sessionRenewal } from '../core/session'

export interface ActiveSession extends SessionRecord {
  token: string
}

/** A fresh session (a new token on every log-in, so a token planted before it is useless). */
export async function startSession(db: Db, args: { accountId: string; random: RandomBytes; now: Date }): Promise<{ token: string; expiresAt: Date }> {
  const token = generateSessionToken(args.random)
  const expiresAt = sessionExpiry(args.now)
  await createSession(db, { tokenHash: hashSecret(token), accountId: args.accountId, expiresAt, now: args.now })
  return { token, expiresAt }
}

/** The live session for a cookie token, extended when it is past half its life; null otherwise. */
export async function resumeSession(db: Db, args: { token: string | undefined; now: Date }): Promise<(ActiveSession & { renewed: boolean }) | null> {
  const { token, now } = args
  if (!token || !isWellFormedSessionToken(token)) return null
  const tokenHash = hashSecret(token)
  const found = await getSession(db, { tokenHash, now })
  if (!found) return null
  const renewal = sessionRenewal(found.expiresAt, now)
  if (renewal) await extendSession(db, { tokenHash, expiresAt: renewal })
  return { ...found, token, expiresAt: renewal ?? found.expiresAt, renewed: renewal !== null }
}

export async function endSession(db: Db, token: string | undefined): Promise<void> {
  if (token && isWellFormedSessionToken(token)) await deleteSession(db, hashSecret(token))
}

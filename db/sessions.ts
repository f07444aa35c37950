// Dashboard sessions, looked up by the SHA-256 of the cookie token (src/core/session.ts).
// Times come from the app's clock, never the database's, so tests control expiry.

import { and, eq, gt, lte } from 'drizzle-orm'
import type { Db } from './client'
import { accounts, sessions } from './schema'

export interface SessionRecord {
  accountId: string
  email: string
  expiresAt: Date
}

/** Stores a new session; also drops this account's expired ones, so the table does not grow. */
export async function createSession(db: Db, args: { tokenHash: string; accountId: string; expiresAt: Date; now: Date }): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.accountId, args.accountId), lte(sessions.expiresAt, args.now)))
  await db.insert(sessions).values({ tokenHash: args.tokenHash, accountId: args.accountId, expiresAt: args.expiresAt, createdAt: args.now })
}

/** The session and its account, or null when there is none or it has expired. */
export async function getSession(db: Db, args: { tokenHash: string; now: Date }): Promise<SessionRecord | null> {
  const [row] = await db
    .select({ accountId: sessions.accountId, email: accounts.email, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(eq(sessions.tokenHash, args.tokenHash), gt(sessions.expiresAt, args.now)))
  return row ?? null
}

export async function extendSession(db: Db, args: { tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.update(sessions).set({ expiresAt: args.expiresAt }).where(eq(sessions.tokenHash, args.tokenHash))
}

/** Logout: the row goes, so the cookie is worthless even if someone kept a copy. */
export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash))
}

// The signed agents' key directories as the instances last read them (issue 60): one row per
// directory URL, shared by every instance, kept until its expiry (src/agents/directories.ts).

import { and, eq, gt, lt } from 'drizzle-orm'
import type { Db } from './client'
import { agentDirectories } from './schema'

export interface StoredDirectory {
  body: unknown
  failure: string | null
  fetchedAt: Date
  expiresAt: Date
}

/** The directory's stored reading while it has not expired, or null. */
export async function readAgentDirectory(db: Db, args: { url: string; now: Date }): Promise<StoredDirectory | null> {
  const [row] = await db
    .select({ body: agentDirectories.body, failure: agentDirectories.failure, fetchedAt: agentDirectories.fetchedAt, expiresAt: agentDirectories.expiresAt })
    .from(agentDirectories)
    .where(and(eq(agentDirectories.url, args.url), gt(agentDirectories.expiresAt, args.now)))
  return row ?? null
}

/** Stores a reading, replacing the one before. */
export async function storeAgentDirectory(db: Db, args: { url: string; body: unknown; failure: string | null; fetchedAt: Date; expiresAt: Date }): Promise<void> {
  const row = { url: args.url, body: args.body ?? null, failure: args.failure, fetchedAt: args.fetchedAt, expiresAt: args.expiresAt }
  await db.insert(agentDirectories).values(row).onConflictDoUpdate({ target: agentDirectories.url, set: { body: row.body, failure: row.failure, fetchedAt: row.fetchedAt, expiresAt: row.expiresAt } })
}

/** Deletes the readings that expired before `before`; returns how many. */
export async function purgeAgentDirectories(db: Db, before: Date): Promise<number> {
  const gone = await db.delete(agentDirectories).where(lt(agentDirectories.expiresAt, before)).returning({ url: agentDirectories.url })
  return gone.length
}

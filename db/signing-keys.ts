// Ed25519 keys that sign task responses, shared by every instance through the database.

import { desc } from 'drizzle-orm'
import type { Db } from './client'
import { signingKeys } from './schema'

export interface SigningKeyRow {
  kid: string
  publicJwk: Record<string, unknown>
  privatePkcs8: string
}

/** The newest key, creating one with `generate` when there is none. Safe for instances starting together. */
export async function currentSigningKey(db: Db, generate: () => SigningKeyRow): Promise<SigningKeyRow> {
  const newest = async () =>
    (await db.select().from(signingKeys).orderBy(desc(signingKeys.createdAt), desc(signingKeys.kid)).limit(1))[0] as SigningKeyRow | undefined
  const existing = await newest()
  if (existing) return existing
  await db.insert(signingKeys).values(generate()).onConflictDoNothing()
  // Re-read: a concurrent instance may have inserted its own; all then agree on the newest.
  return (await newest())!
}

/** Every public key, for /.well-known/jwks.json. */
export async function publicSigningKeys(db: Db): Promise<Array<Record<string, unknown>>> {
  const all = await db.select({ jwk: signingKeys.publicJwk }).from(signingKeys).orderBy(desc(signingKeys.createdAt))
  return all.map((r) => r.jwk as Record<string, unknown>)
}

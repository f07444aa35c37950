// Ed25519 keys that sign task responses, shared by every instance through the database. The
// private key column holds only the encrypted form (src/signing.ts: `enc:v1:…`); the secret it
// is encrypted with never enters the database.

import { and, desc, eq, like, not, sql } from 'drizzle-orm'
import { type KeyProtector, privateKeyMatches, SEALED_PREFIX, SigningKeyError, type SigningKeyRow } from '../src/signing'
import type { Db } from './client'
import { signingKeys } from './schema'

/**
 * Encrypts every private key still stored in plain text (written before encryption at rest).
 * Each row is rewritten only if it still holds the plain text, so instances starting together
 * cannot wrap a key twice. Returns how many rows this call encrypted.
 */
export async function sealPlaintextKeys(db: Db, protector: KeyProtector): Promise<number> {
  const plain = await db
    .select({ kid: signingKeys.kid, privatePkcs8: signingKeys.privatePkcs8 })
    .from(signingKeys)
    .where(not(like(signingKeys.privatePkcs8, `${SEALED_PREFIX}%`)))
  let sealed = 0
  for (const row of plain) {
    const updated = await db
      .update(signingKeys)
      .set({ privatePkcs8: await protector.seal(row.kid, row.privatePkcs8) })
      .where(and(eq(signingKeys.kid, row.kid), eq(signingKeys.privatePkcs8, row.privatePkcs8)))
      .returning({ kid: signingKeys.kid })
    sealed += updated.length
  }
  return sealed
}

/**
 * The newest key, decrypted, creating one with `generate` when there is none; plain-text rows
 * are encrypted first. Safe for instances starting together. Throws SigningKeyError, saying
 * what to do, when the newest key cannot be decrypted with the protector's secret (another
 * secret made it) — never replaces it with a new key.
 */
export async function currentSigningKey(db: Db, opts: { generate: () => SigningKeyRow; protector: KeyProtector }): Promise<SigningKeyRow> {
  const { protector } = opts
  await sealPlaintextKeys(db, protector)
  let row = await newestKey(db)
  if (!row) {
    const fresh = opts.generate()
    const sealed = await protector.seal(fresh.kid, fresh.privatePkcs8)
    row = await db.transaction(async (tx) => {
      // One creator at a time, across instances: the others wait here, then find its key, so
      // instances starting together on an empty table all sign with the same one.
      await tx.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEY_LOCK})`)
      const existing = await newestKey(tx)
      if (existing) return existing
      await tx.insert(signingKeys).values({ ...fresh, privatePkcs8: sealed })
      return (await newestKey(tx))!
    })
  }
  const privatePkcs8 = await protector.open(row.kid, row.privatePkcs8)
  if (!privateKeyMatches(privatePkcs8, row.publicJwk)) {
    throw new SigningKeyError(`Cannot start: the signing key ${row.kid} decrypts, but not to the private key of its public key in signing_keys.public_jwk (the row was altered)`)
  }
  return { kid: row.kid, publicJwk: row.publicJwk, privatePkcs8 }
}

/** An advisory lock id of its own (db/client.ts's migration lock is another). */
const SIGNING_KEY_LOCK = 7_202_612

async function newestKey(db: Pick<Db, 'select'>): Promise<SigningKeyRow | undefined> {
  const [row] = await db
    .select({ kid: signingKeys.kid, publicJwk: signingKeys.publicJwk, privatePkcs8: signingKeys.privatePkcs8 })
    .from(signingKeys)
    .orderBy(desc(signingKeys.createdAt), desc(signingKeys.kid))
    .limit(1)
  return row ? { kid: row.kid, publicJwk: row.publicJwk as Record<string, unknown>, privatePkcs8: row.privatePkcs8 } : undefined
}

/** Every public key, for /.well-known/jwks.json. */
export async function publicSigningKeys(db: Db): Promise<Array<Record<string, unknown>>> {
  const all = await db.select({ jwk: signingKeys.publicJwk }).from(signingKeys).orderBy(desc(signingKeys.createdAt))
  return all.map((r) => r.jwk as Record<string, unknown>)
}

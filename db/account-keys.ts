// Keys as their owner sees and changes them from the dashboard. Every statement is scoped by
// account id as well as key id, so a key id from another account behaves exactly like a key
// id that does not exist: nothing is read, nothing is changed, and the caller answers 404.

import { and, eq, sql } from 'drizzle-orm'
import { rows, type Db } from './client'
import { insertKey, type NewKey } from './keys'
import { apiKeys } from './schema'
import type { KeyStatus } from '../src/core/quota'

export interface OwnedKey {
  accountId: string
  keyId: string
}

export interface KeyName {
  id: string
  name: string
}

const owned = (k: OwnedKey) => and(eq(apiKeys.id, k.keyId), eq(apiKeys.accountId, k.accountId))
const nameColumns = { id: apiKeys.id, name: apiKeys.name }

export async function getAccountKey(db: Db, key: OwnedKey): Promise<KeyName | null> {
  const [row] = await db.select(nameColumns).from(apiKeys).where(owned(key))
  return row ?? null
}

export async function setAccountKeyStatus(db: Db, args: OwnedKey & { status: KeyStatus }): Promise<KeyName | null> {
  const [row] = await db.update(apiKeys).set({ status: args.status }).where(owned(args)).returning(nameColumns)
  return row ?? null
}

export async function setAccountKeyExpiry(db: Db, args: OwnedKey & { expiresAt: Date | null }): Promise<KeyName | null> {
  const [row] = await db.update(apiKeys).set({ expiresAt: args.expiresAt }).where(owned(args)).returning(nameColumns)
  return row ?? null
}

/** A new secret for the key: the old hash is overwritten, so the old secret stops working at once. */
export async function rotateAccountKey(
  db: Db,
  args: OwnedKey & { keyHash: string; prefix: string; last4: string },
): Promise<KeyName | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ keyHash: args.keyHash, prefix: args.prefix, last4: args.last4 })
    .where(owned(args))
    .returning(nameColumns)
  return row ?? null
}

/** Deletes the key and, by cascade, its usage rows. */
export async function deleteAccountKey(db: Db, key: OwnedKey): Promise<KeyName | null> {
  const [row] = await db.delete(apiKeys).where(owned(key)).returning(nameColumns)
  return row ?? null
}

export type CreatedAccountKey = { ok: true; id: string } | { ok: false; reason: 'at_cap'; count: number }

/**
 * A new key for the account, unless it already has `maxKeys` keys (every key it has, active or
 * not, counts until deleted). Atomic across connections and instances: the transaction first
 * locks the account's row, so two creates for one account take turns, and the count (a new
 * statement, so a new READ COMMITTED snapshot) sees every key committed before it. Without the
 * lock, two creates at `maxKeys - 1` would both count `maxKeys - 1` and both insert.
 */
export async function createAccountKey(db: Db, key: NewKey, maxKeys: number): Promise<CreatedAccountKey> {
  return db.transaction(async (tx) => {
    const [account] = await rows<{ id: string }>(tx, sql`select id::text as id from accounts where id = ${key.accountId}::uuid for update`)
    if (!account) throw new Error(`createAccountKey: no account ${key.accountId}`)
    const [{ count } = { count: 0 }] = await rows<{ count: number }>(tx, sql`select count(*)::int as count from api_keys where account_id = ${key.accountId}::uuid`)
    if (count >= maxKeys) return { ok: false, reason: 'at_cap', count }
    return { ok: true, id: await insertKey(tx, key) }
  })
}

/** How many keys the account has (what the cap counts). */
export async function countAccountKeys(db: Db, accountId: string): Promise<number> {
  const [row] = await rows<{ count: number }>(db, sql`select count(*)::int as count from api_keys where account_id = ${accountId}::uuid`)
  return row?.count ?? 0
}

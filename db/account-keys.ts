// Keys as their owner sees and changes them from the dashboard. Every statement is scoped by
// account id as well as key id, so a key id from another account behaves exactly like a key
// id that does not exist: nothing is read, nothing is changed, and the caller answers 404.

import { and, eq } from 'drizzle-orm'
import type { Db } from './client'
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

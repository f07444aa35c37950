import { and, eq, sql } from 'drizzle-orm'
import { rows, type Db } from './client'
import { ensureAccount, type Account } from './accounts'
import { accounts, apiKeys, keyUsage, plans, planUsage } from './schema'
import type { KeyStatus } from '../src/core/quota'

export interface KeyRecord {
  id: string
  accountId: string
  email: string
  name: string
  prefix: string
  last4: string
  plan: string
  monthlyLimit: number
  status: KeyStatus
  expiresAt: Date | null
  createdAt: Date
}

export interface NewKey {
  accountId: string
  planId: number
  name: string
  keyHash: string
  prefix: string
  last4: string
  status?: KeyStatus
  expiresAt?: Date | null
}

const keyColumns = {
  id: apiKeys.id,
  accountId: apiKeys.accountId,
  email: accounts.email,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  last4: apiKeys.last4,
  plan: plans.name,
  monthlyLimit: plans.monthlyLimit,
  status: apiKeys.status,
  expiresAt: apiKeys.expiresAt,
  createdAt: apiKeys.createdAt,
}

export async function insertKey(db: Db, key: NewKey): Promise<string> {
  const [row] = await db
    .insert(apiKeys)
    .values({ ...key, status: key.status ?? 'active', expiresAt: key.expiresAt ?? null })
    .returning({ id: apiKeys.id })
  return row!.id
}

/**
 * The operator's create: the account with this email (created when missing) and the key, in
 * one transaction, so a key that cannot be stored leaves no new account behind.
 */
export async function insertKeyForEmail(db: Db, email: string, key: Omit<NewKey, 'accountId'>): Promise<{ id: string; account: Account }> {
  return db.transaction(async (tx) => {
    const account = await ensureAccount(tx, email)
    const id = await insertKey(tx, { ...key, accountId: account.id })
    return { id, account }
  })
}

export async function getKey(db: Db, id: string): Promise<KeyRecord | null> {
  const [row] = await db
    .select(keyColumns)
    .from(apiKeys)
    .innerJoin(plans, eq(plans.id, apiKeys.planId))
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.id, id))
  return row ?? null
}

export interface KeyChanges {
  status?: KeyStatus
  expiresAt?: Date | null
  planId?: number
}

/** Applies the changes; false when there is no such key. */
export async function updateKey(db: Db, id: string, changes: KeyChanges): Promise<boolean> {
  const set: Partial<typeof apiKeys.$inferInsert> = {}
  if (changes.status !== undefined) set.status = changes.status
  if (changes.expiresAt !== undefined) set.expiresAt = changes.expiresAt
  if (changes.planId !== undefined) set.planId = changes.planId
  if (Object.keys(set).length === 0) return (await getKey(db, id)) !== null
  const updated = await db.update(apiKeys).set(set).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id })
  return updated.length > 0
}

export interface MonthUsage {
  count: number
  /** Index 0 is day 1 of the month. */
  daily: number[]
  lastUsedAt: Date | null
}

export async function getMonthUsage(db: Db, keyId: string, month: string): Promise<MonthUsage> {
  const [row] = await rows<{ count: number; daily: number[] | string; last_used_ms: number | null }>(
    db,
    sql`select ${keyUsage.count}::int as count, array_to_json(${keyUsage.daily})::text as daily,
               (extract(epoch from ${keyUsage.lastUsedAt}) * 1000)::float8 as last_used_ms
        from ${keyUsage} where ${and(eq(keyUsage.keyId, keyId), eq(keyUsage.month, month))}`,
  )
  if (!row) return { count: 0, daily: [], lastUsedAt: null }
  const daily = typeof row.daily === 'string' ? (JSON.parse(row.daily) as number[]) : row.daily
  return { count: row.count, daily, lastUsedAt: row.last_used_ms === null ? null : new Date(row.last_used_ms) }
}

/**
 * Counted fetches this month of the allowance the key draws on: its account's on its plan
 * (plan_usage, issue 57), shared with the account's other keys on the plan, deleted ones included.
 */
export async function getPlanUsage(db: Db, keyId: string, month: string): Promise<number> {
  const [row] = await rows<{ count: number }>(
    db,
    sql`select ${planUsage.count}::int as count from ${planUsage} join ${apiKeys}
          on ${apiKeys.accountId} = ${planUsage.accountId} and ${apiKeys.planId} = ${planUsage.planId}
        where ${apiKeys.id} = ${keyId}::uuid and ${planUsage.month} = ${month}::date`,
  )
  return row?.count ?? 0
}

// Everything the dashboard shows, read in one read-only REPEATABLE READ transaction: the
// self-serve plans (the ones an account may choose), the account's keys (on any plan), each
// key's usage this month and the account's allowance on its plan (plan_usage: what the limit
// counts, shared by the account's keys on the plan). One snapshot means the per-key counts, the
// bars and the chart's daily totals all agree, even while fetches are counted.

import { sql } from 'drizzle-orm'
import { rows, type Db } from './client'
import { listSelfServePlans } from './plans'
import type { KeyStatus, Plan } from '../src/core/quota'
import type { KeyRecord } from './keys'

/** A key as its owner sees it: the operator's record without the account, plus its use. */
export interface DashboardKey extends Omit<KeyRecord, 'accountId' | 'email'> {
  /** Counted fetches through this key this month. */
  used: number
  /**
   * Counted fetches this month through every key the account has (and had) on this key's plan:
   * the allowance the plan's limit bounds, one per account and plan (issue 57).
   */
  planUsed: number
  /** This month, index 0 is day 1; may be shorter than the month (missing days are 0). */
  daily: number[]
  /** Last counted fetch in any month. */
  lastUsedAt: Date | null
}

export interface Dashboard {
  plans: Plan[]
  keys: DashboardKey[]
}

interface Row {
  id: string
  name: string
  prefix: string
  last4: string
  plan: string
  monthly_limit: number
  status: KeyStatus
  expires_ms: number | null
  created_ms: number
  used: number
  plan_used: number
  daily: string | null
  last_used_ms: number | null
}

const dateOrNull = (ms: number | null) => (ms === null ? null : new Date(ms))

export async function readDashboard(db: Db, args: { accountId: string; month: string }): Promise<Dashboard> {
  return db.transaction(
    async (tx) => {
      const plans = await listSelfServePlans(tx)
      const keys = await rows<Row>(
        tx,
        sql`select ak.id::text as id, ak.name, ak.prefix, ak.last4, ak.status, p.name as plan,
                   p.monthly_limit::int as monthly_limit,
                   (extract(epoch from ak.expires_at) * 1000)::float8 as expires_ms,
                   (extract(epoch from ak.created_at) * 1000)::float8 as created_ms,
                   coalesce(u.count, 0)::int as used,
                   coalesce(pu.count, 0)::int as plan_used,
                   array_to_json(u.daily)::text as daily,
                   (select (extract(epoch from max(all_months.last_used_at)) * 1000)::float8
                      from key_usage all_months where all_months.key_id = ak.id) as last_used_ms
            from api_keys ak
            join plans p on p.id = ak.plan_id
            left join key_usage u on u.key_id = ak.id and u.month = ${args.month}::date
            left join plan_usage pu on pu.account_id = ak.account_id and pu.plan_id = ak.plan_id and pu.month = ${args.month}::date
            where ak.account_id = ${args.accountId}::uuid
            order by ak.created_at, ak.id`,
      )
      return {
        plans,
        keys: keys.map((r) => ({
          id: r.id,
          name: r.name,
          prefix: r.prefix,
          last4: r.last4,
          plan: r.plan,
          monthlyLimit: r.monthly_limit,
          status: r.status,
          expiresAt: dateOrNull(r.expires_ms),
          createdAt: new Date(r.created_ms),
          used: r.used,
          planUsed: r.plan_used,
          daily: r.daily === null ? [] : (JSON.parse(r.daily) as number[]),
          lastUsedAt: dateOrNull(r.last_used_ms),
        })),
      }
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  )
}

// The keyed task fetch, in one statement: find the key and its plan, find the task, and, only
// when the key is usable and the task exists, add one to this month's count unless the count
// has reached the limit. The conditional upsert is the atomic step: under READ COMMITTED,
// ON CONFLICT DO UPDATE locks the usage row and re-evaluates its WHERE against the latest
// committed count, so with L units left, any number of concurrent fetches (from any number of
// app instances) gets exactly L increments. What the outcome means is decided in
// src/core/quota.ts (decideFetch).
//
// A key that has asked for too many ids that do not exist (src/core/fixed-window.ts) is not
// counted either, and answers 429 until its window ends: the key's row says until when
// (api_keys.misses_blocked_until, set by recordMiss when a miss fills the window), so the
// happy path reads no window. Recording a miss is a second statement, on the 404 path only.

import { rawRows, type Db } from './client'
import { TASK_COLUMNS_SQL, type StoredTask } from './tasks'
import type { FetchObservation } from '../src/core/quota'
import { dayOfMonth, monthKey } from '../src/core/month'

interface Row extends Partial<StoredTask> {
  key_id: string
  status: 'active' | 'inactive'
  expires_ms: number | null
  monthly_limit: number
  used_before: number
  used_after: number | null
  blocked_until_ms: number | null
}

const FETCH_TASK_WITH_KEY = `
    with k as (
      select ak.id, ak.status, ak.expires_at, ak.misses_blocked_until, p.monthly_limit
      from api_keys ak join plans p on p.id = ak.plan_id
      where ak.key_hash = $1::text
    ),
    t as (select * from tasks where id = $2::uuid),
    inc as (
      insert into key_usage as u (key_id, month, count, daily, last_used_at)
      select k.id, $3::date, 1,
             array_fill(0, array[$4::int - 1]) || array[1] || array_fill(0, array[31 - $4::int]),
             $5::timestamptz
      from k cross join t
      where k.status = 'active'
        and (k.expires_at is null or k.expires_at > $5::timestamptz)
        and k.monthly_limit > 0
        and (k.misses_blocked_until is null or k.misses_blocked_until <= $5::timestamptz)
      on conflict (key_id, month) do update
        set count = u.count + 1,
            daily[$4::int] = coalesce(u.daily[$4::int], 0) + 1,
            last_used_at = excluded.last_used_at
        where u.count < (select monthly_limit from k)
      returning u.count
    )
    select k.id::text as key_id, k.status,
           (extract(epoch from k.expires_at) * 1000)::float8 as expires_ms,
           k.monthly_limit,
           coalesce((select count from key_usage where key_id = k.id and month = $3::date), 0)::int as used_before,
           (select count from inc)::int as used_after,
           (extract(epoch from k.misses_blocked_until) * 1000)::float8 as blocked_until_ms,
           ${TASK_COLUMNS_SQL}
    from k left join t on true`

export async function fetchTaskWithKey(db: Db, args: { keyHash: string; taskId: string | null; now: Date }): Promise<FetchObservation<StoredTask>> {
  const { keyHash, taskId, now } = args
  // $1 key hash, $2 task id, $3 month, $4 day, $5 now.
  const [row] = await rawRows<Row>(db, FETCH_TASK_WITH_KEY, [keyHash, taskId, monthKey(now), dayOfMonth(now), now.toISOString()])
  if (!row) return { key: null, task: null, usedAfter: null }
  return {
    key: {
      id: row.key_id,
      status: row.status,
      expiresAt: row.expires_ms === null ? null : new Date(row.expires_ms),
      monthlyLimit: row.monthly_limit,
      usedBefore: row.used_before,
      missesBlockedUntil: row.blocked_until_ms === null ? null : new Date(row.blocked_until_ms),
    },
    task: row.task_id
      ? {
          task_id: row.task_id,
          tool: row.tool!,
          score: row.score!,
          ip_address: row.ip_address!,
          user_agent: row.user_agent!,
          results: row.results!,
          created_at: row.created_at!,
        }
      : null,
    usedAfter: row.used_after,
  }
}

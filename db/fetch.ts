// The keyed task fetch, in one statement: find the key and its plan, find the task, and, only
// when the key is usable and the task exists, add one to this month's count unless the count
// has reached the limit. The conditional upsert is the atomic step: under READ COMMITTED,
// ON CONFLICT DO UPDATE locks the usage row and re-evaluates its WHERE against the latest
// committed count, so with L units left, any number of concurrent fetches (from any number of
// app instances) gets exactly L increments. What the outcome means is decided in
// src/core/quota.ts (decideFetch).
//
// The same statement reads the key's window of misses (fetches of ids that do not exist,
// src/core/fixed-window.ts): a key that has used up its misses is not counted either, and answers
// 429 until the window ends. Recording a miss is a second statement, on the 404 path only.

import { rawRows, type Db } from './client'
import { TASK_COLUMNS_SQL, type StoredTask } from './tasks'
import type { FetchObservation } from '../src/core/quota'
import { DEFAULT_MISS_LIMIT, type WindowPolicy } from '../src/core/fixed-window'
import { dayOfMonth, monthKey } from '../src/core/month'

interface Row extends Partial<StoredTask> {
  key_id: string
  status: 'active' | 'inactive'
  expires_ms: number | null
  monthly_limit: number
  used_before: number
  used_after: number | null
  miss_count: number | null
  miss_started_ms: number | null
}

const FETCH_TASK_WITH_KEY = `
    with k as (
      select ak.id, ak.status, ak.expires_at, p.monthly_limit,
             w.count as miss_count, w.window_started_at as miss_started_at,
             coalesce(w.count >= $1::int
                      and w.window_started_at + $2::int * interval '1 second' > $3::timestamptz, false) as miss_blocked
      from api_keys ak join plans p on p.id = ak.plan_id
      left join rate_windows w on w.scope = 'task_miss' and w.subject = ak.id::text
      where ak.key_hash = $4::text
    ),
    t as (select * from tasks where id = $5::uuid),
    inc as (
      insert into key_usage as u (key_id, month, count, daily, last_used_at)
      select k.id, $6::date, 1,
             array_fill(0, array[$7::int - 1]) || array[1] || array_fill(0, array[31 - $7::int]),
             $3::timestamptz
      from k cross join t
      where k.status = 'active'
        and (k.expires_at is null or k.expires_at > $3::timestamptz)
        and k.monthly_limit > 0
        and not k.miss_blocked
      on conflict (key_id, month) do update
        set count = u.count + 1,
            daily[$7::int] = coalesce(u.daily[$7::int], 0) + 1,
            last_used_at = excluded.last_used_at
        where u.count < (select monthly_limit from k)
      returning u.count
    )
    select k.id::text as key_id, k.status,
           (extract(epoch from k.expires_at) * 1000)::float8 as expires_ms,
           k.monthly_limit,
           coalesce((select count from key_usage where key_id = k.id and month = $6::date), 0)::int as used_before,
           (select count from inc)::int as used_after,
           k.miss_count::int as miss_count,
           (extract(epoch from k.miss_started_at) * 1000)::float8 as miss_started_ms,
           ${TASK_COLUMNS_SQL}
    from k left join t on true`

export async function fetchTaskWithKey(
  db: Db,
  args: { keyHash: string; taskId: string | null; now: Date; missPolicy?: WindowPolicy },
): Promise<FetchObservation<StoredTask>> {
  const { keyHash, taskId, now } = args
  const miss = args.missPolicy ?? DEFAULT_MISS_LIMIT
  // $1 miss max, $2 miss window seconds, $3 now, $4 key hash, $5 task id, $6 month, $7 day.
  const [row] = await rawRows<Row>(db, FETCH_TASK_WITH_KEY, [miss.max, miss.windowSeconds, now.toISOString(), keyHash, taskId, monthKey(now), dayOfMonth(now)])
  if (!row) return { key: null, task: null, usedAfter: null }
  return {
    key: {
      id: row.key_id,
      status: row.status,
      expiresAt: row.expires_ms === null ? null : new Date(row.expires_ms),
      monthlyLimit: row.monthly_limit,
      usedBefore: row.used_before,
      misses: row.miss_count === null ? null : { count: row.miss_count, windowStartedAt: new Date(row.miss_started_ms!) },
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

// The keyed task fetch, in one statement: find the key and its plan, find the task, and, only
// when the key is usable and the task exists, add one to this month's count unless the count
// has reached the limit. The count is the account's allowance on the key's plan (plan_usage:
// one per account, plan and month, issue 57), shared by every key the account has on that plan,
// so no sequence of creating, rotating, deactivating and deleting keys adds fetches; the key's
// own row (key_usage) is counted beside it for the dashboard. The conditional upsert of the
// allowance is the atomic step: under READ COMMITTED, ON CONFLICT DO UPDATE locks the row and
// re-evaluates its WHERE against the latest committed count, so with L units left, any number
// of concurrent fetches through any of the account's keys (from any number of app instances)
// gets exactly L increments. What the outcome means is decided in src/core/quota.ts (decideFetch).
//
// A key that has asked for too many ids that do not exist (src/core/fixed-window.ts) is not
// counted either, and answers 429 until its window ends: the key's row says until when
// (api_keys.misses_blocked_until, set by recordMiss when a miss fills the window), so the
// happy path reads no window. Recording a miss is a second statement, on the 404 path only.

import { rawRows, type Db } from './client'
import { fetchedTaskColumns, type FetchedTask } from './tasks'
import type { FetchObservation } from '../src/core/quota'
import { dayOfMonth, monthKey, utcDay } from '../src/core/month'
import { groupedStatements, textPerSize, type GroupOptions } from './grouped'

interface Row extends Partial<FetchedTask> {
  key_id: string
  status: 'active' | 'inactive'
  expires_ms: number | null
  monthly_limit: number
  used_before: number
  used_after: number | null
  blocked_until_ms: number | null
}

/**
 * The keyed statement around what a request reads: `target`, a select that gives one row when
 * the thing asked for exists (its parameters from $2, and $6 on), and `columns`, what the final
 * select reads of it (`t`). $1 key hash, $3 month, $4 day, $5 now. The read is counted once
 * when the key is usable and the target exists.
 */
export function keyedStatement(target: string, columns: string): string {
  return `
    with k as (
      select ak.id, ak.account_id, ak.plan_id, ak.status, ak.expires_at, ak.misses_blocked_until, p.monthly_limit
      from api_keys ak join plans p on p.id = ak.plan_id
      where ak.key_hash = $1::text
    ),
    t as (${target}),
    inc as (
      insert into plan_usage as u (account_id, plan_id, month, count)
      select k.account_id, k.plan_id, $3::date, 1
      from k cross join t
      where k.status = 'active'
        and (k.expires_at is null or k.expires_at > $5::timestamptz)
        and k.monthly_limit > 0
        and (k.misses_blocked_until is null or k.misses_blocked_until <= $5::timestamptz)
      on conflict (account_id, plan_id, month) do update
        set count = u.count + 1
        where u.count < (select monthly_limit from k)
      returning u.count
    ),
    mine as (
      insert into key_usage as u (key_id, month, count, daily, last_used_at)
      select k.id, $3::date, 1,
             array_fill(0, array[$4::int - 1]) || array[1] || array_fill(0, array[31 - $4::int]),
             $5::timestamptz
      from k where exists (select 1 from inc)
      on conflict (key_id, month) do update
        set count = u.count + 1,
            daily[$4::int] = coalesce(u.daily[$4::int], 0) + 1,
            last_used_at = excluded.last_used_at
    )
    select k.id::text as key_id, k.status,
           (extract(epoch from k.expires_at) * 1000)::float8 as expires_ms,
           k.monthly_limit,
           coalesce((select count from plan_usage where account_id = k.account_id and plan_id = k.plan_id and month = $3::date), 0)::int as used_before,
           (select count from inc)::int as used_after,
           (extract(epoch from k.misses_blocked_until) * 1000)::float8 as blocked_until_ms,
           ${columns}
    from k left join t on true`
}

export const FETCH_TASK_WITH_KEY = keyedStatement('select * from tasks where id = $2::uuid', fetchedTaskColumns('$6::boolean'))

export interface FetchArgs {
  keyHash: string
  /** Null when the path's id is not a UUID: no task can match, the key is still checked. */
  taskId: string | null
  now: Date
  /**
   * The caller keeps this task's served body (src/signing.ts): leave the results out (the
   * task's `results` is null; `results_size` still says what the body was built from).
   */
  omitResults?: boolean
}

export async function fetchTaskWithKey(db: Db, args: FetchArgs): Promise<FetchObservation<FetchedTask>> {
  const { keyHash, taskId, now } = args
  // $1 key hash, $2 task id, $3 month, $4 day, $5 now, $6 leave the results out.
  const [row] = await rawRows<Row>(db, FETCH_TASK_WITH_KEY, [keyHash, taskId, monthKey(now), dayOfMonth(now), now.toISOString(), args.omitResults === true])
  if (!row) return { key: null, task: null, usedAfter: null }
  return observation(row, row.used_after)
}

/** What the keyed statement says of the key (keyedStatement's first columns). */
export type KeyRow = Pick<Row, 'key_id' | 'status' | 'expires_ms' | 'monthly_limit' | 'used_before' | 'used_after' | 'blocked_until_ms'>

export function keyObserved(row: KeyRow): NonNullable<FetchObservation<unknown>['key']> {
  return {
    id: row.key_id,
    status: row.status,
    expiresAt: row.expires_ms === null ? null : new Date(row.expires_ms),
    monthlyLimit: row.monthly_limit,
    usedBefore: row.used_before,
    missesBlockedUntil: row.blocked_until_ms === null ? null : new Date(row.blocked_until_ms),
  }
}

function observation(row: Row, usedAfter: number | null): FetchObservation<FetchedTask> {
  return {
    key: keyObserved(row),
    task: row.task_id
      ? {
          task_id: row.task_id,
          tool: row.tool!,
          score: row.score!,
          ip_address: row.ip_address!,
          user_agent: row.user_agent!,
          results: row.results ?? null,
          results_size: row.results_size!,
          created_at: row.created_at!,
        }
      : null,
    usedAfter,
  }
}

// A key (`key`, an api_keys row) at time `t`: neither expired nor shut out by misses. A run's
// requests came from its first's time (t0) to its last's (t): where the key's expiry or the end
// of its miss block falls between them, they would not all be answered alike (not steady), and
// the run's allowance is fetched again one by one.
const unexpired = (key: string, t: string) => `(${key}.expires_at is null or ${key}.expires_at > ${t})`
const unblocked = (key: string, t: string) => `(${key}.misses_blocked_until is null or ${key}.misses_blocked_until <= ${t})`
const usableAt = (key: string, t: string) => `${unexpired(key, t)} and ${unblocked(key, t)}`
const steadyBetween = (key: string, t0: string, t: string) => `${unexpired(key, t0)} = ${unexpired(key, t)} and ${unblocked(key, t0)} = ${unblocked(key, t)}`

/**
 * The keyed fetch of `n` runs of requests in one statement (FETCH_TASK_WITH_KEY for each
 * request, with the same outcome): $1 month, $2 day (the same for the whole group), then per run
 * its key hash, task id, first and last time (`at0`, `at`), whether to leave the results out,
 * and how many requests it stands for (`m`: requests alike in key, task and form, one after
 * another — a client polling a task — are read once and counted m times). For each allowance
 * (account and plan), its requests that would be counted (usable key, existing task), through whichever of the
 * account's keys on that plan, are counted together, in one conditional upsert of the
 * allowance's row, only if all of them fit under the limit; the k-th of them gets the count
 * before plus k, and a request's count before is the allowance's count before the group plus its
 * counted requests ahead of it, as if they had come one by one (a run's row gives its first
 * request's counts; the j-th after it adds j). When they do not all fit — the
 * last units of a month — none of the allowance's requests is answered here (`fallback`): each
 * is fetched again alone, in order, which counts exactly up to the limit. Allowance rows are
 * upserted in their key order, and a key's own row only once its allowance's row is held, so
 * two groups never wait on each other's rows in a cycle.
 */
export const fetchGroup = textPerSize((n) => {
  const values: string[] = []
  for (let i = 0; i < n; i++) {
    const p = (j: number) => `$${6 * i + 3 + j}`
    values.push(`(${i + 1}, ${p(0)}::text, ${p(1)}::uuid, ${p(2)}::timestamptz, ${p(3)}::timestamptz, ${p(4)}::boolean, ${p(5)}::int)`)
  }
  return `
    with r(idx, key_hash, task_id, at0, at, omit, m) as (values ${values.join(', ')}),
    k as (
      select ak.key_hash, ak.id, ak.account_id, ak.plan_id, ak.status, ak.expires_at, ak.misses_blocked_until, p.monthly_limit
      from api_keys ak join plans p on p.id = ak.plan_id
      where ak.key_hash in (select key_hash from r)
    ),
    c as (
      select r.idx, k.id as key_id, k.account_id, k.plan_id, k.monthly_limit, r.at, r.m,
             ${usableAt('k', 'r.at')} as usable, ${steadyBetween('k', 'r.at0', 'r.at')} as steady
      from r join k on k.key_hash = r.key_hash join tasks t on t.id = r.task_id
      where k.status = 'active' and k.monthly_limit > 0
    ),
    split as (select distinct account_id, plan_id from c where not steady),
    e as (
      select c.*, sum(c.m) over (partition by c.account_id, c.plan_id order by c.idx) as rank
      from c where c.usable and c.steady
    ),
    want as (
      select account_id, plan_id, sum(m)::int as n, min(monthly_limit) as lim from e
      where not exists (select 1 from split s where s.account_id = e.account_id and s.plan_id = e.plan_id)
      group by account_id, plan_id
    ),
    inc as (
      insert into plan_usage as u (account_id, plan_id, month, count)
      select w.account_id, w.plan_id, $1::date, w.n
      from want w
      where w.n <= w.lim
      order by w.account_id, w.plan_id
      on conflict (account_id, plan_id, month) do update
        set count = u.count + excluded.count
        where u.count + excluded.count <= (select w.lim from want w where w.account_id = u.account_id and w.plan_id = u.plan_id)
      returning u.account_id, u.plan_id, u.count
    ),
    mine as (
      insert into key_usage as u (key_id, month, count, daily, last_used_at)
      select e.key_id, $1::date, sum(e.m)::int,
             array_fill(0, array[$2::int - 1]) || array[sum(e.m)::int] || array_fill(0, array[31 - $2::int]),
             max(e.at)
      from e join inc i on i.account_id = e.account_id and i.plan_id = e.plan_id
      group by e.key_id
      order by e.key_id
      on conflict (key_id, month) do update
        set count = u.count + excluded.count,
            daily[$2::int] = coalesce(u.daily[$2::int], 0) + excluded.count,
            last_used_at = excluded.last_used_at
    )
    select r.idx, k.id::text as key_id, k.status,
           (extract(epoch from k.expires_at) * 1000)::float8 as expires_ms,
           k.monthly_limit,
           (coalesce((select count from plan_usage pu where pu.account_id = k.account_id and pu.plan_id = k.plan_id and pu.month = $1::date), 0)
             + case when exists (select 1 from inc i where i.account_id = k.account_id and i.plan_id = k.plan_id)
                    then (select coalesce(sum(e.m), 0) from e where e.account_id = k.account_id and e.plan_id = k.plan_id and e.idx < r.idx) else 0 end)::int as used_before,
           (select (i.count - w.n + e.rank - e.m + 1)::int from e
              join inc i on i.account_id = e.account_id and i.plan_id = e.plan_id
              join want w on w.account_id = e.account_id and w.plan_id = e.plan_id
            where e.idx = r.idx) as used_after,
           ((exists (select 1 from e where e.account_id = k.account_id and e.plan_id = k.plan_id)
              or exists (select 1 from split s where s.account_id = k.account_id and s.plan_id = k.plan_id))
             and not exists (select 1 from inc i where i.account_id = k.account_id and i.plan_id = k.plan_id)) as fallback,
           (extract(epoch from k.misses_blocked_until) * 1000)::float8 as blocked_until_ms,
           ${fetchedTaskColumns('r.omit')}
    from r left join k on k.key_hash = r.key_hash left join tasks t on t.id = r.task_id and k.id is not null
    order by r.idx`
})

/**
 * A group that is one run (every fetch alike: one key, one task, one form — a client polling
 * its task), in a statement of the one-fetch kind (FETCH_TASK_WITH_KEY) that counts the run's
 * `m` fetches at once: a fifth of fetchGroup's nodes, and about a third less of PostgreSQL's
 * time (docs/performance.md). The same parameters as fetchGroup(1). Its outcome is fetchGroup's:
 * the run is counted whole if it fits under the limit (the first gets the count before plus one,
 * the j-th after it adds j); where the key's state changes between the run's first and last
 * times, or only part of the run fits, `fallback` says to fetch each again alone. A run at or
 * past the limit is answered here, every fetch refused, as each would be alone.
 */
export const FETCH_TASK_RUN = `
    with k as (
      select ak.id, ak.account_id, ak.plan_id, ak.status, ak.expires_at, ak.misses_blocked_until, p.monthly_limit,
             ak.status = 'active' and p.monthly_limit > 0 and ${usableAt('ak', '$6::timestamptz')} as usable,
             ${steadyBetween('ak', '$5::timestamptz', '$6::timestamptz')} as steady
      from api_keys ak join plans p on p.id = ak.plan_id
      where ak.key_hash = $3::text
    ),
    t as (select * from tasks where id = $4::uuid),
    inc as (
      insert into plan_usage as u (account_id, plan_id, month, count)
      select k.account_id, k.plan_id, $1::date, $8::int
      from k cross join t
      where k.usable and k.steady and $8::int <= k.monthly_limit
      on conflict (account_id, plan_id, month) do update
        set count = u.count + excluded.count
        where u.count + excluded.count <= (select monthly_limit from k)
      returning u.count
    ),
    mine as (
      insert into key_usage as u (key_id, month, count, daily, last_used_at)
      select k.id, $1::date, $8::int,
             array_fill(0, array[$2::int - 1]) || array[$8::int] || array_fill(0, array[31 - $2::int]),
             $6::timestamptz
      from k where exists (select 1 from inc)
      on conflict (key_id, month) do update
        set count = u.count + excluded.count,
            daily[$2::int] = coalesce(u.daily[$2::int], 0) + excluded.count,
            last_used_at = excluded.last_used_at
    ),
    b as (select coalesce((select count from plan_usage pu, k where pu.account_id = k.account_id and pu.plan_id = k.plan_id and pu.month = $1::date), 0)::int as used_before)
    select 1 as idx, k.id::text as key_id, k.status,
           (extract(epoch from k.expires_at) * 1000)::float8 as expires_ms,
           k.monthly_limit, b.used_before,
           (select count from inc)::int - $8::int + 1 as used_after,
           (t.id is not null and k.status = 'active' and k.monthly_limit > 0 and not exists (select 1 from inc)
             and (not k.steady or (k.usable and b.used_before < k.monthly_limit))) as fallback,
           (extract(epoch from k.misses_blocked_until) * 1000)::float8 as blocked_until_ms,
           ${fetchedTaskColumns('$7::boolean')}
    from b left join k on true left join t on k.id is not null`

type GroupRow = Row & { idx: number; key_id: string | null; fallback: boolean }

/**
 * Keyed fetches, grouped when they come faster than the database answers (db/grouped.ts): each
 * group is one statement (fetchGroup) for requests of the same UTC day, with the same outcome
 * as fetchTaskWithKey for each — a request alone runs fetchTaskWithKey itself. When a group's
 * statement fails for a reason other than an unreachable database (two groups of different
 * instances deadlocking, say), each of its requests is fetched again alone (groupedStatements).
 */
export function taskFetcher(db: Db, options: GroupOptions<FetchArgs> = {}): (args: FetchArgs) => Promise<FetchObservation<FetchedTask>> {
  return groupedStatements<FetchArgs, FetchObservation<FetchedTask>>(
    (args) => fetchTaskWithKey(db, args),
    async (group) => {
      const now = group[0]!.item.now
      const runs = runsOf(group.map((p) => p.item))
      const params: unknown[] = [monthKey(now), dayOfMonth(now)]
      for (const { first, m } of runs) {
        const item = group[first]!.item
        params.push(item.keyHash, item.taskId, item.now.toISOString(), group[first + m - 1]!.item.now.toISOString(), item.omitResults === true, m)
      }
      const rows = await rawRows<GroupRow>(db, runs.length === 1 ? FETCH_TASK_RUN : fetchGroup(runs.length), params)
      const again: typeof group = []
      for (const row of rows) {
        const { first, m } = runs[row.idx - 1]!
        for (let j = 0; j < m; j++) {
          const p = group[first + j]!
          if (row.key_id === null) p.resolve({ key: null, task: null, usedAfter: null })
          else if (row.fallback) again.push(p)
          else if (j === 0 || row.used_after === null) p.resolve(observation(row, row.used_after))
          else p.resolve(observation({ ...row, used_before: row.used_before + j }, row.used_after + j))
        }
      }
      return again
    },
    // A second statement beside a running one waits for 16 fetches (db/grouped.ts: minGroup):
    // the grouped fetch costs PostgreSQL more per statement than the insert does (a VALUES
    // list joined to api_keys, plans, plan_usage and tasks, and the usage upserts), and 16 cut
    // its CPU per fetch by a fifth against 8 under the benchmark's load (docs/performance.md).
    { joins: (first, item) => utcDay(first.now) === utcDay(item.now), minGroup: 16, ...options },
  )
}

/** Whether two fetches ask the very same thing: one key, one task, one form (their times may differ). */
const alike = (a: FetchArgs, b: FetchArgs) => a.keyHash === b.keyHash && a.taskId === b.taskId && (a.omitResults === true) === (b.omitResults === true)

/** A group's fetches as runs of alike fetches one after another: where each starts, and how many. */
export function runsOf(items: readonly FetchArgs[]): Array<{ first: number; m: number }> {
  const runs: Array<{ first: number; m: number }> = []
  for (let i = 0; i < items.length; i++) {
    const last = runs[runs.length - 1]
    if (last && alike(items[last.first]!, items[i]!)) last.m++
    else runs.push({ first: i, m: 1 })
  }
  return runs
}

// The one table of fixed-window counters (src/core/fixed-window.ts has the rule): log-in attempts
// per address and per account, sign-ups per address, task submissions per address, missed
// fetches per key. One upsert per hit adds one or opens a new window atomically: ON CONFLICT DO
// UPDATE locks the row and re-reads it, so concurrent hits from any number of app instances are
// each counted once, and each gets its own count back.
// A key's miss window, when filled, marks the key refused until it ends (recordMiss; the keyed
// fetch reads that mark, db/fetch.ts); ended windows are dropped by the retention run
// (db/retention.ts pruneWindows).

import { sql } from 'drizzle-orm'
import { rows, type Db } from './client'
import type { RATE_SCOPES } from './schema'
import type { WindowPolicy, WindowState } from '../src/core/fixed-window'

export type RateScope = (typeof RATE_SCOPES)[number]

export interface RateSubject {
  scope: RateScope
  /** Hashed by the caller, or a key id: the table never holds an email or an address. */
  subject: string
}

interface Row {
  scope: RateScope
  subject: string
  count: number
  started_ms: number
}

const toState = (r: Pick<Row, 'count' | 'started_ms'>): WindowState => ({ count: r.count, windowStartedAt: new Date(r.started_ms) })

/** The upsert that counts one hit (a new window when there is none or it has ended), returning the window after it. */
function hitUpsert(args: RateSubject & { policy: Pick<WindowPolicy, 'windowSeconds'>; now: Date }) {
  const now = args.now.toISOString()
  const ended = sql`rate_windows.window_started_at + ${args.policy.windowSeconds}::int * interval '1 second' <= ${now}::timestamptz`
  return sql`insert into rate_windows (scope, subject, count, window_started_at)
        values (${args.scope}, ${args.subject}, 1, ${now}::timestamptz)
        on conflict (scope, subject) do update set
          count = case when ${ended} then 1 else rate_windows.count + 1 end,
          window_started_at = case when ${ended} then excluded.window_started_at else rate_windows.window_started_at end
        returning count::int as count, window_started_at, (extract(epoch from window_started_at) * 1000)::float8 as started_ms`
}

/** Counts one hit for the subject; returns the window after it. Mirrors afterHit(). */
export async function hitWindow(db: Db, args: RateSubject & { policy: Pick<WindowPolicy, 'windowSeconds'>; now: Date }): Promise<WindowState> {
  const [row] = await rows<Row>(db, hitUpsert(args))
  return toState(row!)
}

/**
 * Counts a keyed fetch of an id that does not exist against the key's miss window and, when
 * that fills it (`max` misses), marks the key refused until the window ends
 * (api_keys.misses_blocked_until, read by the keyed fetch). One statement; returns the window.
 */
export async function recordMiss(db: Db, args: { keyId: string; policy: WindowPolicy; now: Date }): Promise<WindowState> {
  const { keyId, policy } = args
  const [row] = await rows<Row>(
    db,
    sql`with w as (${hitUpsert({ scope: 'task_miss', subject: keyId, policy, now: args.now })}),
        blocked as (
          update api_keys set misses_blocked_until = (select window_started_at from w) + ${policy.windowSeconds}::int * interval '1 second'
          where id = ${keyId}::uuid and (select count from w) >= ${policy.max}::int
          returning 1
        )
        select count, started_ms from w`,
  )
  return toState(row!)
}

/** A subject and the window it is counted in. */
export type CountedSubject = RateSubject & { policy: WindowPolicy }

/**
 * Counts one hit on `first` and, only when that leaves `first` within its `max`, one on
 * `second`; returns both windows after (`second` null when it was not counted). One statement:
 * each upsert locks its row and re-reads it, so concurrent callers each get their own count,
 * and rows are always locked first then second, so callers cannot deadlock. Used by log-in
 * (address, then account): an address over its limit cannot run up an account's count.
 */
export async function hitGatedWindows(db: Db, args: { first: CountedSubject; second: CountedSubject; now: Date }): Promise<{ first: WindowState; second: WindowState | null }> {
  const { first, second } = args
  if (first.scope === second.scope && first.subject === second.subject) throw new Error('hitGatedWindows: first and second are the same subject')
  const now = args.now.toISOString()
  const upsert = (policy: WindowPolicy) => {
    const ended = sql`w.window_started_at + ${policy.windowSeconds}::int * interval '1 second' <= ${now}::timestamptz`
    return sql`on conflict (scope, subject) do update set
          count = case when ${ended} then 1 else w.count + 1 end,
          window_started_at = case when ${ended} then excluded.window_started_at else w.window_started_at end
        returning count, window_started_at`
  }
  const [row] = await rows<{ first_count: number; first_ms: number; second_count: number | null; second_ms: number | null }>(
    db,
    sql`with a as (
          insert into rate_windows as w (scope, subject, count, window_started_at)
          values (${first.scope}, ${first.subject}, 1, ${now}::timestamptz)
          ${upsert(first.policy)}
        ), b as (
          insert into rate_windows as w (scope, subject, count, window_started_at)
          select ${second.scope}, ${second.subject}, 1, ${now}::timestamptz from a where a.count <= ${first.policy.max}::int
          ${upsert(second.policy)}
        )
        select a.count::int as first_count, (extract(epoch from a.window_started_at) * 1000)::float8 as first_ms,
               b.count::int as second_count, (extract(epoch from b.window_started_at) * 1000)::float8 as second_ms
        from a left join b on true`,
  )
  return {
    first: toState({ count: row!.first_count, started_ms: row!.first_ms }),
    second: row!.second_count === null || row!.second_ms === null ? null : toState({ count: row!.second_count, started_ms: row!.second_ms }),
  }
}

/**
 * Takes back one hit counted in the window that started at `windowStartedAt` (a log-in that
 * turned out to succeed); nothing when that window has since been replaced or is at zero.
 */
export async function forgiveHit(db: Db, subject: RateSubject, windowStartedAt: Date): Promise<void> {
  await db.execute(
    sql`update rate_windows set count = count - 1
        where scope = ${subject.scope} and subject = ${subject.subject} and window_started_at = ${windowStartedAt.toISOString()}::timestamptz and count > 0`,
  )
}

export async function getWindow(db: Db, subject: RateSubject): Promise<WindowState | null> {
  return (await readWindows(db, [subject])).get(windowKey(subject)) ?? null
}

/** The key of a subject in readWindows' map: `<scope>:<subject>`. */
export const windowKey = (s: RateSubject) => `${s.scope}:${s.subject}`

/** The windows of several subjects in one statement, by windowKey(); absent ones are left out. */
export async function readWindows(db: Db, subjects: readonly RateSubject[]): Promise<Map<string, WindowState>> {
  const out = new Map<string, WindowState>()
  if (subjects.length === 0) return out
  const wanted = sql.join(
    subjects.map((s) => sql`(${s.scope}::text, ${s.subject}::text)`),
    sql`, `,
  )
  const found = await rows<Row>(
    db,
    sql`select scope, subject, count::int as count, (extract(epoch from window_started_at) * 1000)::float8 as started_ms
        from rate_windows where (scope, subject) in (${wanted})`,
  )
  for (const r of found) out.set(windowKey(r), toState(r))
  return out
}

export async function clearWindow(db: Db, subject: RateSubject): Promise<void> {
  await db.execute(sql`delete from rate_windows where scope = ${subject.scope} and subject = ${subject.subject}`)
}

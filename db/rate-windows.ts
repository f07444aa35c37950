// Fixed-window counters for the abuse limits (src/core/abuse.ts has the rule). One upsert per
// hit adds one or opens a new window atomically: ON CONFLICT DO UPDATE locks the row and
// re-reads it, so concurrent hits from any number of app instances are each counted once.
// The miss window of a key is also read inside the keyed fetch (db/fetch.ts).

import { sql } from 'drizzle-orm'
import { rows, type Db } from './client'
import type { WindowPolicy, WindowState } from '../src/core/abuse'

export type RateScope = 'task_create' | 'task_miss'

interface Row {
  count: number
  started_ms: number
}

/** Counts one hit for the subject; returns the window after it. Mirrors afterHit(). */
export async function hitWindow(
  db: Db,
  args: { scope: RateScope; subject: string; policy: Pick<WindowPolicy, 'windowSeconds'>; now: Date },
): Promise<WindowState> {
  const now = args.now.toISOString()
  const ended = sql`rate_windows.window_started_at + ${args.policy.windowSeconds}::int * interval '1 second' <= ${now}::timestamptz`
  const [row] = await rows<Row>(
    db,
    sql`insert into rate_windows (scope, subject, count, window_started_at)
        values (${args.scope}, ${args.subject}, 1, ${now}::timestamptz)
        on conflict (scope, subject) do update set
          count = case when ${ended} then 1 else rate_windows.count + 1 end,
          window_started_at = case when ${ended} then excluded.window_started_at else rate_windows.window_started_at end
        returning count::int as count, (extract(epoch from window_started_at) * 1000)::float8 as started_ms`,
  )
  return { count: row!.count, windowStartedAt: new Date(row!.started_ms) }
}

export async function getWindow(db: Db, args: { scope: RateScope; subject: string }): Promise<WindowState | null> {
  const [row] = await rows<Row>(
    db,
    sql`select count::int as count, (extract(epoch from window_started_at) * 1000)::float8 as started_ms
        from rate_windows where scope = ${args.scope} and subject = ${args.subject}`,
  )
  return row ? { count: row.count, windowStartedAt: new Date(row.started_ms) } : null
}

/** Drops windows that started before `before`; they can no longer refuse anything. Returns how many. */
export async function pruneWindows(db: Db, before: Date): Promise<number> {
  const deleted = await rows<{ n: number }>(
    db,
    sql`with d as (delete from rate_windows where window_started_at < ${before.toISOString()}::timestamptz returning 1)
        select count(*)::int as n from d`,
  )
  return deleted[0]!.n
}

// The one table of fixed-window counters (src/core/fixed-window.ts has the rule): failed log-ins
// per account and per address, task submissions per address, missed fetches per key. One upsert
// per hit adds one or opens a new window atomically: ON CONFLICT DO UPDATE locks the row and
// re-reads it, so concurrent hits from any number of app instances are each counted once.
// The miss window of a key is also read inside the keyed fetch (db/fetch.ts); ended windows are
// dropped by the retention run (db/retention.ts pruneWindows).

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

/** Counts one hit for the subject; returns the window after it. Mirrors afterHit(). */
export async function hitWindow(db: Db, args: RateSubject & { policy: Pick<WindowPolicy, 'windowSeconds'>; now: Date }): Promise<WindowState> {
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
  return toState(row!)
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

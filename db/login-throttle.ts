// Failed log-in counts per account and per address (src/core/throttle.ts has the rule). The
// counts are rows in PostgreSQL so that every app instance shares them; one upsert per subject
// adds a failure or opens a new window atomically, however many instances race.

import { sql } from 'drizzle-orm'
import { rows, type Db } from './client'
import type { ThrottlePolicy, ThrottleScope, ThrottleState } from '../src/core/throttle'

export interface ThrottleSubject {
  scope: ThrottleScope
  /** Already hashed by the caller: the table never holds an email or an address. */
  subject: string
}

interface Row {
  scope: ThrottleScope
  subject: string
  failures: number
  started_ms: number
}

const toState = (r: Row): ThrottleState => ({ failures: r.failures, windowStartedAt: new Date(r.started_ms) })

export async function readThrottles(db: Db, subjects: readonly ThrottleSubject[]): Promise<Map<string, ThrottleState>> {
  const out = new Map<string, ThrottleState>()
  if (subjects.length === 0) return out
  const wanted = sql.join(
    subjects.map((s) => sql`(${s.scope}::text, ${s.subject}::text)`),
    sql`, `,
  )
  const found = await rows<Row>(
    db,
    sql`select scope, subject, failures::int as failures,
               (extract(epoch from window_started_at) * 1000)::float8 as started_ms
        from login_throttles where (scope, subject) in (${wanted})`,
  )
  for (const r of found) out.set(`${r.scope}:${r.subject}`, toState(r))
  return out
}

/** Adds one failure for the subject; returns the state after it. Mirrors afterFailure(). */
export async function recordFailure(db: Db, args: ThrottleSubject & { policy: ThrottlePolicy; now: Date }): Promise<ThrottleState> {
  const now = args.now.toISOString()
  const windowEnded = sql`login_throttles.window_started_at + ${args.policy.windowSeconds}::int * interval '1 second' <= ${now}::timestamptz`
  const [row] = await rows<Row>(
    db,
    sql`insert into login_throttles (scope, subject, failures, window_started_at)
        values (${args.scope}, ${args.subject}, 1, ${now}::timestamptz)
        on conflict (scope, subject) do update set
          failures = case when ${windowEnded} then 1 else login_throttles.failures + 1 end,
          window_started_at = case when ${windowEnded} then excluded.window_started_at else login_throttles.window_started_at end
        returning scope, subject, failures::int as failures,
                  (extract(epoch from window_started_at) * 1000)::float8 as started_ms`,
  )
  return toState(row!)
}

export async function clearThrottle(db: Db, subject: ThrottleSubject): Promise<void> {
  await db.execute(sql`delete from login_throttles where scope = ${subject.scope} and subject = ${subject.subject}`)
}

/** Drops windows that started before `before`; they can no longer refuse anything. */
export async function pruneThrottles(db: Db, before: Date): Promise<void> {
  await db.execute(sql`delete from login_throttles where window_started_at < ${before.toISOString()}::timestamptz`)
}

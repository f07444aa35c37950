// Deleting what is no longer needed. Ended fixed windows (every limit's, one table) go in one
// statement. TASK_RETENTION_DAYS: tasks older than the retention are deleted in small batches, so no
// statement holds many row locks or runs long next to the API's traffic. Several instances may
// purge at once: each batch skips rows another instance has locked (SKIP LOCKED), and deleting
// what is already gone is a no-op, so they share the work instead of waiting on each other.

import { sql } from 'drizzle-orm'
import { rows, type Db } from './client'

export const PURGE_BATCH = 1000

/** Deletes one batch of tasks created before `before`; returns how many were deleted. */
export async function purgeTaskBatch(db: Db, before: Date, batchSize = PURGE_BATCH): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`with victims as (
          select id from tasks where created_at < ${before.toISOString()}::timestamptz
          order by created_at limit ${batchSize}::int
          for update skip locked
        ),
        d as (delete from tasks t using victims v where t.id = v.id returning 1)
        select count(*)::int as n from d`,
  )
  return row!.n
}

/**
 * Deletes every task created before `before`, batch by batch; returns the total. Stops when a
 * batch comes back short (nothing left, or the rest is locked by another instance's batch).
 * `pause` runs between batches (the scheduler yields to other work there).
 */
export async function purgeTasksBefore(
  db: Db,
  before: Date,
  opts: { batchSize?: number; pause?: () => Promise<void> } = {},
): Promise<number> {
  const size = opts.batchSize ?? PURGE_BATCH
  let total = 0
  for (;;) {
    const n = await purgeTaskBatch(db, before, size)
    total += n
    if (n < size) return total
    await opts.pause?.()
  }
}

/**
 * Drops the fixed windows (rate_windows: log-in, task creation and miss limits alike) that
 * started before `before`; pass now minus the longest window of any policy, and they can no
 * longer refuse anything. Returns how many.
 */
export async function pruneWindows(db: Db, before: Date): Promise<number> {
  const deleted = await rows<{ n: number }>(
    db,
    sql`with d as (delete from rate_windows where window_started_at < ${before.toISOString()}::timestamptz returning 1)
        select count(*)::int as n from d`,
  )
  return deleted[0]!.n
}

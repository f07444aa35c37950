// Housekeeping that runs inside the service on a timer (src/main.ts starts it): the retention
// purge (TASK_RETENTION_DAYS), dropping fixed windows (log-in, task and miss limits) that have ended, and deleting page
// nonces with their evidence: never-used ones once they expired, used ones a day after; and the
// browsers the uniqueness figures count once they were not seen for their window. Every
// instance runs it; the deletes are batched, skip rows another instance is deleting, and are
// idempotent, so several instances never block one another or delete anything twice.

import type { Db } from '../db/client'
import { pruneWindows, purgeTasksBefore } from '../db/retention'
import { purgeExpiredNonces } from '../db/nonces'
import { purgeUniqueness } from '../db/uniqueness'
import { purgeAgentDirectories } from '../db/agent-directories'
import { DEFAULT_WINDOW_DAYS } from './core/uniqueness'

const DAY_MS = 24 * 60 * 60 * 1000

export interface MaintenanceOptions {
  db: Db
  clock: () => Date
  /** Tasks created more than this many days ago are deleted; undefined keeps them forever. */
  retentionDays: number | undefined
  /** Browsers not seen for this many days leave the uniqueness figures (DEFAULT_WINDOW_DAYS when omitted). */
  uniquenessWindowDays?: number | undefined
  /** Windows that started longer ago than this have ended for every policy. */
  longestWindowSeconds: number
  /** Time between runs; the first run starts after `firstDelayMs`. */
  intervalMs?: number
  firstDelayMs?: number
  /** Rows per delete statement. */
  batchSize?: number
  log?: (line: string) => void
}

export interface MaintenanceRun {
  tasksPurged: number
  windowsPruned: number
  noncesPurged: number
  browsersPurged: number
  /** Signed agents' key directory readings that expired a day ago or more (issue 60). */
  directoriesPurged: number
}

/** One pass; throws when the database does. */
export async function runMaintenance(o: Omit<MaintenanceOptions, 'intervalMs' | 'firstDelayMs'>): Promise<MaintenanceRun> {
  const now = o.clock().getTime()
  let tasksPurged = 0
  if (o.retentionDays !== undefined) {
    tasksPurged = await purgeTasksBefore(o.db, new Date(now - o.retentionDays * DAY_MS), {
      batchSize: o.batchSize,
      // Let requests queued behind a batch run before the next one.
      pause: () => new Promise((r) => setTimeout(r, 20)),
    })
  }
  const windowsPruned = await pruneWindows(o.db, new Date(now - o.longestWindowSeconds * 1000))
  // Every tool page render stores a nonce; without this they would pile up for ever.
  const noncesPurged = await purgeExpiredNonces(o.db, new Date(now))
  const browsersPurged = await purgeUniqueness(o.db, new Date(now - (o.uniquenessWindowDays ?? DEFAULT_WINDOW_DAYS) * DAY_MS), {
    batchSize: o.batchSize,
    pause: () => new Promise((r) => setTimeout(r, 20)),
  })
  // At most AGENT_DIRECTORY_FETCHES_PER_MINUTE rows a minute per instance come in: one statement suffices.
  const directoriesPurged = await purgeAgentDirectories(o.db, new Date(now - DAY_MS))
  return { tasksPurged, windowsPruned, noncesPurged, browsersPurged, directoriesPurged }
}

/** Runs maintenance every `intervalMs` (default hourly) until stopped; a failed run is logged and retried at the next tick. */
export function startMaintenance(o: MaintenanceOptions): { stop(): Promise<void> } {
  const log = o.log ?? ((line: string) => console.log(line))
  let running: Promise<void> | null = null
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const tick = () => {
    if (stopped) return
    running = runMaintenance(o)
      .then((r) => {
        if (r.tasksPurged) log(`retention: deleted ${r.tasksPurged} task(s) older than ${o.retentionDays} day(s)`)
      })
      .catch((e) => log(`maintenance failed (will retry): ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        running = null
        if (!stopped) schedule(o.intervalMs ?? 60 * 60 * 1000)
      })
  }
  const schedule = (ms: number) => {
    timer = setTimeout(tick, ms)
    // Never keeps the process alive on its own.
    ;(timer as { unref?: () => void }).unref?.()
  }
  schedule(o.firstDelayMs ?? 30_000)
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

// Runs (issue 47): the tasks one visit to /run stored, one per tool, tied by tasks.run_id. A run
// has no row of its own: it exists once one of its tasks is stored, and it goes with its last
// task (retention). The keyed reads count as the task fetch does (db/fetch.ts keyedStatement):
// one statement finds the key, checks that what is asked for exists, and counts the read once.

import { sql } from 'drizzle-orm'
import { rawRows, rows, type Db } from './client'
import { keyedStatement, keyObserved, type KeyRow } from './fetch'
import { TASK_COLUMNS, type StoredTask } from './tasks'
import type { FetchObservation } from '../src/core/quota'
import { dayOfMonth, monthKey } from '../src/core/month'

/** A run's read: one index probe (tasks_run_id_idx) says whether it exists. */
export const FETCH_RUN_WITH_KEY = keyedStatement('select id from tasks where run_id = $2::uuid limit 1', 't.id is not null as found')

/**
 * A comparison's read: both sides exist, each a run or a task ($2 and $6). Counted once, as
 * one request.
 */
export const FETCH_PAIR_WITH_KEY = keyedStatement(
  `select 1 as one
   where exists (select 1 from tasks where id = $2::uuid or run_id = $2::uuid)
     and exists (select 1 from tasks where id = $6::uuid or run_id = $6::uuid)`,
  't.one is not null as found',
)

type Row = KeyRow & { found: boolean | null }

/**
 * The keyed, counted check that `ids` exist (one: a run; two: the two sides of a comparison).
 * `task` is true when they do. An id that is not a UUID (null) matches nothing.
 */
export async function fetchWithKey(db: Db, args: { keyHash: string; ids: [string | null] | [string | null, string | null]; now: Date }): Promise<FetchObservation<true>> {
  const { keyHash, ids, now } = args
  const params: unknown[] = [keyHash, ids[0], monthKey(now), dayOfMonth(now), now.toISOString()]
  if (ids.length === 2) params.push(ids[1])
  const [row] = await rawRows<Row>(db, ids.length === 2 ? FETCH_PAIR_WITH_KEY : FETCH_RUN_WITH_KEY, params)
  if (!row) return { key: null, task: null, usedAfter: null }
  return { key: keyObserved(row), task: row.found ? true : null, usedAfter: row.used_after }
}

/** The tasks of a run, oldest first (at most one per tool: each was stored under its tool's nonce). */
export async function runTasks(db: Db, runId: string): Promise<StoredTask[]> {
  return rows<StoredTask>(db, sql`select ${TASK_COLUMNS} from tasks t where t.run_id = ${runId}::uuid order by t.created_at, t.id`)
}

/**
 * The tasks an id stands for: the run's when it is a run id, else the task with that id. Empty
 * when neither exists.
 */
export async function tasksOf(db: Db, id: string): Promise<{ kind: 'run' | 'task'; tasks: StoredTask[] }> {
  const run = await runTasks(db, id)
  if (run.length) return { kind: 'run', tasks: run }
  const one = await rows<StoredTask>(db, sql`select ${TASK_COLUMNS} from tasks t where t.id = ${id}::uuid`)
  return { kind: 'task', tasks: one }
}

// Task storage. Tasks are written once and read by id; the read used by the API lives in
// db/fetch.ts because it is one statement with the key check and usage count.

import { sql } from 'drizzle-orm'
import { rawRows, rows, type Db } from './client'
import { compactResults, hydrateResults } from '../src/core/check-text'
import { groupedStatements, textPerSize, type GroupOptions } from './grouped'
import { SIGHTING_ADDED, sightingCtes, sightingParams, type Sighting } from './uniqueness'

export interface NewTask {
  id: string
  tool: string
  score: number
  ipAddress: string
  userAgent: string
  /** Stored as jsonb, each check's shared text left out (storedResultsJson). */
  results: unknown
  createdAt: Date
  /** The tool's identity hash of the browser (browser-fingerprint's visitor id); null or omitted otherwise. */
  fingerprint?: string | null
  /** The page run's digest (src/core/run-digest.ts); stored by insertTaskUsingNonce, null otherwise. */
  runDigest?: string | null
}

/**
 * A task as read from the table: `results` is the stored jsonb as JSON text, not re-parsed,
 * checks still compact (taskJson puts their shared text back).
 */
export interface StoredTask {
  task_id: string
  tool: string
  score: number
  ip_address: string
  user_agent: string
  results: string
  created_at: string
}

/**
 * The results as the `tasks.results` jsonb parameter: checks without the name, why and source
 * their definition gives back when the task is served (src/core/check-text.ts).
 */
export function storedResultsJson(tool: string, results: unknown): string {
  return JSON.stringify(compactResults(tool, results))
}

export const INSERT_TASK = `
  insert into tasks (id, tool, score, ip_address, user_agent, results, created_at, fingerprint)
  values ($1::uuid, $2::text, $3::int, $4::text, $5::text, $6::jsonb, $7::timestamptz, $8::text)`

/** A task as the insert's parameters, in INSERT_TASK's order. */
type TaskRow = [id: string, tool: string, score: number, ipAddress: string, userAgent: string, results: string, createdAt: string, fingerprint: string | null]

export function taskRow(task: NewTask): TaskRow {
  return [task.id, task.tool, task.score, task.ipAddress, task.userAgent, storedResultsJson(task.tool, task.results), task.createdAt.toISOString(), task.fingerprint ?? null]
}

export async function insertTask(db: Db, task: NewTask): Promise<void> {
  await rawRows(db, INSERT_TASK, taskRow(task))
}

export const INSERT_TASK_WITH_SIGHTING = `
  with t as (${INSERT_TASK.trim()} returning id),
  ${sightingCtes(8).trim()}
  select (select count(*) from t)::int as stored, ${SIGHTING_ADDED}`

/**
 * Stores a task and records its uniqueness sighting (db/uniqueness.ts) in one statement: the
 * browser is counted only if the task is stored.
 */
export async function insertTaskWithSighting(db: Db, task: NewTask, sighting: Sighting): Promise<void> {
  await rawRows(db, INSERT_TASK_WITH_SIGHTING, [...taskRow(task), ...sightingParams(sighting)])
}

/** The insert of `n` tasks in one statement: `n` rows of INSERT_TASK's parameters. */
export const insertTasks = textPerSize((n) => {
  const rows: string[] = []
  for (let i = 0; i < n; i++) {
    const p = i * 8
    rows.push(`($${p + 1}::uuid, $${p + 2}::text, $${p + 3}::int, $${p + 4}::text, $${p + 5}::text, $${p + 6}::jsonb, $${p + 7}::timestamptz, $${p + 8}::text)`)
  }
  return `insert into tasks (id, tool, score, ip_address, user_agent, results, created_at, fingerprint) values ${rows.join(', ')}`
})

export interface TaskWriter {
  /** Resolves once the task is stored; rejects with the database's error when it is not. */
  insert(task: NewTask): Promise<void>
}

/**
 * Task inserts, grouped when they come faster than the database takes them (db/grouped.ts): a
 * task submitted while the insert statements run waits for the next one, which stores every
 * task that waited in one multi-row insert — at most 64 tasks and 1 M characters of results
 * (a larger task goes alone). `options`: the grouping's limits, for tests.
 *
 * One statement is one transaction: a group is stored whole or not at all. When a group fails
 * for a reason of its own data (not the connection), every task in it is tried again alone, so
 * one bad task fails alone and the others are stored once each; when the database is
 * unreachable, every task of the group gets that error (nothing of it was stored).
 */
export function taskWriter(db: Db, options: GroupOptions<TaskRow> = {}): TaskWriter {
  const insert = groupedStatements<TaskRow, void>(
    async (row) => {
      await rawRows(db, INSERT_TASK, row)
    },
    async (group) => {
      const params: unknown[] = []
      for (const p of group) params.push(...p.item)
      await rawRows(db, insertTasks(group.length), params)
      for (const p of group) p.resolve()
      return []
    },
    { size: (row) => row[5].length, maxSize: 1 << 20, ...options },
  )
  return { insert: (task) => insert(taskRow(task)) }
}

/** How often a fingerprint was stored before: all tasks sharing it, and their other addresses. */
export interface FingerprintCount {
  /** Tasks of the tool with this fingerprint in the window, the submitter's own included (at most `cap`). */
  tasks: number
  /** Distinct `ip_address` values among them, the submitter's address left out. */
  addresses: number
}

/**
 * Counts the stored tasks of `tool` with `fingerprint` created in the `windowDays` up to `now`
 * (at most `cap`: a fingerprint stored a million times costs `cap` index entries), and the
 * distinct addresses other than `excludeIp` they came from — counted address by address, not
 * among the newest tasks (issue 57): a recursive skip over the index on (tool, fingerprint,
 * ip_address, created_at) steps from each address to the next in one descent, checking that
 * the address has a task in the window, at most `cap` addresses. One address storing the
 * visitor id a thousand times moves the count by one and costs one step, so it can neither
 * push the others out of the count nor make it dear.
 * `asOfNonce`: count as the submission that used this page nonce saw it — the task stored under
 * the nonce left out, and nothing newer than its use — so a report re-judged after its task was
 * stored shows the task's own verdict.
 */
export async function countFingerprintSeen(
  db: Db,
  args: { tool: string; fingerprint: string; excludeIp: string; now: Date; windowDays: number; cap: number; asOfNonce?: string | undefined },
): Promise<FingerprintCount> {
  const now = args.now.toISOString()
  const since = new Date(args.now.getTime() - args.windowDays * 86_400_000).toISOString()
  const nonce = args.asOfNonce ?? null
  // Constants to the planner (uncorrelated sub-selects run once), so that each step is one
  // ordered descent of the index: the nonce's use (or now) and the nonce's task, left out.
  const inWindow = sql`t.tool = ${args.tool}::text and t.fingerprint = ${args.fingerprint}::text and t.fingerprint is not null
    and t.created_at > ${since}::timestamptz
    and t.created_at <= coalesce((select n.used_at from page_nonces n where n.nonce = ${nonce}::text), ${now}::timestamptz)
    and t.id is distinct from (select n.task_id from page_nonces n where n.nonce = ${nonce}::text)`
  const [row] = await rows<FingerprintCount>(
    db,
    sql`with recursive seen(ip, n) as (
          (select t.ip_address, 1 from tasks t where ${inWindow} order by t.ip_address limit 1)
          union all
          select (select t.ip_address from tasks t where ${inWindow} and t.ip_address > seen.ip order by t.ip_address limit 1), seen.n + 1
          from seen where seen.ip is not null and seen.n < ${args.cap}::int
        )
        select (select count(*) from (select 1 from tasks t where ${inWindow} limit ${args.cap}::int) s)::int as tasks,
               (select count(*) from seen where seen.ip is not null and seen.ip <> ${args.excludeIp}::text)::int as addresses`,
  )
  return row!
}

/** The stored columns in the API's field names; created_at already in the spec's form. */
const taskColumns = (results: string) => `
  t.id::text as task_id, t.tool, t.score, t.ip_address, t.user_agent, ${results},
  to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') as created_at`
export const TASK_COLUMNS_SQL = taskColumns('t.results::text as results')
export const TASK_COLUMNS = sql.raw(TASK_COLUMNS_SQL)

/**
 * A task as the keyed fetch reads it: `results` null when the caller said it keeps this task's
 * served body (src/signing.ts), so the row's jsonb is neither decompressed nor sent again, and
 * `results_size`, the results' stored size (pg_column_size: read from the row, never
 * decompressed), which the kept body is checked against with the other fields.
 */
export interface FetchedTask extends Omit<StoredTask, 'results'> {
  results: string | null
  results_size: number
}

/** TASK_COLUMNS for the keyed fetch: the results left out where `omit` (an SQL boolean) holds. */
export function fetchedTaskColumns(omit: string): string {
  return taskColumns(`case when ${omit} then null else t.results::text end as results, pg_column_size(t.results)::int as results_size`)
}

export async function getTask(db: Db, id: string): Promise<StoredTask | null> {
  const [row] = await rows<StoredTask>(db, sql`select ${TASK_COLUMNS} from tasks t where t.id = ${id}::uuid`)
  return row ?? null
}

/** A task without its results, as the operator API lists them. */
export interface TaskListing {
  task_id: string
  tool: string
  score: number
  created_at: string
}

/** The newest tasks first (of one tool when given), at most `limit`. */
export async function listRecentTasks(db: Db, args: { tool?: string | undefined; limit: number }): Promise<TaskListing[]> {
  const where = args.tool === undefined ? sql`` : sql`where t.tool = ${args.tool}`
  return rows<TaskListing>(
    db,
    sql`select t.id::text as task_id, t.tool, t.score,
          to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') as created_at
        from tasks t ${where} order by t.created_at desc, t.id desc limit ${args.limit}::int`,
  )
}

export async function countTasks(db: Db): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from tasks`)
  return row!.n
}

/**
 * The task as JSON text, with `results` spliced in as stored (no parse and re-serialise), its
 * checks' shared text put back from their definitions: byte for byte the full form.
 */
export function taskJson(t: StoredTask): string {
  return (
    `{"task_id":${JSON.stringify(t.task_id)},"tool":${JSON.stringify(t.tool)},"score":${t.score},` +
    `"ip_address":${JSON.stringify(t.ip_address)},"user_agent":${JSON.stringify(t.user_agent)},` +
    `"results":${hydrateResults(t.tool, t.results)},"created_at":${JSON.stringify(t.created_at)}}`
  )
}

/**
 * Whether a stored task already has this run's digest (src/core/run-digest.ts): one index probe
 * (tasks_run_digest_idx). Two submissions of one run racing each other both see none.
 */
export async function runSeenBefore(db: Db, digest: string): Promise<boolean> {
  const found = await rows<{ one: number }>(db, sql`select 1 as one from tasks where run_digest = ${digest} limit 1`)
  return found.length > 0
}

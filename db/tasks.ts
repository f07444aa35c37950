// Task storage. Tasks are written once and read by id; the read used by the API lives in
// db/fetch.ts because it is one statement with the key check and usage count.

import { sql } from 'drizzle-orm'
import { rows, type Db } from './client'

export interface NewTask {
  id: string
  tool: string
  score: number
  ipAddress: string
  userAgent: string
  /** Stored as jsonb. */
  results: unknown
  createdAt: Date
}

/** A task as the API serves it: `results` is the stored jsonb as JSON text, not re-parsed. */
export interface StoredTask {
  task_id: string
  tool: string
  score: number
  ip_address: string
  user_agent: string
  results: string
  created_at: string
}

export async function insertTask(db: Db, task: NewTask): Promise<void> {
  await db.execute(sql`
    insert into tasks (id, tool, score, ip_address, user_agent, results, created_at)
    values (${task.id}::uuid, ${task.tool}, ${task.score}::int, ${task.ipAddress}, ${task.userAgent},
            ${JSON.stringify(task.results)}::jsonb, ${task.createdAt.toISOString()}::timestamptz)`)
}

/** The stored columns in the API's field names; created_at already in the spec's form. */
export const TASK_COLUMNS = sql.raw(`
  t.id::text as task_id, t.tool, t.score, t.ip_address, t.user_agent, t.results::text as results,
  to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') as created_at`)

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

/** The task as JSON text, with `results` spliced in as stored (no parse and re-serialise). */
export function taskJson(t: StoredTask): string {
  return (
    `{"task_id":${JSON.stringify(t.task_id)},"tool":${JSON.stringify(t.tool)},"score":${t.score},` +
    `"ip_address":${JSON.stringify(t.ip_address)},"user_agent":${JSON.stringify(t.user_agent)},` +
    `"results":${t.results},"created_at":${JSON.stringify(t.created_at)}}`
  )
}

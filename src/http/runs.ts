// The run API (issue 47): GET /api/antibot/runs/{run_id}, the tasks one visit to /run stored,
// and GET /api/antibot/compare?base=&head=, two runs (or tasks) side by side. Both take the
// task endpoint's key rules, texts and order (401, 403, 429 for a key out of misses, 404), and
// each successful read counts as one request against the key's monthly limit, in the same
// single statement as the key check (db/runs.ts), so the count is exact across instances.

import { Elysia } from 'elysia'
import { TOOL_IDS } from '../../common/tools'
import { fetchWithKey, runTasks, tasksOf } from '../../db/runs'
import { taskJson, type StoredTask } from '../../db/tasks'
import { compareRuns } from '../core/compare'
import { DEFAULT_MISS_LIMIT } from '../core/fixed-window'
import { isUuid } from '../core/ids'
import { hashSecret } from '../core/keys'
import { decideFetch } from '../core/quota'
import type { AppDeps } from './deps'
import { errorResponse, jsonText } from './json'
import * as operations from './operations'
import { readHeaders, refusedRead, requestApiKey } from './tasks'

const NOT_FOUND = 'Task not found.'
const order = (t: StoredTask) => TOOL_IDS.indexOf(t.tool as (typeof TOOL_IDS)[number])

/** The run as JSON text: each task exactly as GET /api/antibot/tasks/{id} serves it, in the tools' order. */
export function runJson(runId: string, tasks: readonly StoredTask[]): string {
  const sorted = [...tasks].sort((a, b) => order(a) - order(b))
  const tools = new Set(sorted.map((t) => t.tool))
  const complete = TOOL_IDS.every((t) => tools.has(t))
  const createdAt = sorted.map((t) => t.created_at).sort()[0] ?? ''
  return (
    `{"run_id":${JSON.stringify(runId)},"created_at":${JSON.stringify(createdAt)},"complete":${complete},` +
    `"tools":${JSON.stringify(TOOL_IDS)},"tasks":[${sorted.map(taskJson).join(',')}]}`
  )
}

export function runsApi(deps: AppDeps) {
  const { db, clock } = deps
  const refusal = { db, metrics: deps.metrics, missLimit: deps.taskMissLimit ?? DEFAULT_MISS_LIMIT }
  const id = (raw: unknown) => (typeof raw === 'string' && isUuid(raw) ? raw.toLowerCase() : null)

  /** The key's counted check that `ids` exist; the refusal to send, or the key's quota after the count. */
  async function counted(request: Request, ids: [string | null] | [string | null, string | null]): Promise<Response | { limit: number; used: number; now: Date }> {
    const key = requestApiKey(request)
    if (typeof key !== 'string') return key
    const now = clock()
    const obs = await fetchWithKey(db, { keyHash: hashSecret(key), ids, now })
    const decision = decideFetch(obs, now)
    if (!decision.ok) return refusedRead(refusal, decision, obs, now)
    return { limit: decision.limit, used: decision.used, now }
  }

  return new Elysia({ name: 'runs-api' })
    .get(
      '/api/antibot/runs/:run_id',
      async ({ params, request }) => {
        const runId = id(params.run_id)
        const ok = await counted(request, [runId])
        if (ok instanceof Response) return ok
        const tasks = await runTasks(db, runId!)
        // Deleted between the two reads (retention): as if it had not been found.
        if (!tasks.length) return errorResponse(404, NOT_FOUND, { 'cache-control': 'no-store' })
        return jsonText(runJson(runId!, tasks), 200, readHeaders(ok.limit, ok.used, ok.now))
      },
      { detail: operations.getRun },
    )
    .get(
      '/api/antibot/compare',
      async ({ request }) => {
        const query = new URL(request.url).searchParams
        if (!query.get('base') || !query.get('head')) return errorResponse(400, operations.COMPARE_MISSING, { 'cache-control': 'no-store' })
        const base = id(query.get('base'))
        const head = id(query.get('head'))
        const ok = await counted(request, [base, head])
        if (ok instanceof Response) return ok
        const [a, b] = await Promise.all([tasksOf(db, base!), tasksOf(db, head!)])
        if (!a.tasks.length || !b.tasks.length) return errorResponse(404, NOT_FOUND, { 'cache-control': 'no-store' })
        const parse = (t: StoredTask) => JSON.parse(taskJson(t)) as Record<string, unknown>
        const comparison = compareRuns({ id: base!, kind: a.kind, tasks: a.tasks.map(parse) as never }, { id: head!, kind: b.kind, tasks: b.tasks.map(parse) as never })
        return jsonText(JSON.stringify(comparison), 200, readHeaders(ok.limit, ok.used, ok.now))
      },
      { detail: operations.compareRuns },
    )
}

// The task API: POST (unauthenticated, called by the tool pages) and the keyed GET.

import { Elysia } from 'elysia'
import { taskFetcher } from '../../db/fetch'
import { getTask, insertTaskWithSighting, taskJson, taskWriter } from '../../db/tasks'
import { hitWindow, recordMiss } from '../../db/rate-windows'
import { decideHit, DEFAULT_MISS_LIMIT } from '../core/fixed-window'
import { fetchFailureStatus } from '../core/errors'
import { truncateIpsDeep } from '../core/ip-privacy'
import { isUuid, uuidV7 } from '../core/ids'
import { networkKey } from '../core/ip'
import { extractApiKey, hashSecret, isWellFormedApiKey } from '../core/keys'
import { secondsUntilReset } from '../core/month'
import { decideFetch, type FetchDecision, type FetchObservation } from '../core/quota'
import { rateLimitHeaders } from '../core/ratelimit'
import { requestClientIp } from './client-ip'
import { insertTaskUsingNonce } from '../../db/nonces'
import type { AppDeps } from './deps'
import { readSubmission, submissionFailure, type SubmissionFailure } from './submission'
import { stageClock } from '../core/stage-clock'
import { errorResponse, jsonText } from './json'
import { pathAndQueryParts } from './failures'
import * as operations from './operations'

const CREATE = 'Cannot create task'

function refused(failure: SubmissionFailure): Response {
  const { status, error } = submissionFailure(failure, CREATE)
  return errorResponse(status, error)
}

/** The server a request came in on, as far as the handlers need it (client address, proxies). */
type Server = Parameters<typeof requestClientIp>[0]

/**
 * The two task endpoints as plain functions of the request. The app mounts them as Elysia
 * routes (what app.handle() and the HTTPS listener serve); src/http/native.ts hands the same
 * functions to Bun.serve as native routes for the plain-HTTP listener, where they skip the
 * framework's per-request work. Both give the same responses.
 */
export interface TaskHandlers {
  create(request: Request, server: Server): Promise<Response>
  /** `taskId`: the path's segment, percent-decoded (null when its encoding is broken). */
  fetch(request: Request, taskId: string | null): Promise<Response>
}

export function taskHandlers(deps: AppDeps): TaskHandlers {
  const { db, clock, random, trustedProxies, taskRateLimit, ipTruncate, signer, metrics } = deps
  const refusal = { db, metrics, missLimit: deps.taskMissLimit ?? DEFAULT_MISS_LIMIT }
  // Two inserts at a time, a second one only once 16 tasks wait for it: fewer, fuller statements
  // than the default (4, 8), cheaper per task for PostgreSQL and the service alike, and more
  // POSTs a second at 32 connections (docs/performance.md, issue 61).
  const writer = taskWriter(db, { maxInFlight: 2, minGroup: 16 })
  const fetchTask = taskFetcher(db)
  return {
    async create(request, server) {
      const stages = metrics ? stageClock() : undefined
      const now = clock()
      const ip = requestClientIp(server, request, trustedProxies)
      if (taskRateLimit) {
        // Before the body is read: a refused client costs one upsert. Counted per network (an
        // IPv6 /64: networkKey), hashed.
        const after = await hitWindow(db, { scope: 'task_create', subject: hashSecret(networkKey(ip)), policy: taskRateLimit, now })
        const d = decideHit(taskRateLimit, after, now)
        if (!d.ok) {
          metrics?.limited('task_create')
          return errorResponse(429, `${CREATE}: too many tasks from this address; retry in ${d.retryAfterSeconds} s`, { 'retry-after': String(d.retryAfterSeconds) })
        }
      }
      stages?.lap('limit')
      const read = await readSubmission(deps, { request, server, ip, now, purpose: 'submit', stages })
      if (!read.ok) return refused(read.failure)
      const { input, observed, ipAddress, fingerprint, runDigest, sighting } = read.submission
      const id = uuidV7(random, now)
      const task = {
        id,
        tool: input.tool,
        score: input.score,
        ipAddress,
        userAgent: observed.userAgent,
        results: ipTruncate ? truncateIpsDeep(input.results) : input.results,
        createdAt: now,
        fingerprint,
        runDigest,
      }
      if (observed.nonce === 'valid') {
        // Stored only if this submission is the one that uses the nonce (a concurrent replay loses).
        if (!(await insertTaskUsingNonce(db, task, input.nonce!, sighting))) return refused({ code: 'nonce_used' })
      } else if (sighting) {
        // Recorded in the task's own statement: one at a time, not grouped (db/uniqueness.ts).
        await insertTaskWithSighting(db, task, sighting)
      } else {
        await writer.insert(task)
      }
      stages?.lap('store')
      metrics?.taskCreated(input.tool, input.results, input.score, observed.evidence)
      if (stages) metrics?.submissionTimed(stages.laps)
      return jsonText(`{"task_id":"${id}"}`, 201)
    },
    async fetch(request, rawTaskId) {
      const key = requestApiKey(request)
      if (typeof key !== 'string') return key
      const now = clock()
      const taskId = isUuid(rawTaskId) ? rawTaskId.toLowerCase() : null
      // A task whose served body this instance keeps is read without its results: they are
      // what the body was built from, and a task is written once (src/signing.ts).
      const obs = await fetchTask({ keyHash: hashSecret(key), taskId, now, omitResults: taskId !== null && signer.has(taskId) })
      const decision = decideFetch(obs, now)
      if (decision.ok) {
        const t = decision.task
        const source = [t.tool, t.score, t.ip_address, t.user_agent, t.results_size, t.created_at]
        let answer = t.results === null ? signer.kept(t.task_id, source) : undefined
        if (!answer) {
          // Left out, but no longer kept (other fetches pushed it out meanwhile): read again,
          // without counting the fetch a second time.
          const results = t.results ?? (await getTask(db, t.task_id))?.results
          // Deleted between the two reads (retention): as if it had not been found.
          if (results === undefined) return errorResponse(404, fetchFailureStatus('not_found').error, { ...NO_STORE })
          answer = signer.signed(t.task_id, source, () => taskJson({ ...t, results }))
        }
        const { body, signature } = answer
        const headers = readHeaders(decision.limit, decision.used, now)
        headers['jws-signature'] = signature
        return jsonText(body, 200, headers)
      }
      return refusedRead(refusal, decision, obs, now)
    },
  }
}

const NO_STORE = { 'cache-control': 'no-store' }

/** The well-formed API key a keyed read carries, or the 401 to answer when it has none. */
export function requestApiKey(request: Request): string | Response {
  const key = extractApiKey({ authorization: request.headers.get('authorization'), apikey: apikeyParameter(request.url) })
  if (key && isWellFormedApiKey(key)) return key
  const f = fetchFailureStatus(key ? 'invalid_key' : 'missing_key')
  return errorResponse(f.status, f.error, { ...NO_STORE, 'www-authenticate': 'Bearer' })
}

/** The headers of a counted read: the key's quota, never cached. */
export function readHeaders(limit: number, used: number, now: Date): Record<string, string> {
  const headers = rateLimitHeaders(limit, used, now)
  headers['cache-control'] = 'no-store'
  return headers
}

/**
 * The answer to a keyed read that was refused (decideFetch): the spec's texts in its order, the
 * quota headers, Retry-After where waiting helps. A miss (404) is recorded against the key's
 * miss window: only misses pay for a second statement; the happy path stays one round trip.
 */
export async function refusedRead(
  deps: Pick<AppDeps, 'db' | 'metrics'> & { missLimit: Parameters<typeof recordMiss>[1]['policy'] },
  decision: Extract<FetchDecision<unknown>, { ok: false }>,
  obs: FetchObservation<unknown>,
  now: Date,
): Promise<Response> {
  const { db, metrics } = deps
  if (decision.code === 'not_found') await recordMiss(db, { keyId: obs.key!.id, policy: deps.missLimit, now })
  else if (decision.code === 'too_many_misses') metrics?.limited('task_misses')
  else if (decision.code === 'limit') metrics?.limited('monthly_quota')
  const f = fetchFailureStatus(decision.code, decision.retryAfterSeconds)
  const headers: Record<string, string> = { ...NO_STORE }
  if (decision.limit !== undefined) Object.assign(headers, rateLimitHeaders(decision.limit, decision.used ?? 0, now))
  if (decision.code === 'limit') headers['retry-after'] = String(secondsUntilReset(now))
  if (decision.code === 'too_many_misses') headers['retry-after'] = String(decision.retryAfterSeconds)
  if (f.status === 401) headers['www-authenticate'] = 'Bearer'
  return errorResponse(f.status, f.error, headers)
}

/**
 * The `apikey` query parameter as the API reads it: names and values decoded as
 * application/x-www-form-urlencoded (so `api%6Bey` is `apikey` and `+` a space), and when the
 * parameter comes more than once, the last one counts. Null without one.
 */
export function apikeyParameter(url: string): string | null {
  const { query } = pathAndQueryParts(url)
  if (query === null) return null
  const all = new URLSearchParams(query).getAll('apikey')
  return all.length ? all[all.length - 1]! : null
}

export function tasksApi(handlers: TaskHandlers) {
  return new Elysia({ name: 'tasks-api' })
    .post('/api/antibot/tasks', ({ request, server }) => handlers.create(request, server), { parse: 'none', detail: operations.createTask })
    .get('/api/antibot/tasks/:task_id', ({ params, request }) => handlers.fetch(request, params.task_id), { detail: operations.getTask })
}

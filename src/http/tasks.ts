// The task API: POST (unauthenticated, called by the tool pages) and the keyed GET.

import { Elysia } from 'elysia'
import { fetchTaskWithKey } from '../../db/fetch'
import { insertTask, taskJson } from '../../db/tasks'
import { hitWindow } from '../../db/rate-windows'
import { decideHit, DEFAULT_MISS_LIMIT } from '../core/fixed-window'
import { fetchFailureStatus } from '../core/errors'
import { truncateIpsDeep } from '../core/ip-privacy'
import { isUuid, uuidV4 } from '../core/ids'
import { extractApiKey, hashSecret, isWellFormedApiKey } from '../core/keys'
import { secondsUntilReset } from '../core/month'
import { decideFetch } from '../core/quota'
import { rateLimitHeaders } from '../core/ratelimit'
import { requestClientIp } from './client-ip'
import { insertTaskUsingNonce } from '../../db/nonces'
import type { AppDeps } from './deps'
import { readSubmission, submissionFailure, type SubmissionFailure } from './submission'
import { errorResponse, json, jsonText } from './json'
import * as operations from './operations'

const CREATE = 'Cannot create task'

function refused(failure: SubmissionFailure): Response {
  const { status, error } = submissionFailure(failure, CREATE)
  return errorResponse(status, error)
}

export function tasksApi(deps: AppDeps) {
  const { db, clock, random, trustedProxies, taskRateLimit, ipTruncate, signer } = deps
  const missLimit = deps.taskMissLimit ?? DEFAULT_MISS_LIMIT
  return new Elysia({ name: 'tasks-api' })
    .post(
      '/api/antibot/tasks',
      async ({ request, server }) => {
        const now = clock()
        const ip = requestClientIp(server, request, trustedProxies)
        if (taskRateLimit) {
          // Before the body is read: a refused client costs one upsert. Addresses are hashed.
          const after = await hitWindow(db, { scope: 'task_create', subject: hashSecret(ip), policy: taskRateLimit, now })
          const d = decideHit(taskRateLimit, after, now)
          if (!d.ok) return errorResponse(429, `${CREATE}: too many tasks from this address; retry in ${d.retryAfterSeconds} s`, { 'retry-after': String(d.retryAfterSeconds) })
        }
        const read = await readSubmission(deps, { request, server, ip, now, purpose: 'submit' })
        if (!read.ok) return refused(read.failure)
        const { input, observed, ipAddress, fingerprint } = read.submission
        const id = uuidV4(random)
        const task = {
          id,
          tool: input.tool,
          score: input.score,
          ipAddress,
          userAgent: observed.userAgent,
          results: ipTruncate ? truncateIpsDeep(input.results) : input.results,
          createdAt: now,
          fingerprint,
        }
        if (observed.nonce === 'valid') {
          // Stored only if this submission is the one that uses the nonce (a concurrent replay loses).
          if (!(await insertTaskUsingNonce(db, task, input.nonce!))) return refused({ code: 'nonce_used' })
        } else {
          await insertTask(db, task)
        }
        return json({ task_id: id }, 201)
      },
      { parse: 'none', detail: operations.createTask },
    )
    .get(
      '/api/antibot/tasks/:task_id',
      async ({ params, query, request }) => {
        const key = extractApiKey({ authorization: request.headers.get('authorization'), apikey: query.apikey })
        const noStore = { 'cache-control': 'no-store' }
        if (!key || !isWellFormedApiKey(key)) {
          const f = fetchFailureStatus(key ? 'invalid_key' : 'missing_key')
          return errorResponse(f.status, f.error, { ...noStore, 'www-authenticate': 'Bearer' })
        }
        const now = clock()
        const taskId = isUuid(params.task_id) ? params.task_id.toLowerCase() : null
        const obs = await fetchTaskWithKey(db, { keyHash: hashSecret(key), taskId, now, missPolicy: missLimit })
        const decision = decideFetch(obs, now, missLimit)
        if (decision.ok) {
          const body = taskJson(decision.task)
          return jsonText(body, 200, { ...noStore, ...rateLimitHeaders(decision.limit, decision.used, now), 'jws-signature': signer.sign(body) })
        }
        // Only misses pay for a second statement; the happy path stays one round trip.
        if (decision.code === 'not_found') await hitWindow(db, { scope: 'task_miss', subject: obs.key!.id, policy: missLimit, now })
        const f = fetchFailureStatus(decision.code, decision.retryAfterSeconds)
        const headers: Record<string, string> = { ...noStore }
        if (decision.limit !== undefined) Object.assign(headers, rateLimitHeaders(decision.limit, decision.used ?? 0, now))
        if (decision.code === 'limit') headers['retry-after'] = String(secondsUntilReset(now))
        if (decision.code === 'too_many_misses') headers['retry-after'] = String(decision.retryAfterSeconds)
        if (f.status === 401) headers['www-authenticate'] = 'Bearer'
        return errorResponse(f.status, f.error, headers)
      },
      { detail: operations.getTask },
    )
}

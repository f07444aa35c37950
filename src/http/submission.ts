// The one submission path, shared by POST /api/antibot/tasks (stores the task) and
// POST /tools/:tool/report (renders the page's report): read the JSON body, observe the request
// (nonce, listener evidence, trusted fingerprint headers), count how common the browser's
// fingerprint is, and judge the results. Every expected failure is a value; submissionFailure
// is the one place that words them, after the endpoint's own "Cannot …" prefix.

import type { ToolId } from '../../common/tools'
import { truncateIp } from '../core/ip-privacy'
import { validateTaskInput, type TaskInput } from '../core/task-input'
import type { ServerObservation } from '../core/tools/observation'
import { bodyFailureStatus, readJson, type BodyFailure } from './body'
import type { AppDeps } from './deps'
import { countSeen } from './identity-count'
import { runDigest } from '../core/run-digest'
import { runSeenBefore } from '../../db/tasks'
import { isDatabaseUnavailable } from '../../db/unavailable'
import { believedFingerprintHeaders, observeSubmission } from './observe'
import { countUniqueness } from './uniqueness-count'
import type { Sighting } from '../../db/uniqueness'
import type { StageClock } from '../core/stage-clock'

export const MAX_TASK_BODY_BYTES = 64 * 1024

export type SubmissionFailure =
  | BodyFailure
  | { code: 'nonce_used' }
  | { code: 'invalid'; why: string }
  | { code: 'wrong_tool'; tool: ToolId; page: string }
  | { code: 'rate_limited'; retryAfterSeconds: number }

export interface Submission {
  input: TaskInput
  observed: ServerObservation
  /** The address as tasks store it: cut to its network under IP_TRUNCATE. */
  ipAddress: string
  /** browser-fingerprint's visitor id, for the task's `fingerprint` column. */
  fingerprint: string | null
  /** The page run's digest, for the task's `run_digest` column (null: not a page run). */
  runDigest: string | null
  /** What the task's insert records for the uniqueness figures (null: nothing to count). */
  sighting: Sighting | null
}

export type SubmissionResult = { ok: true; submission: Submission } | { ok: false; failure: SubmissionFailure }

/** What each endpoint's texts start with. */
export type SubmissionAction = 'Cannot create task' | 'Cannot render report'

export function submissionFailure(f: SubmissionFailure, what: SubmissionAction): { status: 400 | 408 | 409 | 413 | 415 | 422 | 429; error: string } {
  switch (f.code) {
    case 'rate_limited':
      return { status: 429, error: `${what}: too many tasks and reports from this address; retry in ${f.retryAfterSeconds} s` }
    case 'nonce_used':
      return { status: 409, error: `${what}: this page's nonce was already used by another task; reload the page to run the tests again` }
    case 'invalid':
      return { status: 422, error: `${what}: ${f.why}` }
    case 'wrong_tool':
      return { status: 422, error: `${what}: the body is for tool '${f.tool}', not '${f.page}'` }
    default:
      return bodyFailureStatus(f, what)
  }
}

type Server = Parameters<typeof believedFingerprintHeaders>[0]

/**
 * `submit` judges a submission to store; `report` judges it again for the page's report, after
 * the page has stored it: its nonce is used by then (observeSubmission takes that as valid), and
 * the fingerprint is counted as of that task, without it and anything stored after it.
 * `page`: the tool the report URL names; a body for another tool is refused.
 */
export async function readSubmission(
  deps: Pick<AppDeps, 'db' | 'judge' | 'ipTruncate' | 'log' | 'trustedProxies' | 'tlsFingerprintHeaders' | 'uniqueness' | 'agents'>,
  args: {
    request: Request
    server: Server
    ip: string
    now: Date
    purpose: 'submit' | 'report'
    page?: string
    /** Whether the body may be judged at all (the report's budget): a failure refuses it before any look-up. */
    admit?: (body: unknown) => Promise<SubmissionFailure | null>
    /** Lapped at the end of each stage (the task endpoint's, for /metrics). */
    stages?: StageClock
  },
): Promise<SubmissionResult> {
  const { db } = deps
  const { request, now, purpose } = args
  const stages = args.stages
  const read = await readJson(request, MAX_TASK_BODY_BYTES)
  stages?.lap('read')
  if (!read.ok) return { ok: false, failure: read.failure }
  const body = read.value
  const refused = args.admit ? await args.admit(body) : null
  if (refused) return { ok: false, failure: refused }
  const observed = await observeSubmission(db, { request, ip: args.ip, now, body, purpose, fingerprintHeaders: believedFingerprintHeaders(args.server, request, deps), agents: deps.agents })
  stages?.lap('observe')
  if (observed.nonce === 'used') return { ok: false, failure: { code: 'nonce_used' } }
  // Judged on the full address; stored cut to its network when IP_TRUNCATE is set.
  const ipAddress = deps.ipTruncate ? truncateIp(observed.ip) : observed.ip
  const { nonce } = (body ?? {}) as { nonce?: unknown }
  const asOfNonce = purpose === 'report' && observed.nonce === 'valid' && typeof nonce === 'string' ? nonce : undefined
  const seen = await countSeen(db, { body, excludeIp: ipAddress, now, asOfNonce, log: deps.log })
  stages?.lap('seen')
  // A page run's digest, and whether a stored task has it already (a replayed submission). The
  // report is judged after its own task was stored: it is that task's run, not a replay.
  const digest = observed.nonce === 'valid' ? runDigest(body) : null
  const runSeen = digest === null ? undefined : purpose === 'report' ? { seen: false } : await lookUpRun(db, digest, deps.log)
  stages?.lap('run')
  const input = validateTaskInput(body, observed, { ...deps.judge, fingerprintSeen: seen.fingerprintSeen, ...(runSeen ? { runSeen } : {}) })
  stages?.lap('judge')
  if (!input.ok) return { ok: false, failure: { code: 'invalid', why: input.why } }
  if (args.page !== undefined && input.value.tool !== args.page) return { ok: false, failure: { code: 'wrong_tool', tool: input.value.tool, page: args.page } }
  // How identifying the browser is: counted after judging, from the results as stored; the
  // report shows what its stored task was given.
  const sighting = await countUniqueness(deps, { tool: input.value.tool, results: input.value.results, userAgent: observed.userAgent, storedIp: ipAddress, now, report: asOfNonce })
  stages?.lap('uniqueness')
  return { ok: true, submission: { input: input.value, observed, ipAddress, fingerprint: seen.fingerprint, runDigest: digest, sighting } }
}

/** Whether a stored task has the run's digest; a failed lookup is said, not a failed submission. */
async function lookUpRun(db: AppDeps['db'], digest: string, log: AppDeps['log']): Promise<{ seen: boolean } | { error: string }> {
  try {
    return { seen: await runSeenBefore(db, digest) }
  } catch (error) {
    ;(log ?? console.error)(`Cannot look up the run ${digest.slice(0, 12)}: ${error instanceof Error ? error.message : String(error)}`)
    return { error: `the lookup over stored tasks could not be made (${isDatabaseUnavailable(error) ? 'the database did not answer' : 'the query failed'})` }
  }
}

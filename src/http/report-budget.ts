// The budget of POST /tools/:tool/report (issue 57). A report judges a submission as the task
// endpoint does (the body, the nonce and its evidence, the visitor-id and uniqueness counts)
// without storing it, so without a budget it was a keyless verdict oracle: a bot could post its
// body again and again and read the score each time. It is held to the task endpoint's budget,
// the client network's TASK_RATE_LIMIT window (the same `task_create` window, so tasks and
// reports share it), with one exception: the page's own report, the one it asks for once after
// storing its task (probes/core/runner.ts), is free — a person is never refused the report of
// the task they just stored. Free means: the body's nonce is that of a stored task of this tool
// whose report was not given yet, marked as given in the same statement (db/nonces.ts
// claimOwnReport). Every other report is charged. Without TASK_RATE_LIMIT both are unlimited,
// as tasks are.

import { claimOwnReport } from '../../db/nonces'
import { hitWindow } from '../../db/rate-windows'
import { decideHit } from '../core/fixed-window'
import { networkKey } from '../core/ip'
import { hashSecret } from '../core/keys'
import type { AppDeps } from './deps'
import type { SubmissionFailure } from './submission'

/** What a report was counted as: its page's own (free), charged to the budget, or unmetered (no TASK_RATE_LIMIT). */
export type ReportCharge = 'own' | 'charged' | 'unmetered'

/**
 * The `admit` step of readSubmission for one report: decides its charge (told to `charged`)
 * and refuses it with 429 when the client network's window is full.
 */
export function reportAdmission(
  deps: Pick<AppDeps, 'db' | 'taskRateLimit' | 'metrics'>,
  args: { tool: string; ip: string; now: Date; charged: (charge: ReportCharge) => void },
): (body: unknown) => Promise<SubmissionFailure | null> {
  const { db, taskRateLimit, metrics } = deps
  return async (body) => {
    if (!taskRateLimit) {
      args.charged('unmetered')
      return null
    }
    const nonce = (body as { nonce?: unknown } | null)?.nonce
    if (typeof nonce === 'string' && nonce.length <= 64 && (await claimOwnReport(db, { nonce, tool: args.tool, now: args.now }))) {
      args.charged('own')
      return null
    }
    args.charged('charged')
    const after = await hitWindow(db, { scope: 'task_create', subject: hashSecret(networkKey(args.ip)), policy: taskRateLimit, now: args.now })
    const d = decideHit(taskRateLimit, after, args.now)
    if (d.ok) return null
    metrics?.limited('task_report')
    return { code: 'rate_limited', retryAfterSeconds: d.retryAfterSeconds }
  }
}

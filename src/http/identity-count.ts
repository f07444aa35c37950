// Before a submission is judged: its identity hash (browser-fingerprint's visitor id, from the
// signals exactly as the judge derives it) and how often stored tasks carry it, for the judge's
// fp-commonness check (JudgeContext.fingerprintSeen) and the task's `fingerprint` column.

import type { Db } from '../../db/client'
import { countFingerprintSeen } from '../../db/tasks'
import { isDatabaseUnavailable } from '../../db/unavailable'
import { submittedIdentity } from '../core/tools/assemble'
import { SEEN_CAP, SEEN_WINDOW_DAYS, type FingerprintSeen } from '../core/fingerprint-seen'

export interface Seen {
  /** What to store as the task's `fingerprint`; null for other tools and unidentified browsers. */
  fingerprint: string | null
  /** For the judge; omitted when there is nothing to count. */
  fingerprintSeen?: FingerprintSeen
}

/**
 * `excludeIp` is the submitter's address as tasks store it (truncated under IP_TRUNCATE), so
 * its own earlier tasks never make it common. `asOfNonce`: see countFingerprintSeen (the report).
 * A failed count does not fail the submission: the count informs one low-weight check, and the
 * check says it was not counted. If the database is really away, storing the task gets its 503.
 */
export async function countSeen(
  db: Db,
  args: { body: unknown; excludeIp: string; now: Date; asOfNonce?: string | undefined; log?: ((line: string) => void) | undefined },
): Promise<Seen> {
  const id = submittedIdentity(args.body)
  if (!id) return { fingerprint: null }
  try {
    const count = await countFingerprintSeen(db, { ...id, excludeIp: args.excludeIp, now: args.now, windowDays: SEEN_WINDOW_DAYS, cap: SEEN_CAP, asOfNonce: args.asOfNonce })
    return { fingerprint: id.fingerprint, fingerprintSeen: count }
  } catch (error) {
    ;(args.log ?? console.error)(`Cannot count stored tasks with fingerprint ${id.fingerprint}: ${error instanceof Error ? error.message : String(error)}`)
    const why = isDatabaseUnavailable(error) ? 'the database did not answer' : 'the query failed'
    return { fingerprint: id.fingerprint, fingerprintSeen: { error: `the count over stored tasks could not be made (${why})` } }
  }
}

// What the service saw of a submission: the request itself, and — when the body carries the
// page's nonce — the nonce's state and what the service's listeners filed under it.

import type { Db } from '../../db/client'
import { readNonce } from '../../db/nonces'
import { isNonce } from '../core/nonce'
import type { ServerObservation } from '../core/tools/observation'
import { observeRequest } from './client-ip'

export async function observeSubmission(
  db: Db,
  args: { request: Request; ip: string; now: Date; body: unknown; purpose: 'submit' | 'report' },
): Promise<ServerObservation> {
  const base = observeRequest(args.request, args.ip, args.now)
  const { nonce, tool } = (args.body ?? {}) as { nonce?: unknown; tool?: unknown }
  if (nonce === undefined) return { ...base, nonce: 'missing' }
  if (!isNonce(nonce) || typeof tool !== 'string') return { ...base, nonce: 'unknown' }
  const read = await readNonce(db, { nonce, tool, now: args.now })
  // The page asks for its report after it has submitted: its nonce is used by then, and that
  // is the normal case for a report.
  const state = args.purpose === 'report' && read.state === 'used' ? 'valid' : read.state
  return { ...base, nonce: state, evidence: read.evidence }
}

// What makes one run of a tool page that run and no other (issue 46): a person's browser never
// submits the same run twice — every probe's own timing (`ms`), the frames it counted, the
// input it saw differ from one run to the next — while a recorded submission replayed under a
// fresh page's nonce repeats an earlier one exactly. The digest is SHA-256 of the submitted
// signals in canonical JSON with the page's nonce taken out wherever the page wrote it (a
// replayer puts the fresh nonce there). Stored with the task (tasks.run_digest); a submission
// whose digest a stored task already has is a replay (src/checks/replayed-run.ts).

import { createHash } from 'node:crypto'
import { canonicalJson } from '../../common/hash'
import { isNonce } from './nonce'

/**
 * The tools whose runs are looked up: bot-detector's two dozen probes each carry their own
 * timing, so two runs of one browser never match; a tool of a few instant probes could.
 */
export const RUN_DIGEST_TOOLS: ReadonlySet<string> = new Set(['bot-detector'])

/** Every string equal to the nonce, wherever it is, made empty. */
function withoutNonce(value: unknown, nonce: string): unknown {
  if (value === nonce) return ''
  if (Array.isArray(value)) return value.map((v) => withoutNonce(v, nonce))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNonce(v, nonce)]))
  return value
}

/** The run's digest of a page submission (`{tool, nonce, results: {signals}}`), or null when it is not one. */
export function runDigest(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null
  const { tool, nonce, results } = body as Record<string, unknown>
  if (typeof tool !== 'string' || !RUN_DIGEST_TOOLS.has(tool) || !isNonce(nonce) || results === null || typeof results !== 'object' || Array.isArray(results)) return null
  const signals = (results as Record<string, unknown>).signals
  if (signals === null || typeof signals !== 'object' || Array.isArray(signals) || Object.keys(signals).length === 0) return null
  return createHash('sha256').update(canonicalJson(withoutNonce(signals, nonce))).digest('hex')
}

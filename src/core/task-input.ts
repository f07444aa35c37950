// Validation of a task submission, after the body has been read and parsed as JSON. Every
// rejection says what was wrong (`why`); the endpoint puts its "Cannot …: " before it
// (src/http/submission.ts).

import { findJsonProblem } from './json-safety'
import { assembleResults } from './tools/assemble'
import type { ServerObservation } from './tools/observation'
import type { JudgeContext } from '../checks/define'
import { isToolId, type ToolId } from '../../common/tools'

export interface TaskInput {
  tool: ToolId
  results: Record<string, unknown>
  score: number
  /** The page nonce the submission carried, if any (validity is the server's business). */
  nonce?: string
}

const ALLOWED_FIELDS = new Set(['tool', 'results', 'nonce'])

export type TaskInputResult = { ok: true; value: TaskInput } | { ok: false; why: string }

const fail = (why: string): TaskInputResult => ({ ok: false, why })

function describeValue(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`
}

const NO_OBSERVATION: ServerObservation = { ip: 'unknown', userAgent: '', headers: [], receivedAt: 0 }

/**
 * Validates a parsed submission and derives what the server owns (checks, summary, score,
 * server evidence). `server` is what the service saw of the request; tests may omit it.
 */
export function validateTaskInput(body: unknown, server: ServerObservation = NO_OBSERVATION, ctx: JudgeContext = {}): TaskInputResult {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return fail(`the body must be a JSON object with "tool" and "results", got ${describeValue(body)}`)
  }
  const problem = findJsonProblem(body)
  if (problem) return fail(`${problem.path}: ${problem.problem}`)
  const record = body as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (!ALLOWED_FIELDS.has(key)) return fail(`unknown field ${JSON.stringify(key)} (allowed: "tool", "results", "nonce")`)
  }
  const { tool, results, nonce } = record
  if (nonce !== undefined && typeof nonce !== 'string') return fail(`"nonce" must be a string, got ${describeValue(nonce)}`)
  if (tool === undefined) return fail('"tool" is required')
  if (typeof tool !== 'string') return fail(`"tool" must be a string, got ${describeValue(tool)}`)
  if (!isToolId(tool)) return fail(`unknown tool ${JSON.stringify(tool)}`)
  if (results === undefined) return fail('"results" is required')
  if (results === null || typeof results !== 'object' || Array.isArray(results)) {
    return fail(`"results" must be an object, got ${describeValue(results)}`)
  }
  const assembled = assembleResults(tool, results as Record<string, unknown>, server, ctx)
  if (!assembled.ok) return fail(assembled.error)
  return { ok: true, value: { tool, results: assembled.results, score: assembled.score, ...(nonce !== undefined ? { nonce } : {}) } }
}

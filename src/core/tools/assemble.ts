// From what a client submitted to what is stored: validate the tool's signals, judge them
// with the server's own observation, and keep of the submission only what the judging read
// (src/core/tools/verified.ts): whatever the client said about its own checks, summary,
// verdict or score is dropped, never stored as the service's. The task's score is always
// results.summary.score.

import { checksFromSpecScoring } from '../../checks/spec-scoring'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { TypeGuard, type TSchema } from '@sinclair/typebox'
import { summarize, type Check, } from '../scoring'
import { consistencyOf } from '../consistency'
import { formatTimestamp } from '../month'
import { BotDetectorSpecResults } from '../results'
import { isToolId, type ToolId } from '../../../common/tools'
import type { ServerObservation } from './observation'
import { TOOL_DEFINITIONS } from './registry'
import type { JudgeContext } from '../../checks/define'
import type { Untested } from './types'
import { keptMembers, unverifiedOf, type Basis } from './verified'
import { rulesetOf } from '../ruleset'

export type AssembleResult = { ok: true; results: Record<string, unknown>; score: number } | { ok: false; error: string }

const compiled = new Map<string, TypeCheck<TSchema>>()
function compile(key: string, schema: TSchema): TypeCheck<TSchema> {
  let c = compiled.get(key)
  if (!c) {
    c = TypeCompiler.Compile(schema)
    compiled.set(key, c)
  }
  return c
}

function firstError(c: TypeCheck<TSchema>, value: unknown, prefix: string): string | null {
  if (c.Check(value)) return null
  const e = c.Errors(value).First()
  const path = prefix + (e?.path ?? '').replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.')
  return `${path}: ${e ? e.message.toLowerCase() : 'does not match the schema'}`
}

export function serverEvidence(server: ServerObservation) {
  return {
    ip: server.ip,
    user_agent: server.userAgent,
    received_at: formatTimestamp(new Date(server.receivedAt)),
    headers: server.headers,
    nonce: server.nonce ?? 'missing',
    evidence: server.evidence ?? [],
    // What the listeners saw beyond the evidence caps (src/evidence/caps.ts): counted, not kept.
    ...(server.evidenceDropped && Object.keys(server.evidenceDropped).length ? { evidence_dropped: server.evidenceDropped } : {}),
    // The HTTPS listener's records of other clients under this nonce: set aside, not judged.
    ...(server.evidenceElsewhere?.length ? { evidence_elsewhere: server.evidenceElsewhere } : {}),
    // The page's proof that it ran, for the tools that take the challenge (src/core/page-proof.ts).
    ...(server.proof ? { proof: server.proof, proof_detail: server.proofDetail ?? '' } : {}),
    // A signed agent's signature, as verified (src/agents/verify.ts): only on signed requests.
    ...(server.agent ? { agent: server.agent } : {}),
  }
}

export const NOT_SENT = 'not sent: the client submitted no signals, so only what the service observed is judged'

/**
 * The signals of a client that sent none (curl, an HTTP library, a scraper's own stack): every
 * required signal is a typed `error` saying so, and optional ones are left out.
 */
function unsentSignals(schema: TSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const props = TypeGuard.IsObject(schema) ? schema.properties : {}
  const required = new Set(TypeGuard.IsObject(schema) ? (schema.required ?? []) : [])
  for (const name of Object.keys(props)) if (required.has(name)) out[name] = { ok: false, error: { kind: 'error', message: NOT_SENT }, ms: 0 }
  return out
}

/**
 * The identity hash a submission's signals carry (ToolDefinition.identity, e.g.
 * browser-fingerprint's visitor id), computed from the very signals its judge will see; null
 * for tools without one, for submissions without signals, and for bodies whose signals do not
 * validate (assembleResults refuses those).
 */
export function submittedIdentity(body: unknown): { tool: ToolId; fingerprint: string } | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null
  const { tool, results } = body as Record<string, unknown>
  if (typeof tool !== 'string' || !isToolId(tool)) return null
  const def = TOOL_DEFINITIONS[tool]
  if (!def?.identity || results === null || typeof results !== 'object' || Array.isArray(results)) return null
  const signals = (results as Record<string, unknown>).signals
  if (signals === undefined || !compile(`signals:${tool}`, def.signals).Check(signals)) return null
  const fingerprint = def.identity(signals)
  return fingerprint === null ? null : { tool, fingerprint }
}

/**
 * A task none of whose checks could be judged tests nothing (every check `na`: e.g. a client
 * that sent no signals to a tool that judges only what the page reports): its score of 100
 * would be no result. The reason is the first check's, which says what was missing.
 */
export function nothingJudged(checks: readonly Check[]): Untested | null {
  if (!checks.length || checks.some((c) => c.verdict !== 'na')) return null
  return { reason: `none of the ${checks.length} checks could be judged: ${checks[0]!.expected}`, url: null }
}

export function assembleResults(tool: ToolId, submitted: Record<string, unknown>, server: ServerObservation, ctx: JudgeContext = {}): AssembleResult {
  const def = TOOL_DEFINITIONS[tool]
  let checks: Check[]
  let sections: Record<string, unknown> = {}
  let untested: Untested | null = null
  let basis: Basis
  if (submitted.signals !== undefined && def) {
    basis = 'signals'
    const err = firstError(compile(`signals:${tool}`, def.signals), submitted.signals, 'results.signals')
    if (err) return { ok: false, error: err }
    const judged = def.judge(submitted.signals as never, server, ctx)
    checks = judged.checks
    sections = judged.sections ?? {}
    untested = judged.untested ?? null
  } else if (tool === 'bot-detector') {
    const err = firstError(compile('spec:bot-detector', BotDetectorSpecResults), submitted, 'results')
    if (err) return { ok: false, error: err }
    basis = 'spec'
    checks = checksFromSpecScoring(submitted as never)
  } else if (def) {
    // No signals: a client that runs no JavaScript (curl, an HTTP library) still gets what the
    // service saw judged — its headers, address, and the listeners' evidence under its nonce.
    // Nothing the client did not say can pass or fail: every client-side check is `na`.
    basis = 'unsent'
    const judged = def.judge(unsentSignals(def.signals) as never, server, ctx)
    checks = judged.checks.map((c) => (c.source === 'client' ? { ...c, verdict: 'na' as const, points: 0, observed: null, expected: NOT_SENT } : c))
    sections = judged.sections ?? {}
    untested = judged.untested ?? null
  } else {
    return { ok: false, error: `unknown tool '${tool}'` }
  }
  const summary = summarize(checks)
  untested ??= nothingJudged(checks)
  const consistency = consistencyOf(submitted.signals, server, ctx)
  // Of the submission, only what the judging read is kept (the signals, or the spec's sections);
  // everything else is dropped and named, so nothing the client wrote sits among the service's
  // own members. `tested`: whether the score is a result of the tool's main test (results.untested
  // says why not). `verified`: the service's checks made the score, for a page load it rendered
  // (its single-use nonce, so the listeners' evidence in `server.evidence` is this page load's);
  // results.unverified says why not.
  const { kept, dropped } = keptMembers(basis, submitted)
  const unverified = unverifiedOf(basis, server.nonce)
  const results = {
    ...kept,
    ...sections,
    checks,
    summary,
    // The rules that judged it (src/core/ruleset.ts): a client's `ruleset` is dropped above.
    ruleset: rulesetOf(tool),
    tested: !untested,
    ...(untested ? { untested } : {}),
    verified: !unverified,
    ...(unverified ? { unverified } : {}),
    ...(dropped.length ? { dropped } : {}),
    consistency,
    server: serverEvidence(server),
  }
  return { ok: true, results, score: summary.score }
}

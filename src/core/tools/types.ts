import type { TSchema, Static } from '@sinclair/typebox'
import type { Check } from '../checks'
import type { ToolId } from '../../../common/tools'
import type { ServerObservation } from './observation'
import type { IpLookup } from '../../evidence/ipdb-core'
import type { FingerprintSeen } from './seen'

export interface Judgement {
  checks: Check[]
  /** Tool-specific sections merged into the results (e.g. bot-detector's `leaks`). */
  sections?: Record<string, unknown>
}

/**
 * Lookups a judge may use besides the request: pure functions over data loaded at start-up
 * (tests pass fakes). Every member is optional: a judge without one says what is missing.
 */
export interface JudgeContext {
  /** Country, AS and hosting flag of an address (offline database, src/evidence/ipdb.ts). */
  lookupIp?: (ip: string) => IpLookup
  /**
   * How many stored tasks share this submission's identity (ToolDefinition.identity) and from
   * how many other addresses: counted by the HTTP handlers before judging (src/http/seen.ts).
   */
  fingerprintSeen?: FingerprintSeen
}

/**
 * A tool on the server side: the schema of the signals its page collects, and the pure
 * function that judges them (with what the server saw) into checks.
 */
export interface ToolDefinition<S extends TSchema = TSchema> {
  id: ToolId
  /** Schema of `results.signals` as the page sends it. */
  signals: S
  /** Schema of the sections `judge` adds, for the OpenAPI document. */
  sections?: TSchema
  judge(signals: Static<S>, server: ServerObservation, ctx?: JudgeContext): Judgement
  /**
   * The stable hash identifying the submitting browser (browser-fingerprint: its visitor id),
   * stored as the task's `fingerprint`; null when the signals identify nothing. Tools without
   * one store null.
   */
  identity?(signals: Static<S>): string | null
}

export function defineTool<S extends TSchema>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def
}

import type { TSchema, Static } from '@sinclair/typebox'
import type { CheckDefinition } from '../../checks/define'
import type { Check } from '../scoring'
import type { ToolId } from '../../../common/tools'
import type { ServerObservation } from './observation'
import type { IpLookup } from '../../evidence/ipdb-core'
import type { FingerprintSeen } from '../fingerprint-seen'
import { runChecks } from '../judge'

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
   * how many other addresses: counted by the HTTP handlers before judging (src/http/identity-count.ts).
   */
  fingerprintSeen?: FingerprintSeen
}

/** A check a tool runs, with the points a fail costs there (a warn costs half, rounded up). */
export type WeightedCheck<S> = readonly [check: CheckDefinition<S, keyof S & string, keyof S & string>, weight: number]

/** What the checks of one submission found, for the sections a tool adds. */
export interface Judged {
  checks: Check[]
  /** Every label the outcomes carried (Outcome.labels), in order of first appearance. */
  labels: ReadonlySet<string>
}

/**
 * A tool on the server side: the schema of the signals its page collects (common/signals),
 * the ordered checks it runs with their weights, and the sections it adds to `results`.
 */
export interface ToolSpec<S extends TSchema> {
  id: ToolId
  /** Schema of `results.signals` as the page sends it. */
  signals: S
  checks: ReadonlyArray<WeightedCheck<Static<S>>>
  /** Schema of the sections `addSections` adds, for the OpenAPI document. */
  sections?: TSchema
  /** Sections merged into the results, from the signals and what the checks found. */
  addSections?(signals: Static<S>, judged: Judged, server: ServerObservation, ctx: JudgeContext): Record<string, unknown>
  /**
   * The stable hash identifying the submitting browser (browser-fingerprint: its visitor id),
   * stored as the task's `fingerprint`; null when the signals identify nothing. Tools without
   * one store null.
   */
  identity?(signals: Static<S>): string | null
}

export interface ToolDefinition<S extends TSchema = TSchema> extends ToolSpec<S> {
  judge(signals: Static<S>, server: ServerObservation, ctx?: JudgeContext): Judgement
}

export function defineTool<S extends TSchema>(spec: ToolSpec<S>): ToolDefinition<S> {
  return {
    ...spec,
    judge(signals, server, ctx = {}) {
      const judged = runChecks(spec.checks, signals, server, ctx)
      return { checks: judged.checks, sections: spec.addSections?.(signals, judged, server, ctx) ?? {} }
    },
  }
}

/** A tool as the registry holds it, whatever its signals: what the submission path needs. */
export interface RegisteredTool {
  id: ToolId
  signals: TSchema
  sections?: TSchema
  checks: ReadonlyArray<readonly [CheckDefinition, number]>
  judge(signals: unknown, server: ServerObservation, ctx?: JudgeContext): Judgement
  identity?(signals: unknown): string | null
}

// A tool on the server side: its signals' schema, the checks it runs with their weights (the
// check contract is src/checks/define.ts; the runner src/core/judge.ts) and its sections.

import type { TSchema, Static } from '@sinclair/typebox'
import type { CheckDefinition, JudgeContext } from '../../checks/define'
import type { Check } from '../scoring'
import type { ToolId } from '../../../common/tools'
import type { ServerObservation } from './observation'
import { runChecks, type Judged, type WeightedCheck } from '../judge'

export interface Judgement {
  checks: Check[]
  /** Tool-specific sections merged into the results (e.g. bot-detector's `leaks`). */
  sections?: Record<string, unknown>
  /** Set when the tool's main evidence was not collected (ToolSpec.untested). */
  untested?: Untested | null
}

/**
 * Why a task is not a result of its tool's main test (e.g. tls-fingerprint without a
 * handshake, dns-leak without a DNS listener): one line for a person, and where the test can
 * be run instead (null: nowhere on this service as it is configured).
 */
export interface Untested {
  reason: string
  url: string | null
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
   * Whether the tool's main evidence is missing, from the sections it added: the task then says
   * `tested: false` and why, and its page says "not tested" instead of a score. Tools without
   * it are untested only when no check at all could be judged (src/core/tools/assemble.ts).
   */
  untested?(sections: Record<string, unknown>, judged: Judged): Untested | null
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
      const sections = spec.addSections?.(signals, judged, server, ctx) ?? {}
      return { checks: judged.checks, sections, untested: spec.untested?.(sections, judged) ?? null }
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

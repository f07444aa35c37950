// What every tool page runs: collect the tool's signals, submit them, expose the task id in
// <body data-task>, then show the server's judgement of them (an HTML report the server
// renders from the same data). The page never scores itself.

import type { Static } from '@sinclair/typebox'
import type { SignalResult } from '../../common/signal'
import type { TOOL_SIGNALS } from '../../common/signals'
import type { ToolId } from '../../common/tools'
import { collect, type Source, type Sources } from './collect'

/** The value type of each signal a tool's schema declares. */
type ValuesOf<T extends ToolId> = { [K in keyof Static<(typeof TOOL_SIGNALS)[T]>]-?: NonNullable<Static<(typeof TOOL_SIGNALS)[T]>[K]> extends SignalResult<infer V> ? V : never }

/**
 * One source per signal of the tool's schema (common/signals), each producing exactly the
 * value the server validates: a probe whose output drifts from the schema fails the type check.
 */
export type SourcesFor<T extends ToolId> = { [K in keyof ValuesOf<T>]: Source<ValuesOf<T>[K]> }

export interface RunOptions {
  /** Per-signal timeout. */
  timeoutMs?: number
  /** Extra top-level members of `results` besides `signals` (e.g. bot-detector's spec sections). */
  extra?: (signals: Record<string, unknown>) => Record<string, unknown>
}

function status(text: string): void {
  const el = document.getElementById('status')
  if (el) el.textContent = text
}

export async function runToolPage<T extends ToolId>(tool: T, sources: SourcesFor<T>, options: RunOptions = {}): Promise<void> {
  await runSources(tool, sources as Sources, options)
}

async function runSources(tool: string, sources: Sources, options: RunOptions): Promise<void> {
  try {
    status('Running tests in this browser…')
    const signals = await collect(sources, options.timeoutMs ?? 3000)
    const results = { ...(options.extra?.(signals) ?? {}), signals }
    // The single-use nonce the server rendered into this page: it ties the listeners' evidence
    // (TLS, STUN/TURN, DNS) to this submission.
    const nonce = document.body.dataset.nonce
    const body = JSON.stringify(nonce ? { tool, results, nonce } : { tool, results })
    const res = await fetch('/api/antibot/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const answer = (await res.json()) as { task_id?: string; error?: string }
    if (!res.ok || !answer.task_id) throw new Error(answer.error ?? `HTTP ${res.status}`)
    document.body.dataset.task = answer.task_id
    status(`Done. Task ${answer.task_id}`)
    const report = await fetch(`/tools/${tool}/report`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const target = document.getElementById('report')
    // The report is HTML the server rendered with every value escaped.
    if (target && report.ok) target.innerHTML = await report.text()
  } catch (e) {
    status(`The tests could not be completed: ${e instanceof Error ? e.message : String(e)}`)
    document.body.dataset.error = 'true'
  }
}

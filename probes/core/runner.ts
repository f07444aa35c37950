// What every tool page runs: collect the tool's signals, submit them, expose the task id in
// <body data-task>, then show the server's judgement of them (an HTML report the server
// renders from the same data). The page never scores itself.

import { openHashTarget, watchHashTargets } from './open-target'
import type { Static } from '@sinclair/typebox'
import type { SignalResult } from '../../common/signal'
import type { TOOL_SIGNALS } from '../../common/signals'
import type { ToolId } from '../../common/tools'
import { PROOF_TOOLS } from '../../common/page-proof'
import { pageProof } from '../signals/page-proof'
import { collect, runSource, type Source, type Sources } from './collect'

/** The value type of each signal a tool's schema declares. */
type ValuesOf<T extends ToolId> = { [K in keyof Static<(typeof TOOL_SIGNALS)[T]>]-?: NonNullable<Static<(typeof TOOL_SIGNALS)[T]>[K]> extends SignalResult<infer V> ? V : never }

/**
 * One source per signal of the tool's schema (common/signals), each producing exactly the
 * value the server validates: a probe whose output drifts from the schema fails the type check.
 */
export type SourcesFor<T extends ToolId> = { [K in Exclude<keyof ValuesOf<T>, 'proof'>]: Source<ValuesOf<T>[K]> }

export interface RunOptions {
  /** Per-signal timeout. */
  timeoutMs?: number
  /** Extra top-level members of `results` besides `signals` (e.g. bot-detector's spec sections). */
  extra?: (signals: Record<string, unknown>) => Record<string, unknown>
}

/** A tool's sources and options, typed against its schema (definePlan), ready to run. */
export interface ToolPlan {
  tool: ToolId
  sources: Sources
  options: RunOptions
}

export function definePlan<T extends ToolId>(tool: T, sources: SourcesFor<T>, options: RunOptions = {}): ToolPlan {
  return { tool, sources: sources as Sources, options }
}

/**
 * Where a run of a tool shows itself: a tool page's <body> (data-task, #status, #report), or
 * one tool's section of the run page (probes/entries/run.ts).
 */
export interface Slot {
  /** The single-use nonce the server rendered for this tool's run. */
  nonce: string | undefined
  status(text: string): void
  stored(taskId: string): void
  report(html: string): void
  failed(): void
}

function pageSlot(): Slot {
  const status = (text: string) => {
    const el = document.getElementById('status')
    if (el) el.textContent = text
  }
  return {
    nonce: document.body.dataset.nonce,
    status,
    stored(taskId) {
      document.body.dataset.task = taskId
    },
    report(html) {
      const target = document.getElementById('report')
      // The report is HTML the server rendered with every value escaped.
      if (target) target.innerHTML = html
      // A link to a check (#check-…) opens its folded table, now that the report is here.
      openHashTarget()
    },
    failed() {
      document.body.dataset.error = 'true'
    },
  }
}

export async function runToolPage(plan: ToolPlan): Promise<void> {
  watchHashTargets()
  await runPlan(plan, pageSlot())
}

/**
 * Collects the plan's signals, submits them under the slot's nonce, and shows the server's
 * report. Resolves with the task id, or null when the run could not be completed (said in the
 * slot). `report: 'later'` leaves the report to the caller (the run page fetches the reports
 * once every task is stored); it then gets the body to ask for it with.
 */
export async function runPlan(plan: ToolPlan, slot: Slot, opts: { report?: 'now' | 'later' } = {}): Promise<{ taskId: string; body: string } | null> {
  const { tool, sources, options } = plan
  try {
    slot.status('Running tests in this browser…')
    // The single-use nonce the server rendered for this run: it ties the listeners' evidence
    // (TLS, STUN/TURN, DNS) to this submission, and the page's layout challenge is derived
    // from it (the proof that this page load ran in a browser engine, common/page-proof.ts).
    const { nonce } = slot
    const signals: Record<string, unknown> = await collect(sources, options.timeoutMs ?? 3000)
    if ((PROOF_TOOLS as readonly string[]).includes(tool)) signals.proof = await runSource(() => pageProof(nonce), options.timeoutMs ?? 3000)
    const results = { ...(options.extra?.(signals) ?? {}), signals }
    const body = JSON.stringify(nonce ? { tool, results, nonce } : { tool, results })
    const res = await fetch('/api/antibot/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const answer = (await res.json()) as { task_id?: string; error?: string }
    if (!res.ok || !answer.task_id) throw new Error(answer.error ?? `HTTP ${res.status}`)
    slot.stored(answer.task_id)
    // Said to a person: the task's id is in data-task (the page's body, or the /run section).
    slot.status('Done: the tests ran and their results were stored.')
    if (opts.report !== 'later' && !(await showReport(tool, body, slot))) slot.status('Done: the tests ran and their results were stored, but the report could not be loaded here. Reloading the page runs the tests again.')
    return { taskId: answer.task_id, body }
  } catch (e) {
    slot.status(`The tests could not be completed: ${e instanceof Error ? e.message : String(e)}`)
    slot.failed()
    return null
  }
}

/** Waits before each new attempt at a report whose request the network failed. */
const REPORT_RETRY_MS = [500, 1500]

/**
 * Asks the server to judge the stored run again and shows its report; false when it could not.
 * A request the network failed (a laptop changing networks, a VPN coming up: Chromium fails
 * what is in flight with ERR_NETWORK_CHANGED) is asked again, twice at most: the report stores
 * nothing, so asking again is safe. An answer of the server's is taken as it is.
 */
export async function showReport(tool: string, body: string, slot: Pick<Slot, 'report'>): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    let report: Response
    try {
      report = await fetch(`/tools/${tool}/report`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    } catch {
      const wait = REPORT_RETRY_MS[attempt]
      if (wait === undefined) return false
      await new Promise((resolve) => setTimeout(resolve, wait))
      continue
    }
    if (!report.ok) return false
    try {
      slot.report(await report.text())
      return true
    } catch {
      return false
    }
  }
}

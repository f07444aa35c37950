// Two runs, or two tasks, side by side (issue 47): per tool, the checks whose verdict changed,
// the failures the head has that the base had not (new) and the other way round (fixed), the
// identity values that changed (user agent, JA4, HTTP/2 fingerprint, visitor id, canvas and
// audio values), and whether both sides were judged under one ruleset. What
// `GET /api/antibot/compare?base=…&head=…` serves and `npm run scan -- … --baseline` gates on.
//
// Decisions:
// - A failure is a check with verdict `fail`. A `warn` is not one: a person's browser warns now
//   and then (a field trial, a slow machine), and a CI gate on warnings would flap. Warnings that
//   appear are listed apart, in `new_warnings`; a check going from `fail` to `warn` is a fixed
//   failure, and from `warn` to `fail` a new one.
// - Checks are compared by id within one tool, and only for tools present on both sides. A tool
//   present on one side only is listed with the other side null and no check lists: its
//   failures are neither new nor fixed (a task compared with a run would otherwise count the
//   13 other tools' failures as new).
// - A check present on one side only (the ruleset added or retired it) counts as `null` there:
//   it is `changed` unless the other side's verdict is `na` (not run and could not apply say
//   the same), and a `fail` against nothing is a new (or fixed) failure. `same_ruleset` false
//   says why such checks come and go.
// - `same_ruleset` is true only when at least one tool is on both sides and every such tool's
//   results carry the same `ruleset`; a task without one (stored before rulesets) makes it false.
// - Identity values are read from the tool that holds them, for tools on both sides; a value
//   missing on a side (an untested tls-fingerprint, a noised canvas) is null there, and a
//   change between null and a value is a change. The user agent is the task's `user_agent`,
//   of the first tool (in the registry's order, bot-detector first) present on both sides.
//
// Pure: takes the tasks as GET /api/antibot/tasks/{id} serves them (results parsed, checks with
// their names put back: src/core/check-text.ts hydrateResults) and returns plain JSON data.

import { TOOL_IDS, type ToolId } from '../../common/tools'
import type { Verdict } from './scoring'
import { taskVerdict, type TaskVerdict } from './task-verdict'

/** A task as the task endpoint serves it; only these members are read. */
export interface ComparedTask {
  task_id: string
  tool: string
  score: number
  user_agent: string
  results: Readonly<Record<string, unknown>>
}

/** One side of a comparison: a run's tasks, or a single task. */
export interface ComparedSide {
  id: string
  kind: 'run' | 'task'
  tasks: readonly ComparedTask[]
}

export interface CheckRef {
  id: string
  name: string
}

export interface CheckChange extends CheckRef {
  /** null: the check is not in that side's results. */
  base: Verdict | null
  head: Verdict | null
}

export interface TaskSummary {
  score: number
  verdict: TaskVerdict
}

export interface ToolComparison {
  tool: string
  base_task_id: string | null
  head_task_id: string | null
  base: TaskSummary | null
  head: TaskSummary | null
  ruleset: { base: string | null; head: string | null; same: boolean }
  changed: CheckChange[]
  new_failures: CheckRef[]
  fixed_failures: CheckRef[]
  new_warnings: CheckRef[]
}

export const IDENTITY_IDS = ['user_agent', 'ja4', 'http2', 'visitor_id', 'canvas_hash', 'audio_sum'] as const
export type IdentityId = (typeof IDENTITY_IDS)[number]

export interface IdentityChange {
  id: IdentityId
  name: string
  tool: string
  base: string | null
  head: string | null
}

export interface Comparison {
  base: { id: string; kind: 'run' | 'task' }
  head: { id: string; kind: 'run' | 'task' }
  same_ruleset: boolean
  tools: ToolComparison[]
  /** Only the values that differ. */
  identity: IdentityChange[]
  /** Totals over `tools`. */
  changed: number
  new_failures: number
  fixed_failures: number
  new_warnings: number
}

type Results = ComparedTask['results']

/** The member at `path` if it is a string (empty means nothing was read: null), or a finite number as text. */
function member(results: Results, ...path: string[]): string | null {
  let v: unknown = results
  for (const key of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return null
    v = (v as Record<string, unknown>)[key]
  }
  if (typeof v === 'string') return v === '' ? null : v
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return null
}

interface IdentityDef {
  id: IdentityId
  name: string
  /** The tool whose results hold it; null: the task's own user_agent, of the first common tool. */
  tool: ToolId | null
  read: (task: ComparedTask) => string | null
}

/** Where each identity value lives in stored results (the tools' `addSections`). */
export const IDENTITY: readonly IdentityDef[] = [
  { id: 'user_agent', tool: null, name: 'User agent', read: (t) => (t.user_agent === '' ? null : t.user_agent) },
  // src/core/tools/tls-fingerprint.ts: tls.ja4 and http2.akamai, null when the handshake was not seen.
  { id: 'ja4', tool: 'tls-fingerprint', name: 'JA4', read: (t) => member(t.results, 'tls', 'ja4') },
  { id: 'http2', tool: 'tls-fingerprint', name: 'HTTP/2 fingerprint (Akamai)', read: (t) => member(t.results, 'http2', 'akamai') },
  // src/core/tools/browser-fingerprint.ts: the hash of the stable components.
  { id: 'visitor_id', tool: 'browser-fingerprint', name: 'Visitor id', read: (t) => member(t.results, 'fingerprint', 'visitorId') },
  // canvas-fingerprint's canvas.hash is null when the pixels were noised or blocked; bot-detector's
  // is "farbled" then, and empty when the canvas could not be read.
  { id: 'canvas_hash', tool: 'canvas-fingerprint', name: 'Canvas hash', read: (t) => member(t.results, 'canvas', 'hash') },
  { id: 'canvas_hash', tool: 'bot-detector', name: 'Canvas hash', read: (t) => member(t.results, 'canvas', 'hash') },
  // src/core/tools/audio-fingerprint.ts: the FingerprintJS audio sum (a number), null when noised.
  { id: 'audio_sum', tool: 'audio-fingerprint', name: 'Audio fingerprint (sum)', read: (t) => member(t.results, 'audio', 'sum') },
]

interface CheckLike {
  id: string
  name: string
  verdict: Verdict
}

const VERDICT_SET: ReadonlySet<unknown> = new Set<Verdict>(['pass', 'warn', 'fail', 'na'])

/** The results' checks that have an id and a verdict (the first of an id repeated). */
function checksOf(results: Results): Map<string, CheckLike> {
  const out = new Map<string, CheckLike>()
  const list = results.checks
  if (!Array.isArray(list)) return out
  for (const c of list) {
    if (c === null || typeof c !== 'object') continue
    const { id, name, verdict } = c as Record<string, unknown>
    if (typeof id !== 'string' || !VERDICT_SET.has(verdict) || out.has(id)) continue
    out.set(id, { id, name: typeof name === 'string' ? name : id, verdict: verdict as Verdict })
  }
  return out
}

function rulesetOf(task: ComparedTask | undefined): string | null {
  const r = task?.results.ruleset
  return typeof r === 'string' && r !== '' ? r : null
}

function summaryOf(task: ComparedTask): TaskSummary {
  return { score: task.score, verdict: taskVerdict(task.tool as ToolId, task.results, task.score) }
}

/** The tasks of a side by tool, the first of a tool repeated. */
function byTool(tasks: readonly ComparedTask[]): Map<string, ComparedTask> {
  const out = new Map<string, ComparedTask>()
  for (const t of tasks) if (!out.has(t.tool)) out.set(t.tool, t)
  return out
}

function compareChecks(base: ComparedTask, head: ComparedTask): Pick<ToolComparison, 'changed' | 'new_failures' | 'fixed_failures' | 'new_warnings'> {
  const b = checksOf(base.results)
  const h = checksOf(head.results)
  const changed: CheckChange[] = []
  const newFailures: CheckRef[] = []
  const fixedFailures: CheckRef[] = []
  const newWarnings: CheckRef[] = []
  // The head's order, then the checks only the base has, in its order.
  const ids = [...h.keys(), ...[...b.keys()].filter((id) => !h.has(id))]
  for (const id of ids) {
    const bc = b.get(id)
    const hc = h.get(id)
    const bv = bc?.verdict ?? null
    const hv = hc?.verdict ?? null
    if ((bv ?? 'na') === (hv ?? 'na')) continue
    const ref = { id, name: hc?.name ?? bc!.name }
    changed.push({ ...ref, base: bv, head: hv })
    if (hv === 'fail') newFailures.push(ref)
    else if (bv === 'fail') fixedFailures.push(ref)
    if (hv === 'warn' && bv !== 'fail') newWarnings.push(ref)
  }
  return { changed, new_failures: newFailures, fixed_failures: fixedFailures, new_warnings: newWarnings }
}

const noChecks = () => ({ changed: [], new_failures: [], fixed_failures: [], new_warnings: [] })

function identityChanges(common: readonly string[], base: Map<string, ComparedTask>, head: Map<string, ComparedTask>): IdentityChange[] {
  const out: IdentityChange[] = []
  for (const def of IDENTITY) {
    const tool = def.tool ?? common[0]
    if (tool === undefined || !common.includes(tool)) continue
    const bv = def.read(base.get(tool)!)
    const hv = def.read(head.get(tool)!)
    if (bv !== hv) out.push({ id: def.id, name: def.name, tool, base: bv, head: hv })
  }
  return out
}

/** The comparison of `head` against `base` (see the decisions at the top of this file). */
export function compareRuns(base: ComparedSide, head: ComparedSide): Comparison {
  const b = byTool(base.tasks)
  const h = byTool(head.tasks)
  // The registry's order, then tools it does not know, as they come.
  const known = TOOL_IDS.filter((t) => b.has(t) || h.has(t))
  const unknown = [...new Set([...b.keys(), ...h.keys()])].filter((t) => !(TOOL_IDS as readonly string[]).includes(t))
  const tools: ToolComparison[] = [...known, ...unknown].map((tool) => {
    const bt = b.get(tool)
    const ht = h.get(tool)
    const rb = rulesetOf(bt)
    const rh = rulesetOf(ht)
    return {
      tool,
      base_task_id: bt?.task_id ?? null,
      head_task_id: ht?.task_id ?? null,
      base: bt ? summaryOf(bt) : null,
      head: ht ? summaryOf(ht) : null,
      ruleset: { base: rb, head: rh, same: rb !== null && rb === rh },
      ...(bt && ht ? compareChecks(bt, ht) : noChecks()),
    }
  })
  const both = tools.filter((t) => t.base && t.head)
  const total = (k: 'changed' | 'new_failures' | 'fixed_failures' | 'new_warnings') => tools.reduce((n, t) => n + t[k].length, 0)
  return {
    base: { id: base.id, kind: base.kind },
    head: { id: head.id, kind: head.kind },
    same_ruleset: both.length > 0 && both.every((t) => t.ruleset.same),
    tools,
    identity: identityChanges(both.map((t) => t.tool), b, h),
    changed: total('changed'),
    new_failures: total('new_failures'),
    fixed_failures: total('fixed_failures'),
    new_warnings: total('new_warnings'),
  }
}

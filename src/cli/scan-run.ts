// The run modes of the sample client (`npm run scan -- run …` and `-- --run <id> …`,
// src/cli/scan.ts), without the browser and the network: reading the API's answers, judging the
// expectation, choosing the exit code, and the table. docs/ci.md documents what is decided here.
//
// - `--expect human|bot` is judged on bot-detector's verdict alone (results.verdict, through
//   taskVerdict: `untested` when its evidence was missing). `suspicious` meets neither: a gate
//   that asks "seen as a person?" must not pass on "not sure". The other tools' failed checks are
//   in the table but decide nothing: a person's browser fails a check here and there (a VPN, a
//   privacy extension), and bot-detector already weighs what makes a browser look automated.
// - `--expect signed-agent` (issue 60) is met when bot-detector's request carried a verified Web
//   Bot Auth signature (results.server.agent.state): a signing agent's builder asks "was my
//   signature accepted?", whatever the verdict (a verified agent is a bot by its own word).
// - `--baseline` fails the run on a new failure (a check at `fail` now that was not then,
//   src/core/compare.ts); new warnings, changed identity values and another ruleset are shown,
//   not gated on.
// - Several problems, one exit code: the first of incomplete (9: a run missing tools is no
//   basis for the rest), expectation (7: the question the caller asked), regression (8).
//   `problems` in the JSON lists all of them.

import type { Comparison, ComparedTask } from '../core/compare'
import { taskVerdict, type TaskVerdict } from '../core/task-verdict'
import type { ToolId } from '../../common/tools'
import { EXIT, type Expectation } from './scan-args'

/** A task of a run as GET /api/antibot/runs/{id} serves it (the task endpoint's shape). */
export interface RunTask extends ComparedTask {
  ip_address: string
  created_at: string
}

/** GET /api/antibot/runs/{id}. */
export interface RunBody {
  run_id: string
  created_at: string
  complete: boolean
  tools: string[]
  tasks: RunTask[]
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** What is missing from an answer that should be a run; null when nothing is. */
function notARun(body: unknown): string | null {
  if (!isObject(body)) return 'it is not an object'
  if (typeof body.run_id !== 'string') return 'it has no run_id'
  if (typeof body.complete !== 'boolean') return 'it has no complete'
  if (!Array.isArray(body.tools) || !body.tools.every((t) => typeof t === 'string')) return 'it has no tools list'
  if (!Array.isArray(body.tasks)) return 'it has no tasks list'
  const bad = body.tasks.findIndex((t) => !isObject(t) || typeof t.task_id !== 'string' || typeof t.tool !== 'string' || typeof t.score !== 'number' || !isObject(t.results))
  return bad < 0 ? null : `its task ${bad} is not a task (task_id, tool, score and results)`
}

/** The run endpoint's answer, checked for what this client reads; throws saying what is wrong. */
export function parseRun(body: unknown): RunBody {
  const why = notARun(body)
  if (why) throw new Error(`Cannot read the run: ${why}`)
  return body as RunBody
}

/** The comparison endpoint's answer, checked for what this client reads; throws saying what is wrong. */
export function parseComparison(body: unknown): Comparison {
  if (!isObject(body) || !Array.isArray(body.tools) || typeof body.new_failures !== 'number' || !Array.isArray(body.identity) || typeof body.same_ruleset !== 'boolean') {
    throw new Error('Cannot read the comparison: the answer has no tools, identity, same_ruleset or new_failures')
  }
  return body as unknown as Comparison
}

const verdictOf = (t: RunTask): TaskVerdict => taskVerdict(t.tool as ToolId, t.results, t.score)

export interface ExpectationResult {
  expected: Expectation
  /** bot-detector's verdict; null when the run has no bot-detector task. */
  verdict: TaskVerdict | null
  task_id: string | null
  met: boolean
  /**
   * `--expect signed-agent` (issue 60): bot-detector's results.server.agent as stored (state,
   * the agent's name, why not verified); null when its request carried no signature.
   */
  agent?: { state: string; agent: string | null; reason: string | null } | null
}

/** bot-detector's results.server.agent, as far as the expectation reads it. */
function agentOf(t: RunTask | undefined): ExpectationResult['agent'] {
  const server = t?.results.server
  const a = isObject(server) ? server.agent : undefined
  if (!isObject(a) || typeof a.state !== 'string') return null
  return { state: a.state, agent: typeof a.agent === 'string' ? a.agent : null, reason: typeof a.reason === 'string' ? a.reason : null }
}

/** How the expectation's finding is said: bot-detector's verdict, or what its signature was. */
function saidOf(e: ExpectationResult): string {
  if (e.verdict === null) return 'the run has no bot-detector task'
  if (e.expected !== 'signed-agent') return `bot-detector says ${e.verdict}`
  const a = e.agent
  if (!a) return "bot-detector's request carried no agent signature"
  return a.state === 'verified' ? `signed by ${a.agent ?? 'an agent'} (verified)` : `its agent signature is ${a.state}${a.reason ? `: ${a.reason}` : ''}`
}

/** Whether bot-detector's verdict is the expected word (see the top of this file). */
export function judgeExpectation(run: Pick<RunBody, 'tasks'>, expected: Expectation): ExpectationResult {
  const bot = run.tasks.find((t) => t.tool === 'bot-detector')
  const verdict = bot ? verdictOf(bot) : null
  if (expected === 'signed-agent') {
    const agent = agentOf(bot)
    return { expected, verdict, task_id: bot?.task_id ?? null, met: agent?.state === 'verified', agent }
  }
  return { expected, verdict, task_id: bot?.task_id ?? null, met: verdict === expected }
}

export const PROBLEMS = ['incomplete', 'expectation', 'regression'] as const
export type Problem = (typeof PROBLEMS)[number]

/** What is wrong with the run, in the order the exit code picks from. */
export function problemsOf(run: Pick<RunBody, 'complete'>, expectation: ExpectationResult | null, comparison: Pick<Comparison, 'new_failures'> | null): Problem[] {
  const out: Problem[] = []
  if (!run.complete) out.push('incomplete')
  if (expectation && !expectation.met) out.push('expectation')
  if (comparison && comparison.new_failures > 0) out.push('regression')
  return out
}

/** The exit code: 0, or the first problem's. */
export function exitFor(problems: readonly Problem[]): number {
  const first = problems[0]
  return first === undefined ? EXIT.ok : EXIT[first]
}

/** The `--json` output: one object. */
export interface RunReport {
  run: RunBody
  comparison?: Comparison
  expectation?: ExpectationResult
  ok: boolean
  exit_code: number
  problems: Problem[]
}

export function runReport(run: RunBody, expectation: ExpectationResult | null, comparison: Comparison | null): RunReport {
  const problems = problemsOf(run, expectation, comparison)
  return {
    run,
    ...(comparison ? { comparison } : {}),
    ...(expectation ? { expectation } : {}),
    ok: problems.length === 0,
    exit_code: exitFor(problems),
    problems,
  }
}

const failedChecks = (t: RunTask): number => {
  const checks = t.results.checks
  if (Array.isArray(checks)) return checks.filter((c) => isObject(c) && c.verdict === 'fail').length
  const summary = t.results.summary
  return isObject(summary) && typeof summary.failed === 'number' ? summary.failed : 0
}

/** Columns padded to their widest cell; the numeric ones right-aligned. */
function table(head: string[], rows: string[][], right: ReadonlySet<number>): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()
  return [line(head), ...rows.map(line)].join('\n')
}

const shown = (v: string | null) => (v === null ? '(none)' : v)

/** What `scan` prints without --json: the run's tools, then what the comparison and the expectation found, then the result. */
export function renderReport(report: RunReport): string {
  const { run, comparison, expectation } = report
  const stored = new Set(run.tasks.map((t) => t.tool))
  const out: string[] = []
  out.push(`Run ${run.run_id}, ${run.created_at}: ${run.complete ? 'complete' : 'NOT complete'}, ${run.tools.filter((t) => stored.has(t)).length} of ${run.tools.length} tools stored`)
  if (comparison) out.push(`Compared with ${comparison.base.kind} ${comparison.base.id}: ${comparison.same_ruleset ? 'judged under the same rulesets' : 'rulesets differ (the service changed its rules, or a side predates rulesets): some changes may be the rules’, not the browser’s'}`)
  out.push('')

  const byTool = new Map(comparison?.tools.map((t) => [t.tool, t]))
  const head = ['TOOL', 'SCORE', 'VERDICT', 'FAILED', ...(comparison ? ['CHANGED', 'FIXED', 'NEW FAILURES'] : [])]
  const tools = [...run.tools, ...run.tasks.map((t) => t.tool).filter((t) => !run.tools.includes(t))]
  const rows = tools.map((tool) => {
    const task = run.tasks.find((t) => t.tool === tool)
    if (!task) return [tool, '-', 'not stored', '-', ...(comparison ? ['-', '-', '-'] : [])]
    const row = [tool, String(task.score), verdictOf(task), String(failedChecks(task))]
    if (comparison) {
      const c = byTool.get(tool)
      if (!c?.base) row.push('-', '-', 'not in baseline')
      else row.push(String(c.changed.length), String(c.fixed_failures.length), c.new_failures.map((f) => f.id).join(', ') || '-')
    }
    return row
  })
  out.push(table(head, rows, new Set([1, 3, 4, 5])))

  if (comparison) {
    out.push('')
    out.push(`Against the baseline: ${comparison.new_failures} new failures, ${comparison.fixed_failures} fixed, ${comparison.new_warnings} new warnings, ${comparison.changed} checks changed`)
    if (comparison.identity.length) {
      out.push('Identity changed:')
      for (const i of comparison.identity) out.push(`  ${i.name} (${i.tool}): ${shown(i.base)} -> ${shown(i.head)}`)
    } else out.push('Identity: unchanged')
  }
  if (expectation) {
    out.push(`Expected ${expectation.expected}: ${saidOf(expectation)}${expectation.met ? '' : ' (not met)'}`)
  }
  out.push('')
  out.push(report.ok ? 'Result: ok' : `Result: FAILED, exit ${report.exit_code}: ${report.problems.map((p) => PROBLEM_TEXT[p](report)).join('; ')}`)
  return out.join('\n')
}

const PROBLEM_TEXT: Record<Problem, (r: RunReport) => string> = {
  incomplete: (r) => `the run is not complete (${r.run.tasks.length} of ${r.run.tools.length} tools stored)`,
  expectation: (r) => (r.expectation!.expected === 'signed-agent' ? `expected signed-agent, ${saidOf(r.expectation!)}` : `expected ${r.expectation!.expected}, bot-detector says ${r.expectation!.verdict ?? 'nothing (no task)'}`),
  regression: (r) => `${r.comparison!.new_failures} new failures against the baseline`,
}

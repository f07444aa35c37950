// The tools matrix's verdicts (tools.ts): what a person and a spoofer must get on the 14 tool
// pages, and the Markdown table. Pure, so the rule that fails CI is unit-tested.

import { HUMAN_MIN_SCORE } from './report'

/** A person: no failed check and at least this score on every tool. */
export const PERSON_MIN_SCORE = 80
/**
 * bot-detector's task of a person is also held to the detection matrix's rule (report.ts): the
 * verdict `human`, the score at least HUMAN_MIN_SCORE. The detection matrix in the gate runs a
 * few people (tests/matrix/run.ts); every person meets bot-detector here, on both transports.
 */
export const BOT_DETECTOR_TOOL = 'bot-detector'
/** A spoofer: caught (scored under PERSON_MIN_SCORE) by at least this many tools. */
export const SPOOFER_MIN_CAUGHT = 5

export type VisitorKind = 'person' | 'spoofer'

/** One tool page as one visitor got it: its task's score and findings, or why there is none. */
export interface Cell {
  tool: string
  /** How the visitor reached the page: its browser's first page, typed after another, reloaded, or in the run page (/run). */
  how?: 'first' | 'typed' | 'reload' | 'run'
  score: number | null
  /** The task's verdict (`results.verdict`), where its tool gives one (bot-detector). */
  verdict?: string | null
  failed: string[]
  warned: string[]
  error: string | null
}

export interface Column {
  /** The visitor's id, and the transport after an @ (person@https). */
  id: string
  transport?: 'https' | 'http'
  name: string
  kind: VisitorKind
  cells: Cell[]
  /** Per tool, checks a person's task of it must warn (or fail), e.g. tls-interception behind an inspecting proxy. */
  mustFind?: Record<string, readonly string[]>
}

/** Why this cell fails a person (null when it is fine, and always for a spoofer's cell); `mustFind`: checks it must warn. */
export function personProblem(c: Cell, mustFind: readonly string[] = []): string | null {
  if (c.error !== null || c.score === null) return `no result: ${c.error ?? 'no task'}`
  if (c.failed.length) return `failed ${c.failed.join(', ')}`
  if (c.score < PERSON_MIN_SCORE) return `score ${c.score} < ${PERSON_MIN_SCORE}`
  if (c.tool === BOT_DETECTOR_TOOL) {
    if (c.verdict !== 'human') return `verdict ${c.verdict ?? 'none'}, expected human`
    if (c.score < HUMAN_MIN_SCORE) return `score ${c.score} < ${HUMAN_MIN_SCORE}`
  }
  const unfound = mustFind.filter((id) => !c.warned.includes(id))
  if (unfound.length) return `no ${unfound.join(', ')} warning`
  return null
}

/** The tools that caught a spoofer: scored it under PERSON_MIN_SCORE. */
export function caughtBy(col: Pick<Column, 'cells'>): string[] {
  return col.cells.filter((c) => c.score !== null && c.score < PERSON_MIN_SCORE).map((c) => c.tool)
}

/** What fails the run for this visitor, one line each (empty when it passes). */
export function columnProblems(col: Column): string[] {
  if (col.kind === 'person') {
    return col.cells.flatMap((c) => {
      const problem = personProblem(c, col.mustFind?.[c.tool])
      return problem ? [`${col.id} on ${c.tool}${c.how === 'reload' ? ' (reloaded)' : c.how === 'run' ? ' (in /run)' : ''}: ${problem}`] : []
    })
  }
  const errors = col.cells.filter((c) => c.error !== null).map((c) => `${col.id} on ${c.tool}: no result: ${c.error}`)
  const caught = caughtBy(col)
  return caught.length >= SPOOFER_MIN_CAUGHT ? errors : [...errors, `${col.id}: caught by ${caught.length} tools (${caught.join(', ') || 'none'}), expected at least ${SPOOFER_MIN_CAUGHT}`]
}

const esc = (s: string) => s.replace(/\|/g, '\\|')

function cellText(c: Cell | undefined, kind: VisitorKind, mustFind?: Column['mustFind']): string {
  if (!c) return '—'
  if (c.error !== null || c.score === null) return `✗ ${esc(c.error ?? 'no task').slice(0, 80)}`
  const mark = kind === 'person' ? (personProblem(c, mustFind?.[c.tool]) ? ' ✗' : '') : c.score < PERSON_MIN_SCORE ? ' ⚑' : ''
  const parts = [`**${c.score}**${mark}`]
  if (c.failed.length) parts.push(`fail: ${c.failed.join(', ')}`)
  if (c.warned.length) parts.push(`warn: ${c.warned.join(', ')}`)
  return parts.join('<br>')
}

/** The run page's tasks of a visitor in one cell: how many were fine, and each one that was not. */
function runText(col: Column): string {
  const cells = col.cells.filter((c) => c.how === 'run')
  if (!cells.length) return '—'
  const bad = cells.filter((c) => (col.kind === 'person' ? personProblem(c, col.mustFind?.[c.tool]) !== null : c.error !== null))
  const scores = cells.filter((c) => c.score !== null).map((c) => c.score!)
  const head = `${cells.length - bad.length} of ${cells.length} fine${scores.length ? `, scores ${Math.min(...scores)}–${Math.max(...scores)}` : ''}`
  return [head, ...bad.map((c) => `${c.tool}: ${cellText(c, col.kind, col.mustFind).replace(/<br>/g, '; ')}`)].join('<br>')
}

/**
 * Tool × visitor: score (✗ a person's problem, ⚑ a tool that caught a spoofer, ① the visitor's
 * first page), failed and warned check ids; then the page each person reloaded, and the run
 * page's tasks.
 */
export function toolsTable(tools: readonly string[], cols: readonly Column[]): string {
  const lines = [`| tool | ${cols.map((c) => esc(c.id)).join(' | ')} |`, `|---|${cols.map(() => '---').join('|')}|`]
  const first = (c: Cell | undefined) => (c?.how === 'first' ? ' ①' : '')
  for (const tool of tools) {
    lines.push(`| ${tool} | ${cols.map((col) => { const c = col.cells.find((x) => x.tool === tool && x.how !== 'reload' && x.how !== 'run'); return `${cellText(c, col.kind, col.mustFind)}${first(c)}` }).join(' | ')} |`)
  }
  if (cols.some((col) => col.cells.some((c) => c.how === 'reload'))) {
    lines.push(`| *reloaded* | ${cols.map((col) => { const c = col.cells.find((x) => x.how === 'reload'); return c ? `${c.tool}: ${cellText(c, col.kind, col.mustFind)}` : '—' }).join(' | ')} |`)
  }
  if (cols.some((col) => col.cells.some((c) => c.how === 'run'))) lines.push(`| *in /run* | ${cols.map((col) => runText(col)).join(' | ')} |`)
  const foot = cols.map((col) => (col.kind === 'spoofer' ? `caught by ${caughtBy(col).length}` : columnProblems(col).length ? `${columnProblems(col).length} problem(s)` : 'ok'))
  lines.push(`| **result** | ${foot.join(' | ')} |`)
  return lines.join('\n')
}

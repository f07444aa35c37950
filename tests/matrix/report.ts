// The detection matrix's verdicts: what each client is expected to be, whether the service's
// answer meets it, and the Markdown table printed and kept in the README. Pure, so the rule
// that fails CI is unit-tested (report.test.ts).

export type Expected = 'bot' | 'human'

/** What one client's run produced: the task as fetched through the API, or why there is none. */
export interface Row {
  client: string
  /** How the client reached the page: HTTPS with a trusted certificate, or plain HTTP. */
  transport?: 'https' | 'http'
  expected: Expected
  /** null when the client produced no task (error says why). */
  verdict: string | null
  score: number | null
  frameworks: string[]
  /** Frameworks this client must be recognised as (e.g. phantomjs for the PhantomJS page). */
  mustName: string[]
  /** Checks that must fail or warn (warn on a person: a failed check fails a person anyway). */
  mustFind?: string[]
  taskId: string | null
  seconds: number
  error: string | null
  /** The checks that failed or warned, "id (verdict)", for the JSON record. */
  findings: string[]
  /** Runs it took (more than one only for a client judged on its input, run.ts). */
  attempts?: number
  /** Why this row says nothing either way (its input never judged on a loaded machine); not a failure. */
  inconclusive?: string
}

/**
 * A bot must come out `bot` with score ≤ 40; a person `human` with score ≥ 90 and no failed check:
 * a check that fails on a person's browser is a false positive even when the score survives it.
 */
export const BOT_MAX_SCORE = 40
export const HUMAN_MIN_SCORE = 90

/** Why this row fails the matrix, or null when it passes. */
export function rowProblem(r: Pick<Row, 'expected' | 'verdict' | 'score' | 'frameworks' | 'mustName' | 'mustFind' | 'error' | 'findings'>): string | null {
  if (r.error !== null || r.verdict === null || r.score === null) return `no result: ${r.error ?? 'no task'}`
  if (r.expected === 'bot') {
    if (r.verdict !== 'bot') return `verdict ${r.verdict}, expected bot`
    if (r.score > BOT_MAX_SCORE) return `score ${r.score}, expected ≤ ${BOT_MAX_SCORE}`
  } else {
    if (r.verdict !== 'human') return `verdict ${r.verdict}, expected human`
    if (r.score < HUMAN_MIN_SCORE) return `score ${r.score}, expected ≥ ${HUMAN_MIN_SCORE}`
    const failed = r.findings.filter((f) => f.endsWith(' (fail)')).map((f) => f.slice(0, -' (fail)'.length))
    if (failed.length) return `failed ${failed.join(', ')}`
  }
  const unnamed = r.mustName.filter((f) => !r.frameworks.includes(f))
  if (unnamed.length) return `frameworks do not name ${unnamed.join(', ')}`
  const unfound = (r.mustFind ?? []).filter((id) => !r.findings.some((f) => f.startsWith(`${id} (`)))
  if (unfound.length) return `no ${unfound.join(', ')} finding`
  return null
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The Markdown table: client → verdict, score, frameworks, failed and warned checks, and whether the row passes. */
export function markdownTable(rows: readonly Row[]): string {
  const lines = ['| client | over | expected | verdict | score | frameworks | failed / warned | |', '|---|---|---|---|---|---|---|---|']
  for (const r of rows) {
    const problem = rowProblem(r)
    const mark = problem && r.inconclusive ? `? ${cell(r.inconclusive)}` : problem ? `✗ ${cell(problem)}` : '✓'
    lines.push(
      `| ${cell(r.client)} | ${r.transport ?? '—'} | ${r.expected} | ${r.verdict ?? '—'} | ${r.score ?? '—'} | ${cell(r.frameworks.join(', ') || '—')} | ${cell(r.findings.join(', ') || '—')} | ${mark} |`,
    )
  }
  return lines.join('\n')
}

// The report a tool page shows after it has submitted (POST /tools/<tool>/report renders it
// from the same judgement the task stored): the headline, the tool's picture where one says
// more than the table, and every check. The headline tells the truth: a task whose main
// evidence was not collected (results.tested false) says "Not tested", why and where to test
// it, instead of a score. The checks table is one block per check on narrow screens (app.css);
// under it, in small print, the ruleset that judged the task (src/core/ruleset.ts).

import type { ToolId } from '../../common/tools'
import type { Check } from '../core/scoring'
import type { ReportResults } from './report-results'

export type { ReportResults }
import { Breakable } from './breakable'
import { ToolPicture } from './pictures'
import { UniquenessPicture } from './pictures/uniqueness'
import type { Uniqueness } from '../core/uniqueness'
import { TableHead } from './table-head'


function observedText(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v)
  if (s === undefined) return '—'
  return s.length > 400 ? `${s.slice(0, 400)}…` : s
}

export function verdictLabel(score: number): string {
  if (score >= 80) return 'Looks like an ordinary, consistent browser'
  if (score > 40) return 'Suspicious: some checks failed'
  return 'Automation, spoofing or leaks detected'
}

const COLUMNS = ['Check', 'Verdict', 'Observed', 'Expected', 'Why it matters'] as const
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

function Headline(props: { results: ReportResults }): JSX.Element {
  const { summary, checks, untested } = props.results
  const frameworks = Array.isArray(props.results.frameworks) ? props.results.frameworks.filter((f): f is string => typeof f === 'string') : []
  const verdict = typeof props.results.verdict === 'string' ? props.results.verdict : verdictLabel(summary.score)
  const counts = `${summary.passed} passed · ${summary.warnings} warnings · ${summary.failed} failed · ${checks.length - summary.total} not applicable`
  return (
    <div class="headline">
      {untested ? (
        <div class="score-box" data-untested>
          <div class="score not-tested">Not tested</div>
        </div>
      ) : (
        <div class="score-box">
          <div class="score" safe>
            {String(summary.score)}
          </div>
          <div class="muted">score out of 100</div>
        </div>
      )}
      <div class="headline-text">
        {untested ? (
          <>
            <p class="untested-reason" safe>
              {`${capital(untested.reason)}.`}
            </p>
            {untested.url ? (
              <p data-untested-link>
                {'Test it: '}
                <a href={untested.url} safe>
                  {untested.url}
                </a>
              </p>
            ) : (
              ''
            )}
            <p class="muted" safe>
              {`Only what could run was judged (${counts}); the API gives it score ${summary.score} with results.tested false.`}
            </p>
          </>
        ) : (
          <>
            <p class="verdict">
              <strong safe>{verdict}</strong>
            </p>
            <p class="muted" safe>
              {counts}
            </p>
          </>
        )}
        {frameworks.length ? (
          <div class="frameworks" data-frameworks>
            <span class="muted">Recognised: </span>
            <ul class="badges" aria-label="Automation recognised">
              {frameworks.map((f) => (
                <li class="badge v-fail" safe>
                  {f}
                </li>
              ))}
            </ul>
          </div>
        ) : (
          ''
        )}
      </div>
    </div>
  )
}

export function ChecksTable(props: { checks: readonly Check[] }): JSX.Element {
  const order = { fail: 0, warn: 1, pass: 2, na: 3 } as const
  const sorted = [...props.checks].sort((a, b) => order[a.verdict] - order[b.verdict] || b.points - a.points)
  return (
    <table class="checks">
      <caption class="muted">
        Each check, worst first. “Client” values come from the page and could be spoofed; “server” values were observed by
        the service.
      </caption>
      <TableHead columns={COLUMNS} />
      <tbody>
        {sorted.map((c) => (
          <tr id={`check-${c.id}`} data-check={c.id} class={`row-${c.verdict}`}>
            <td class="c-name" data-label={COLUMNS[0]}>
              <span class="check-name" safe>
                {c.name}
              </span>
              <div class="muted check-id" safe>
                {`${c.id} · ${c.source}`}
              </div>
            </td>
            <td class="c-verdict" data-label={COLUMNS[1]}>
              <span class={`badge v-${c.verdict}`}>{c.verdict}</span>
              {c.points ? (
                <div class="muted" safe>
                  {`−${c.points}`}
                </div>
              ) : (
                ''
              )}
            </td>
            <td class="c-observed" data-label={COLUMNS[2]}>
              <code>
                <Breakable text={observedText(c.observed)} />
              </code>
            </td>
            <td class="c-expected" data-label={COLUMNS[3]}>
              <Breakable text={c.expected} />
            </td>
            <td class="c-why muted" data-label={COLUMNS[4]} safe>
              {c.why}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** A stored `results.uniqueness` (src/core/uniqueness.ts), as far as the picture reads it. */
function isUniqueness(u: unknown): u is Uniqueness {
  const o = u as Partial<Uniqueness> | null
  return !!o && typeof o === 'object' && typeof o.population === 'number' && o.population > 0 && Array.isArray(o.attributes) && !!o.fingerprint
}

export function ReportFragment(props: { tool: ToolId; results: ReportResults }): JSX.Element {
  const { results } = props
  return (
    <section class="card report" aria-label="Results" data-score={String(results.summary.score)} data-tested={results.untested ? 'false' : 'true'}>
      <Headline results={results} />
      <ToolPicture tool={props.tool} results={results} />
      {isUniqueness(results.uniqueness) ? <UniquenessPicture u={results.uniqueness} whole={props.tool === 'browser-fingerprint' ? 'your visitor id (every component together)' : 'this combination of every value below'} /> : ''}
      <ChecksTable checks={results.checks} />
      {typeof results.ruleset === 'string' ? (
        <p class="hint" data-ruleset safe>
          {`Judged under ruleset ${results.ruleset} (the checks, weights and thresholds: results.ruleset).`}
        </p>
      ) : (
        ''
      )}
    </section>
  )
}

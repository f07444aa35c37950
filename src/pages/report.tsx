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
import { agentOf, SignedAgentCard } from './pictures/signed-agent'
import { UniquenessPicture } from './pictures/uniqueness'
import type { Uniqueness } from '../core/uniqueness'
import { TableHead } from './table-head'
import { namesSetting, plainValue, plainWords } from './plain-words'
import { foundText } from '../core/check-found'
import { OPERATIONS_HREF } from './operations-link'


export function verdictLabel(score: number): string {
  if (score >= 80) return 'Looks like an ordinary, consistent browser'
  if (score > 40) return 'Suspicious: some checks failed'
  return 'Automation, spoofing or leaks detected'
}

/** bot-detector's verdict (`bot`, `suspicious`, `human`) as a person reads it. */
const BOT_VERDICTS: Readonly<Record<string, string>> = {
  bot: 'A bot: this browser is driven by automation',
  suspicious: 'Suspicious: some signs of automation',
  human: 'Looks like a person’s ordinary browser',
}

const COLUMNS = ['Check', 'Verdict', 'Observed', 'Expected', 'Why it matters'] as const
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

function Headline(props: { results: ReportResults }): JSX.Element {
  const { summary, checks, untested } = props.results
  const frameworks = Array.isArray(props.results.frameworks) ? props.results.frameworks.filter((f): f is string => typeof f === 'string') : []
  const verdict = typeof props.results.verdict === 'string' ? (BOT_VERDICTS[props.results.verdict] ?? props.results.verdict) : verdictLabel(summary.score)
  const counts = `${summary.passed} passed · ${summary.warnings} ${summary.warnings === 1 ? 'warning' : 'warnings'} · ${summary.failed} failed · ${checks.length - summary.total} not applicable`
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
              {`${capital(plainWords(untested.reason))}.`}
            </p>
            {untested.url ? <UntestedLink url={untested.url} /> : ''}
            <p class="muted" safe>
              {`Only what could run was judged: ${counts}.`}
            </p>
          </>
        ) : (
          <>
            <p class="verdict">
              <strong safe>{plainWords(verdict)}</strong>
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

/**
 * Where the test could run: over plain HTTP the TLS test needs the HTTPS address, whose
 * self-made certificate the browser warns about. One click there, and what the warning means.
 */
function UntestedLink(props: { url: string }): JSX.Element {
  const https = props.url.startsWith('https:')
  return (
    <div class="untested-link" data-untested-link>
      <p>
        <a class="button-primary" href={props.url}>
          {https ? 'Run it over HTTPS' : 'Run it where it can'}
        </a>{' '}
        <span class="muted mono" safe>
          {props.url}
        </span>
      </p>
      {https ? (
        <p class="hint" data-certificate-note>
          Your browser may warn that the connection is not private. This instance uses a certificate it made for
          itself, as a self-hosted service does until its operator gives it one from a certificate authority: the
          connection is encrypted, but the browser cannot check who runs the server. Go on only if you trust whoever
          runs this instance (for your own, you do).
        </p>
      ) : (
        ''
      )}
    </div>
  )
}

const ORDER = { fail: 0, warn: 1, pass: 2, na: 3 } as const
const worstFirst = (checks: readonly Check[]) => [...checks].sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict] || b.points - a.points)

/** What was found, in plain words: each check that failed or warned by its finding, worst first, linking to its row. */
function Findings(props: { tool: ToolId; checks: readonly Check[] }): JSX.Element {
  const fired = worstFirst(props.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'warn'))
  return (
    <div class="report-findings" data-findings={String(fired.length)}>
      <h3 class="findings-title">What was found</h3>
      {fired.length ? (
        <ul class="found-list">
          {fired.map((c) => (
            <li class={`found-${c.verdict}`}>
              <span class={`badge v-${c.verdict}`}>{c.verdict === 'fail' ? 'failed' : 'warning'}</span>{' '}
              <a href={`#check-${c.id}`} safe>
                {plainWords(foundText(props.tool, c))}
              </a>
              {c.points ? <span class="muted" safe>{` · −${c.points}`}</span> : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p class="found-none">Nothing failed or warned.</p>
      )}
    </div>
  )
}

/** Does any text of the report name a setting only the operator can change? */
function needsOperator(results: ReportResults): boolean {
  if (results.untested && namesSetting(results.untested.reason)) return true
  if (typeof results.verdict === 'string' && namesSetting(results.verdict)) return true
  return results.checks.some((c) => c.verdict === 'na' && (namesSetting(c.why) || namesSetting(c.expected) || (typeof c.observed === 'string' && namesSetting(c.observed))))
}

export function ChecksTable(props: { tool: ToolId; checks: readonly Check[] }): JSX.Element {
  const sorted = worstFirst(props.checks)
  return (
    <table class="checks">
      <caption class="muted">
        Each check, worst first. “Client” values come from the page and could be spoofed; “server” values were observed by
        the service.
      </caption>
      <TableHead columns={COLUMNS} />
      <tbody>
        {sorted.map((c) => (
          <tr id={`check-${c.id}`} data-check={c.id} class={`row-${c.verdict}`} data-found={c.verdict === 'fail' || c.verdict === 'warn' ? plainWords(foundText(props.tool, c)) : undefined}>
            <td class="c-name" data-label={COLUMNS[0]}>
              <span class="check-name" safe>
                {plainWords(c.name)}
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
                <Breakable text={plainWords(plainValue(c.observed))} />
              </code>
            </td>
            <td class="c-expected" data-label={COLUMNS[3]}>
              <Breakable text={plainWords(c.expected)} />
            </td>
            <td class="c-why muted" data-label={COLUMNS[4]} safe>
              {plainWords(c.why)}
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
  const { summary, checks } = results
  const applicable = checks.length - summary.total
  return (
    <section class="card report" aria-label="Results" data-score={String(results.summary.score)} data-tested={results.untested ? 'false' : 'true'}>
      <Headline results={results} />
      {props.tool === 'bot-detector' ? '' : <Findings tool={props.tool} checks={checks} />}
      <ToolPicture tool={props.tool} results={results} />
      {(() => {
        // A Web Bot Auth signature on the request (issue 60): only on signed requests.
        const agent = agentOf(results.server)
        return agent ? <SignedAgentCard agent={agent} /> : ''
      })()}
      {isUniqueness(results.uniqueness) ? <UniquenessPicture u={results.uniqueness} whole={props.tool === 'browser-fingerprint' ? 'your visitor id (every component together)' : 'this combination of every value below'} /> : ''}
      <details class="checks-fold" data-checks>
        <summary safe>{`Every check (${checks.length}): ${summary.passed} passed, ${summary.warnings} warned, ${summary.failed} failed, ${applicable} not applicable`}</summary>
        <ChecksTable tool={props.tool} checks={checks} />
        {typeof results.ruleset === 'string' ? (
          <p class="hint" data-ruleset safe>
            {`Judged under ruleset ${results.ruleset} (the checks, weights and thresholds that judged this test).`}
          </p>
        ) : (
          ''
        )}
      </details>
      {needsOperator(results) ? (
        <p class="hint" data-operator-note>
          {'Some checks could not run: what they need is not set up on this instance, or this page could not reach it; they are counted as not applicable ('}
          <a href={OPERATIONS_HREF}>what the operator can set</a>
          {').'}
        </p>
      ) : (
        ''
      )}
    </section>
  )
}

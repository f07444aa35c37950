// The tool index, the tool pages and the report fragment a page shows after it has submitted.

import type { Check, Summary } from '../core/scoring'
import { TOOLS, type ToolId } from '../../common/tools'
import type { AssetStore } from '../http/assets'
import { Layout } from './layout'
import { TableHead } from './table-head'

/** A data credit a tool page must show (src/evidence/ipdb.ts IP_DATA_ATTRIBUTIONS). */
export interface Credit {
  text: string
  url: string
  licence: string
  licenceUrl: string
}

export function IndexPage(props: { assets: AssetStore }): JSX.Element {
  return (
    <Layout title="Browser tests" assets={props.assets}>
      <h1>Browser tests</h1>
      <p class="muted">
        Open a tool in any browser or headless browser. It runs its tests in the page, stores the outcome as a task and
        puts the task id in <code>document.body.dataset.task</code>; fetch the task as JSON with an API key from the{' '}
        <a href="/dashboard">dashboard</a> (see the <a href="/docs">API docs</a>).
      </p>
      <div class="grid">
        {TOOLS.map((t) => (
          <a class="card" href={`/tools/${t.id}`} style="text-decoration:none;color:inherit">
            <strong>{t.title}</strong>
            <div class="muted">{t.blurb}</div>
            <code safe>{`/tools/${t.id}`}</code>
          </a>
        ))}
      </div>
    </Layout>
  )
}

export interface ToolPageProps {
  tool: (typeof TOOLS)[number]
  assets: AssetStore
  /** The URL of the tool's probe bundle. */
  script: string
  /** Data attributes for <body> that the probes read: the page nonce, listener ports and zone. */
  pageData: Record<string, string>
  /** Credits for the data behind the results (the IP database's licences ask for them). */
  credits?: readonly Credit[]
}

/** "IP data: <a>IP Geolocation by DB-IP</a> (CC BY 4.0); …" */
export function Credits(props: { credits: readonly Credit[] }): JSX.Element {
  return (
    <p data-credits="ip-data" style="font-size:.8rem">
      {'IP data: '}
      {props.credits.map((c, i) => (
        <>
          {i ? '; ' : ''}
          <a href={c.url} safe>
            {c.text}
          </a>
          {' ('}
          <a href={c.licenceUrl} safe>
            {c.licence}
          </a>
          {')'}
        </>
      ))}
      .
    </p>
  )
}

export function ToolPage(props: ToolPageProps): JSX.Element {
  const { tool } = props
  return (
    <Layout
      title={tool.title}
      assets={props.assets}
      bodyAttrs={{ 'data-tool': tool.id, ...props.pageData }}
      footer={props.credits?.length ? <Credits credits={props.credits} /> : undefined}
    >
      <h1>{tool.title}</h1>
      <p class="muted">{tool.blurb}</p>
      <div id="status" role="status" aria-live="polite" class="card">
        Loading the tests…
      </div>
      <noscript>
        <p class="error">These tests run in your browser and need JavaScript.</p>
      </noscript>
      <div id="report"></div>
      <script type="module" src={props.script}></script>
    </Layout>
  )
}

export function NotFoundPage(props: { assets: AssetStore; path: string }): JSX.Element {
  return (
    <Layout title="Not found" assets={props.assets}>
      <h1>Not found</h1>
      <p>
        There is no page at <code safe>{props.path}</code>. The tools are listed on the <a href="/">index</a>.
      </p>
    </Layout>
  )
}

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

/**
 * bot-detector adds `verdict` and the automation `frameworks` it recognised; tls-fingerprint
 * (and any tool with `results.handshake`) says when the TLS handshake was not tested, so that
 * the score of what did run is not shown as a clean result.
 */
export function ReportFragment(props: {
  tool: ToolId
  summary: Summary
  checks: Check[]
  verdict?: string | undefined
  frameworks?: readonly string[] | undefined
  untestedHandshake?: { reason: string; httpsUrl: string | null } | undefined
}): JSX.Element {
  const { summary, checks } = props
  const order = { fail: 0, warn: 1, pass: 2, na: 3 } as const
  const sorted = [...checks].sort((a, b) => order[a.verdict] - order[b.verdict] || b.points - a.points)
  return (
    <section class="card" aria-label="Results" data-score={String(summary.score)}>
      <div style="display:flex;gap:1.5rem;align-items:center;flex-wrap:wrap">
        <div>
          <div class="score" safe>
            {String(summary.score)}
          </div>
          <div class="muted">{props.untestedHandshake ? 'incomplete: handshake not tested' : 'score out of 100'}</div>
        </div>
        <div>
          <strong safe>{props.verdict ?? verdictLabel(summary.score)}</strong>
          {props.untestedHandshake?.httpsUrl ? (
            <div data-handshake="untested">
              {'Test the handshake: '}
              <a href={props.untestedHandshake.httpsUrl} safe>
                {props.untestedHandshake.httpsUrl}
              </a>
            </div>
          ) : (
            ''
          )}
          {props.frameworks?.length ? (
            <div data-frameworks safe>
              {`Recognised: ${props.frameworks.join(', ')}`}
            </div>
          ) : (
            ''
          )}
          <div class="muted" safe>
            {`${summary.passed} passed · ${summary.warnings} warnings · ${summary.failed} failed · ${checks.length - summary.total} not applicable`}
          </div>
        </div>
      </div>
      <table>
        <caption class="muted" style="text-align:left;padding:.5rem 0">
          Each check, worst first. “Client” values come from the page and could be spoofed; “server” values were observed
          by the service.
        </caption>
        <TableHead columns={['Check', 'Verdict', 'Observed', 'Expected', 'Why it matters']} />
        <tbody>
          {sorted.map((c) => (
            <tr data-check={c.id}>
              <td>
                <span safe>{c.name}</span>
                <div class="muted" safe>
                  {`${c.id} · ${c.source}`}
                </div>
              </td>
              <td>
                <span class={`badge v-${c.verdict}`}>{c.verdict}</span>
                {c.points ? (
                  <div class="muted" safe>
                    {`−${c.points}`}
                  </div>
                ) : (
                  ''
                )}
              </td>
              <td>
                <code safe>{observedText(c.observed)}</code>
              </td>
              <td safe>{c.expected}</td>
              <td class="muted" safe>
                {c.why}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

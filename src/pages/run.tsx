// The run page (/run, issue 47): every tool's probes in one visit, one section per tool, each
// with the nonce the server issued for that tool under the run's id. The run's script
// (probes/entries/run.ts) runs the tools one after the other, stores one task per tool, sets
// <body data-run> when all are stored, then shows the overview and each tool's report.

import { escapeHtml } from '@kitajs/html'
import { TOOLS } from '../../common/tools'
import type { AssetStore } from '../http/assets'
import { Layout } from './layout'
import { OPERATIONS_HREF } from './operations-link'
import { Credits, type Credit, type UnavailableTools } from './tools'
import type { AgentOutcome } from '../core/agent-outcome'
import { PageLoadAgent } from './pictures/signed-agent'

/** How the whole run is read, shown as text (its `<id>` is no element). */
const RUN_READ = 'GET /api/antibot/runs/<id>'

export interface RunPageProps {
  assets: AssetStore
  /** The URL of the run's probe bundle. */
  script: string
  runId: string
  /** Each tool's nonce and TURN password, in TOOLS order. */
  pages: ReadonlyArray<{ tool: (typeof TOOLS)[number]['id']; nonce: string; turnSecret: string }>
  /** Data attributes for <body> the probes read: listener ports and zone. */
  pageData: Record<string, string>
  credits?: readonly Credit[]
  /** The tools this instance cannot run, with why (src/http/tools.ts unavailableTools). */
  unavailable?: UnavailableTools
  /** The page load's Web Bot Auth signature, verified (issue 60); absent when unsigned. */
  agent?: AgentOutcome | null | undefined
}

export function RunPage(props: RunPageProps): JSX.Element {
  return (
    <Layout
      title="Every test in one run"
      assets={props.assets}
      bodyAttrs={{ 'data-run-id': props.runId, ...props.pageData }}
      footer={props.credits?.length ? <Credits credits={props.credits} /> : undefined}
    >
      <h1>Every test in one run</h1>
      <p>
        Every test runs here, one after the other, in about a minute. Keep this tab open: when they are done, the
        overview at the top gives each test's score and what matters most, and each test's report follows below it.
      </p>
      <details class="developers">
        <summary>For developers</summary>
        <p>
          Each tool's outcome is stored as its own task, as its own page would store it. When every task is stored,{' '}
          <code>document.body.dataset.run</code> holds the run's id; read the whole run with{' '}
          <code>{escapeHtml(RUN_READ)}</code> and an API key (see the <a href="/docs">API docs</a>).
        </p>
      </details>
      <div id="status" role="status" aria-live="polite" class="card">
        Loading the tests…
      </div>
      <noscript>
        <p class="error">These tests run in your browser and need JavaScript.</p>
      </noscript>
      <section id="overview" class="card run-overview" aria-labelledby="overview-title" hidden>
        <h2 id="overview-title">Overview</h2>
        <PageLoadAgent agent={props.agent} />
        <ol class="run-scores" aria-label="Score of each tool"></ol>
        <h3>What matters most</h3>
        <ol class="run-findings"></ol>
        <p class="hint" data-run-operator-note hidden>
          {'Some tests or checks could not run: what they need is not set up on this instance, or this page could not reach it; they are marked as not tested or not applicable ('}
          <a href={OPERATIONS_HREF}>what the operator can set</a>
          {').'}
        </p>
      </section>
      {props.pages.map((p) => {
        const tool = TOOLS.find((t) => t.id === p.tool)!
        const why = props.unavailable?.get(tool.id)
        return (
          <section
            class="run-tool"
            id={`tool-${tool.id}`}
            aria-labelledby={`title-${tool.id}`}
            data-run-tool={tool.id}
            data-title={tool.title}
            data-nonce={p.nonce}
            data-turn-secret={p.turnSecret}
            data-unavailable={why ? 'true' : undefined}
          >
            <h2 id={`title-${tool.id}`}>
              {tool.title}{' '}
              <a class="muted run-tool-page" href={`/tools/${tool.id}`}>
                (its own page)
              </a>
            </h2>
            {why ? (
              <p class="tool-unavailable" safe>
                {`Not available on this instance: ${why}.`}
              </p>
            ) : (
              ''
            )}
            <p class="muted run-tool-status">Waiting…</p>
            <div class="run-tool-report"></div>
          </section>
        )
      })}
      <script type="module" src={props.script}></script>
    </Layout>
  )
}

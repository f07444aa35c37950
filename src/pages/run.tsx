// The run page (/run, issue 47): every tool's probes in one visit, one section per tool, each
// with the nonce the server issued for that tool under the run's id. The run's script
// (probes/entries/run.ts) runs the tools one after the other, stores one task per tool, sets
// <body data-run> when all are stored, then shows the overview and each tool's report.

import { TOOLS } from '../../common/tools'
import type { AssetStore } from '../http/assets'
import { Layout } from './layout'
import { Credits, type Credit } from './tools'

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
      <p class="muted">
        Every tool runs here, one after the other, each stored as its own task as its own page would
        store it. When every task is stored, <code>document.body.dataset.run</code> holds the run's id; read the whole run
        with <code>GET /api/antibot/runs/&lt;id&gt;</code> and an API key (see the <a href="/docs">API docs</a>).
      </p>
      <div id="status" role="status" aria-live="polite" class="card">
        Loading the tests…
      </div>
      <noscript>
        <p class="error">These tests run in your browser and need JavaScript.</p>
      </noscript>
      <section id="overview" class="card run-overview" aria-labelledby="overview-title" hidden>
        <h2 id="overview-title">Overview</h2>
        <ol class="run-scores" aria-label="Score of each tool"></ol>
        <h3>What matters most</h3>
        <ol class="run-findings"></ol>
      </section>
      {props.pages.map((p) => {
        const tool = TOOLS.find((t) => t.id === p.tool)!
        return (
          <section
            class="run-tool"
            id={`tool-${tool.id}`}
            aria-labelledby={`title-${tool.id}`}
            data-run-tool={tool.id}
            data-title={tool.title}
            data-nonce={p.nonce}
            data-turn-secret={p.turnSecret}
          >
            <h2 id={`title-${tool.id}`}>
              {tool.title}{' '}
              <a class="muted run-tool-page" href={`/tools/${tool.id}`}>
                (its own page)
              </a>
            </h2>
            <p class="muted run-tool-status">Waiting…</p>
            <div class="run-tool-report"></div>
          </section>
        )
      })}
      <script type="module" src={props.script}></script>
    </Layout>
  )
}

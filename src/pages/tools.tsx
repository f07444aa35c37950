// The tool index and the tool pages (the report a page shows after it has submitted is report.tsx).

import { escapeHtml } from '@kitajs/html'
import { TOOLS, type ToolId } from '../../common/tools'
import type { AssetStore } from '../http/assets'
import { Layout } from './layout'
import { OPERATIONS_HREF } from './operations-link'
import type { AgentOutcome } from '../core/agent-outcome'
import { PageLoadAgent } from './pictures/signed-agent'

/** A data credit a tool page must show (src/evidence/ipdb.ts IP_DATA_ATTRIBUTIONS). */
export interface Credit {
  text: string
  url: string
  licence: string
  licenceUrl: string
}


/** A tool this instance cannot run as it is set up, with the reason in plain words. */
/** A tool page's address, shown as text. */
const TOOL_PATH = '/tools/<tool>'

export type UnavailableTools = ReadonlyMap<ToolId, string>

/**
 * The home page, for people first: one button into /run (every test in one visit), then each
 * tool on its own, then what a developer needs (the task id in data-task, the key, the API).
 * A tool this instance cannot run (dns-leak without a DNS zone) is marked as such, with one
 * sentence on what the operator would set up.
 */
export function IndexPage(props: { assets: AssetStore; unavailable?: UnavailableTools }): JSX.Element {
  const unavailable = props.unavailable ?? new Map()
  return (
    <Layout title="Test your browser" assets={props.assets}>
      <section class="hero card" aria-labelledby="hero-title">
        <h1 id="hero-title">How does your browser look to a website?</h1>
        <p>
          One visit runs every test here, in about a minute: whether the browser looks automated, what it gives away
          about you (addresses, fingerprints, fonts, time zone) and whether its story holds together.
        </p>
        <p>
          <a class="button-primary" href="/run">
            Test my browser
          </a>
        </p>
        <p class="hint">Nothing to install: the tests run in this tab, and their results are stored on this service.</p>
      </section>
      <h2 id="tools-title">Or one test at a time</h2>
      <ul class="grid tool-cards" aria-labelledby="tools-title">
        {TOOLS.map((t) => {
          const why = unavailable.get(t.id)
          return (
            <li class={why ? 'card tool-card unavailable' : 'card tool-card'} data-tool-card={t.id} data-unavailable={why ? 'true' : undefined}>
              <a href={`/tools/${t.id}`}>
                <strong>{t.title}</strong>
              </a>
              <div class="muted">{t.blurb}</div>
              {why ? (
                <p class="tool-unavailable" safe>
                  {`Not available on this instance: ${why}.`}
                </p>
              ) : (
                ''
              )}
            </li>
          )
        })}
      </ul>
      {unavailable.size ? (
        <p class="hint" data-operator-note>
          {'A test marked as not available needs something only the operator of this instance can set up ('}
          <a href={OPERATIONS_HREF}>how</a>
          {').'}
        </p>
      ) : (
        ''
      )}
      <section class="card developers" aria-labelledby="dev-title">
        <h2 id="dev-title">For developers</h2>
        <p>
          Open a tool in any browser or headless browser at <code>{escapeHtml(TOOL_PATH)}</code>. It runs its tests in the
          page, stores the outcome as a task and puts the task id in <code>document.body.dataset.task</code>; fetch the
          task as JSON with an API key from the <a href="/dashboard">dashboard</a> (see the <a href="/docs">API docs</a>).
          The run page puts its run id in <code>document.body.dataset.run</code> when every tool has stored its task.
        </p>
      </section>
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
  /** The page load's Web Bot Auth signature, verified (issue 60); absent when unsigned. */
  agent?: AgentOutcome | null | undefined
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
      <PageLoadAgent agent={props.agent} />
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

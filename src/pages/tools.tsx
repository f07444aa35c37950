// The tool index and the tool pages (the report a page shows after it has submitted is report.tsx).

import { TOOLS } from '../../common/tools'
import type { AssetStore } from '../http/assets'
import { Layout } from './layout'

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

// The API docs page, rendered from the OpenAPI document that /openapi.json serves: every path,
// operation, parameter, request body and response in it, the security schemes and the
// component schemas, plus curl examples. Nothing here knows the routes; a route added with a
// `detail` shows up here as it does in the document.
//
// The page stays light (about 100 KB of HTML; docs/performance.md): a schema whose JSON is
// larger than OWN_PAGE_BYTES (the tools' results schemas, 11–37 KB each) is listed there with
// its description and has a page of its own, /docs/schemas/<name> (SchemaPage); links to it
// from anywhere go there.

import type { AssetStore } from '../http/assets'
import { Layout } from './layout'
import { type ApiDocument, type ApiOperation, descriptionOf, Examples, FieldsTable, type Json, Paragraphs, pretty, resolveHeader, schemaAnchor, type SchemaHref, SchemaLinks, Text, typeText } from './openapi-parts'
import { TableHead } from './table-head'
import { COMPARISON_FIELDS, curlExamples } from './docs-curl'

export const DOCS_PATH = '/docs'
/** Where a schema with a page of its own is served: `/docs/schemas/<name>`. */
export const SCHEMA_PAGES_PATH = `${DOCS_PATH}/schemas`
/** A schema whose JSON is longer than this gets a page of its own. */
export const OWN_PAGE_BYTES = 4096

/** The component schemas that have a page of their own, in the document's order. */
export function ownPageSchemas(doc: ApiDocument): string[] {
  return Object.entries(doc.components?.schemas ?? {})
    .filter(([, schema]) => JSON.stringify(schema).length > OWN_PAGE_BYTES)
    .map(([name]) => name)
}

/** Links to schemas as seen from `here` (the docs page, or one schema's page). */
function schemaHrefs(doc: ApiDocument, here: 'docs' | 'own-page'): SchemaHref {
  const own = new Set(ownPageSchemas(doc))
  return (name) => (own.has(name) ? `${SCHEMA_PAGES_PATH}/${encodeURIComponent(name)}` : here === 'docs' ? `#${schemaAnchor(name)}` : `${DOCS_PATH}#${schemaAnchor(name)}`)
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'] as const

interface Entry {
  method: string
  path: string
  op: ApiOperation
  id: string
}

function operations(doc: ApiDocument): Entry[] {
  const out: Entry[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (op) out.push({ method, path, op, id: op.operationId ?? `${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, '-') })
    }
  }
  return out
}

function securityText(doc: ApiDocument, op: ApiOperation): string {
  if (!op.security || op.security.length === 0) return 'None.'
  const describe = (name: string) => {
    const s = doc.components?.securitySchemes?.[name]
    if (!s) return name
    if (s.type === 'apiKey') return `${name} (${s.in} parameter ${s.name})`
    if (s.type === 'http') return `${name} (Authorization: ${s.scheme === 'bearer' ? 'Bearer' : s.scheme} …)`
    return name
  }
  return `${op.security.map((req) => Object.keys(req).map(describe).join(' and ')).join(', or ')}.`
}

function Operation(props: { doc: ApiDocument; entry: Entry; href: SchemaHref }): JSX.Element {
  const { doc, entry, href } = props
  const { op } = entry
  const body = op.requestBody
  return (
    <section class="card" id={entry.id} aria-labelledby={`${entry.id}-title`}>
      <h3 id={`${entry.id}-title`}>
        <span class="badge" safe>
          {entry.method.toUpperCase()}
        </span>{' '}
        <code safe>{entry.path}</code>
      </h3>
      {op.summary ? <p><strong safe>{op.summary}</strong></p> : ''}
      <Paragraphs text={op.description} />
      <p>
        <strong>Authentication:</strong> <span safe>{securityText(doc, op)}</span>
      </p>

      {op.parameters?.length ? (
        <>
          <h4>Parameters</h4>
          <table>
            <TableHead columns={['Name', 'In', 'Type', 'Required', 'Description']} />
            <tbody>
              {op.parameters.map((p) => (
                <tr>
                  <td>
                    <code safe>{p.name}</code>
                  </td>
                  <td safe>{p.in}</td>
                  <td>
                    <SchemaLinks schema={p.schema} href={href} />
                  </td>
                  <td>{p.required ? 'yes' : 'no'}</td>
                  <td>
                    <Text text={p.description} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        ''
      )}

      {body ? (
        <>
          <h4>Request body</h4>
          <Paragraphs text={body.description} />
          {Object.entries(body.content ?? {}).map(([type, media]) => (
            <div>
              <p>
                <code safe>{type}</code>: <SchemaLinks schema={media.schema} href={href} />
              </p>
              <Examples media={media} />
            </div>
          ))}
        </>
      ) : (
        ''
      )}

      <h4>Responses</h4>
      <table>
        <TableHead columns={['Status', 'Meaning', 'Headers', 'Body']} />
        <tbody>
          {Object.entries(op.responses ?? {}).map(([status, r]) => (
            <tr>
              <td>
                <strong safe>{status}</strong>
              </td>
              <td>
                <Text text={r.description} />
              </td>
              <td>
                {Object.entries(r.headers ?? {}).map(([name, h]) => {
                  const header = resolveHeader(doc, h)
                  return (
                    <div>
                      <code safe>{name}</code>
                      {header.description ? (
                        <div class="muted">
                          <Text text={header.description} />
                        </div>
                      ) : (
                        ''
                      )}
                    </div>
                  )
                })}
              </td>
              <td>
                {Object.entries(r.content ?? {}).map(([type, media]) => (
                  <div>
                    <code safe>{type}</code>: <SchemaLinks schema={media.schema} href={href} />
                    <Examples media={media} />
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

export function ApiDocsPage(props: { doc: ApiDocument; baseUrl: string; assets: AssetStore }): JSX.Element {
  const { doc } = props
  const entries = operations(doc)
  const tags = [...(doc.tags ?? [])]
  for (const e of entries) for (const t of e.op.tags ?? ['Other']) if (!tags.some((x) => x.name === t)) tags.push({ name: t })
  const curl = curlExamples(doc, props.baseUrl)
  const schemes = Object.entries(doc.components?.securitySchemes ?? {})
  const schemas = Object.entries(doc.components?.schemas ?? {})
  const own = new Set(ownPageSchemas(doc))
  const href = schemaHrefs(doc, 'docs')
  return (
    <Layout title="API docs" assets={props.assets}>
      <h1 safe>{doc.info.title}</h1>
      <p class="muted">
        Version <span safe>{doc.info.version}</span> · OpenAPI <span safe>{doc.openapi}</span> document:{' '}
        <a href="/openapi.json">/openapi.json</a>
      </p>
      <Paragraphs text={doc.info.description} />

      <nav aria-label="Endpoints" class="card">
        <ul>
          {entries.map((e) => (
            <li>
              <a href={`#${e.id}`}>
                <code safe>{`${e.method.toUpperCase()} ${e.path}`}</code>
              </a>{' '}
              <span class="muted" safe>
                {e.op.summary ?? ''}
              </span>
            </li>
          ))}
          <li>
            <a href="#schemas">Schemas</a>
          </li>
        </ul>
      </nav>

      <section class="card" aria-labelledby="quick-start">
        <h2 id="quick-start">Quick start with curl</h2>
        <p>Create a task the way the tool pages do (no key needed):</p>
        <pre>
          <code safe>{curl.create}</code>
        </pre>
        <p>The answer carries the task identifier:</p>
        <pre>
          <code safe>{curl.created}</code>
        </pre>
        <p>
          Fetch the task with an API key in the <code>apikey</code> query parameter:
        </p>
        <pre>
          <code safe>{curl.byQuery}</code>
        </pre>
        <p>or in the Authorization header (when both are sent, the header wins):</p>
        <pre>
          <code safe>{curl.byHeader}</code>
        </pre>
        <p>
          Add <code>-i</code> to see the <code>RateLimit-Policy</code> and <code>RateLimit</code> headers with what is
          left of the key’s monthly limit:
        </p>
        <pre>
          <code safe>{curl.headers}</code>
        </pre>
      </section>

      <section class="card" aria-labelledby="runs-example">
        <h2 id="runs-example">Runs, comparisons and CI, worked through</h2>
        <p>
          A visit to <code>/run</code> runs every tool and stores one task per tool; once all are stored,{' '}
          <code>document.body.dataset.run</code> holds the run id. Read the whole run (one request against the key’s
          limit):
        </p>
        <pre>
          <code safe>{curl.run}</code>
        </pre>
        <p>Its body: the run, and each tool’s task exactly as the task endpoint serves it (cut short here):</p>
        <pre>
          <code safe>{curl.runBody}</code>
        </pre>
        <p>Compare two runs (or two tasks), e.g. last week’s against today’s:</p>
        <pre>
          <code safe>{curl.compare}</code>
        </pre>
        <pre>
          <code safe>{curl.compareBody}</code>
        </pre>
        <table>
          <TableHead columns={['Field', 'What it holds']} />
          <tbody>
            {COMPARISON_FIELDS.map(([field, what]) => (
              <tr>
                <td>
                  <code safe>{field}</code>
                </td>
                <td safe>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          To gate a CI job on a run, the repository’s <code>scan</code> command reads it, compares it with a baseline
          and exits non-zero on a regression; with <code>--json</code> it prints one JSON object and nothing else on
          stdout (start it with <code>npm run --silent</code>, whose plain form prints its own banner first). The
          repository’s <code>docs/ci.md</code> has a whole workflow.
        </p>
        <pre>
          <code safe>{curl.scan}</code>
        </pre>
      </section>

      <OperatorSettings />

      <section aria-labelledby="authentication">
        <h2 id="authentication">Authentication</h2>
        <table>
          <TableHead columns={['Scheme', 'How', 'Description']} />
          <tbody>
            {schemes.map(([name, s]) => (
              <tr>
                <td>
                  <code safe>{name}</code>
                </td>
                <td safe>{s.type === 'apiKey' ? `${s.in} parameter ${s.name}` : `${s.type} ${s.scheme ?? ''}`.trim()}</td>
                <td>
                  <Text text={s.description} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      {tags.map((tag) => {
        const ops = entries.filter((e) => (e.op.tags ?? ['Other']).includes(tag.name))
        if (!ops.length) return ''
        return (
          <section aria-labelledby={`tag-${tag.name}`}>
            <h2 id={`tag-${tag.name}`} safe>
              {tag.name}
            </h2>
            <Paragraphs text={tag.description} />
            {ops.map((entry) => (
              <Operation doc={doc} entry={entry} href={href} />
            ))}
          </section>
        )
      })}

      <section aria-labelledby="schemas">
        <h2 id="schemas">Schemas</h2>
        {schemas.map(([name, schema]) =>
          own.has(name) ? (
            <section class="card" id={schemaAnchor(name)} aria-labelledby={`${schemaAnchor(name)}-title`}>
              <h3 id={`${schemaAnchor(name)}-title`}>
                <a href={href(name)} safe>
                  {name}
                </a>
              </h3>
              <Paragraphs text={descriptionOf(schema)} />
              <p>
                Its fields and JSON Schema are on <a href={href(name)}>its own page</a>.
              </p>
            </section>
          ) : (
            <SchemaSection name={name} schema={schema} href={href} />
          ),
        )}
      </section>
    </Layout>
  )
}

function SchemaSection(props: { name: string; schema: Json; href: SchemaHref; level?: 'h1' }): JSX.Element {
  const { name, schema, href } = props
  const title = props.level === 'h1' ? (
    <h1 id={`${schemaAnchor(name)}-title`} safe>
      {name}
    </h1>
  ) : (
    <h3 id={`${schemaAnchor(name)}-title`} safe>
      {name}
    </h3>
  )
  return (
    <section class="card" id={schemaAnchor(name)} aria-labelledby={`${schemaAnchor(name)}-title`}>
      {title}
      <Paragraphs text={descriptionOf(schema)} />
      {schema.properties || schema.allOf ? <FieldsTable schema={schema} href={href} /> : <p safe>{`Type: ${typeText(schema)}`}</p>}
      <details>
        <summary>JSON Schema</summary>
        <pre>
          <code safe>{pretty(schema)}</code>
        </pre>
      </details>
    </section>
  )
}

/** A schema's own page (`/docs/schemas/<name>`), for one of ownPageSchemas(doc); links lead back to /docs. */
export function SchemaPage(props: { doc: ApiDocument; name: string; assets: AssetStore }): JSX.Element {
  const { doc, name } = props
  const schema = doc.components?.schemas?.[name] ?? {}
  return (
    <Layout title={`${name} · API docs`} assets={props.assets}>
      <p class="muted">
        <a href={DOCS_PATH}>API docs</a> · <a href={`${DOCS_PATH}#schemas`}>Schemas</a> · OpenAPI document: <a href="/openapi.json">/openapi.json</a>
      </p>
      <SchemaSection name={name} schema={schema} href={schemaHrefs(doc, 'own-page')} level="h1" />
    </Layout>
  )
}

/**
 * What an operator sets for the tools that need more than the web server: the pages say so in
 * one sentence and link here (src/pages/tools.tsx OPERATIONS_HREF); the repository's
 * docs/operations.md and docs/listeners.md say the rest.
 */
function OperatorSettings(): JSX.Element {
  const rows: Array<[string, string, string]> = [
    ['TLS / JA3, and the handshake checks of other tools', 'TLS_PORT (on by default, 3443), TLS_CERT_FILE and TLS_KEY_FILE', 'The HTTPS listener reads the TLS handshake and HTTP/2 frames of the connection. Without a certificate of your own it makes a self-signed one, which browsers warn about until it is trusted: give it a real certificate (or put it behind a TLS-terminating proxy that sends fingerprint headers, TLS_FINGERPRINT_HEADERS from TRUSTED_PROXIES).'],
    ['DNS Leak Test', 'DNS_ZONE (and DNS_PORT, 53 by default)', 'A DNS zone delegated to this service (an NS record pointing at it): the page looks up random names in it and the service sees which resolvers ask. Without one the test is not available.'],
    ['WebRTC Leak, VPN / Proxy Detector (STUN/TURN checks)', 'STUN_PORT (on by default, 3478)', 'The STUN/TURN listener sees the address the browser’s UDP traffic leaves from.'],
  ]
  return (
    <section class="card" aria-labelledby="operations">
      <h2 id="operations">Running an instance: what the operator sets</h2>
      <p>
        Most tools need nothing but the web server. These need something only the operator of an instance can set
        up; a page whose test could not run says so and links here.
      </p>
      <table>
        <TableHead columns={['Tool', 'Setting', 'What it does']} />
        <tbody>
          {rows.map(([tool, setting, what]) => (
            <tr>
              <td safe>{tool}</td>
              <td>
                <code safe>{setting}</code>
              </td>
              <td safe>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="hint">
        The repository’s <code>docs/operations.md</code> and <code>docs/listeners.md</code> describe every setting.
      </p>
    </section>
  )
}

// The API docs page, rendered from the OpenAPI document that /openapi.json serves: every path,
// operation, parameter, request body and response in it, the security schemes and the
// component schemas, plus curl examples. Nothing here knows the routes; a route added with a
// `detail` shows up here as it does in the document.

import type { AssetStore } from '../http/assets'
import { Layout } from './layout'

type Json = Record<string, unknown>

/** The slice of an OpenAPI 3.1 document this page reads. */
export interface ApiDocument {
  openapi: string
  info: { title: string; version: string; description?: string }
  tags?: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, ApiOperation | undefined>>
  components?: {
    schemas?: Record<string, Json>
    securitySchemes?: Record<string, SecurityScheme>
    headers?: Record<string, ApiHeader>
  }
}

interface ApiOperation {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  security?: Array<Record<string, string[]>>
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: Json }>
  requestBody?: { description?: string; required?: boolean; content?: Record<string, MediaType> }
  responses?: Record<string, { description?: string; headers?: Record<string, ApiHeader | Json>; content?: Record<string, MediaType> }>
}

interface MediaType {
  schema?: Json
  example?: unknown
  examples?: Record<string, { summary?: string; value?: unknown }>
}

interface SecurityScheme {
  type: string
  in?: string
  name?: string
  scheme?: string
  description?: string
}

interface ApiHeader {
  description?: string
  schema?: Json
  example?: unknown
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

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1)
const schemaAnchor = (name: string) => `schema-${name}`

/** A header object, following a `$ref` into components.headers. */
function resolveHeader(doc: ApiDocument, h: ApiHeader | Json): ApiHeader {
  const ref = (h as Json).$ref
  if (typeof ref === 'string') return doc.components?.headers?.[refName(ref)] ?? {}
  return h as ApiHeader
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2)
const descriptionOf = (s: Json): string => (typeof s.description === 'string' ? s.description : '')

/** A short, plain-text type label for a schema: `string`, `integer 0–100`, `one of "a", "b"`. */
function typeText(s: Json | undefined): string {
  if (!s) return 'any'
  if (typeof s.$ref === 'string') return refName(s.$ref)
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`
  if (s.const !== undefined) return `always ${JSON.stringify(s.const)}`
  const union = (s.anyOf ?? s.oneOf) as Json[] | undefined
  if (Array.isArray(union)) return union.map(typeText).join(' or ')
  const type = Array.isArray(s.type) ? s.type.join(' or ') : typeof s.type === 'string' ? s.type : Array.isArray(s.allOf) ? 'object' : 'any'
  if (type === 'array') return `array of ${typeText(s.items as Json | undefined)}`
  const range =
    typeof s.minimum === 'number' && typeof s.maximum === 'number' ? ` ${s.minimum}–${s.maximum}` : typeof s.minimum === 'number' ? ` ≥ ${s.minimum}` : ''
  const format = typeof s.format === 'string' ? ` (${s.format})` : ''
  return `${type}${range}${format}`
}

/** The schemas a type refers to, as links to their sections below. */
function SchemaLinks(props: { schema: Json | undefined }): JSX.Element {
  const names: string[] = []
  const walk = (s: Json | undefined) => {
    if (!s) return
    if (typeof s.$ref === 'string') names.push(refName(s.$ref))
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(s[key])) (s[key] as Json[]).forEach(walk)
    if (s.items && typeof s.items === 'object') walk(s.items as Json)
  }
  walk(props.schema)
  if (!names.length) return <span safe>{typeText(props.schema)}</span>
  return (
    <span>
      {[...new Set(names)].map((n, i) => (
        <>
          {i > 0 ? ' or ' : ''}
          <a href={`#${schemaAnchor(n)}`} safe>
            {n}
          </a>
        </>
      ))}
      {props.schema?.type === 'array' ? ' (array)' : ''}
    </span>
  )
}

interface Field {
  name: string
  schema: Json
  required: boolean
}

/** The fields of an object schema, nested objects flattened to dotted names (a few levels). */
function fieldsOf(schema: Json, prefix = '', depth = 0): Field[] {
  const out: Field[] = []
  const parts = [schema, ...((Array.isArray(schema.allOf) ? schema.allOf : []) as Json[])]
  for (const part of parts) {
    const props = (part.properties ?? {}) as Record<string, Json>
    const required = new Set((part.required ?? []) as string[])
    for (const [name, s] of Object.entries(props)) {
      const full = prefix ? `${prefix}.${name}` : name
      out.push({ name: full, schema: s, required: required.has(name) })
      if (depth < 2 && s.type === 'object' && s.properties) out.push(...fieldsOf(s, full, depth + 1))
    }
  }
  return out
}

function FieldsTable(props: { schema: Json }): JSX.Element {
  const fields = fieldsOf(props.schema)
  if (!fields.length) return ''
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Required</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <tr>
            <td style="white-space:nowrap">
              <code safe>{f.name}</code>
            </td>
            <td>
              <SchemaLinks schema={f.schema} />
            </td>
            <td>{f.required ? 'yes' : 'no'}</td>
            <td>
              <Text text={descriptionOf(f.schema)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Description text: `backquoted` spans become code, everything else stays plain (escaped) text. */
function Text(props: { text: string | undefined }): JSX.Element {
  if (!props.text) return ''
  const parts = props.text.split('`')
  // An unpaired backquote is shown as it is.
  if (parts.length % 2 === 0) parts.splice(-2, 2, `${parts.at(-2)}\`${parts.at(-1)}`)
  return <>{parts.map((part, i) => (i % 2 ? <code safe>{part}</code> : <span safe>{part}</span>))}</>
}

function Paragraphs(props: { text: string | undefined }): JSX.Element {
  if (!props.text) return ''
  return (
    <>
      {props.text
        .split(/\n\s*\n/)
        .filter((p) => p.trim())
        .map((p) => (
          <p>
            <Text text={p} />
          </p>
        ))}
    </>
  )
}

function Examples(props: { media: MediaType }): JSX.Element {
  const { media } = props
  const named = Object.values(media.examples ?? {})
  if (media.example !== undefined) named.unshift({ summary: 'Example', value: media.example })
  if (!named.length) return ''
  return (
    <>
      {named.map((e) => (
        <div>
          <div class="muted" safe>
            {e.summary ?? 'Example'}
          </div>
          <pre>
            <code safe>{pretty(e.value)}</code>
          </pre>
        </div>
      ))}
    </>
  )
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
  return op.security.map((req) => Object.keys(req).map(describe).join(' and ')).join(', or ') + '.'
}

function Operation(props: { doc: ApiDocument; entry: Entry }): JSX.Element {
  const { doc, entry } = props
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
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">In</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {op.parameters.map((p) => (
                <tr>
                  <td>
                    <code safe>{p.name}</code>
                  </td>
                  <td safe>{p.in}</td>
                  <td>
                    <SchemaLinks schema={p.schema} />
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
                <code safe>{type}</code>: <SchemaLinks schema={media.schema} />
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
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Meaning</th>
            <th scope="col">Headers</th>
            <th scope="col">Body</th>
          </tr>
        </thead>
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
                    <code safe>{type}</code>: <SchemaLinks schema={media.schema} />
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

/** A POSIX shell single-quoted word. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

function curlExamples(doc: ApiDocument, baseUrl: string) {
  const create = doc.paths['/api/antibot/tasks']?.post
  const example = create?.requestBody?.content?.['application/json']?.example ?? { tool: 'bot-detector', results: {} }
  const tasks = `${baseUrl}/api/antibot/tasks`
  return {
    create: `curl -sS -X POST ${shellQuote(tasks)} \\\n  -H 'Content-Type: application/json' \\\n  -d ${shellQuote(JSON.stringify(example))}`,
    created: pretty({ task_id: '3f1c2a9e-8b4d-4c6e-9f0a-1b2c3d4e5f60' }),
    byQuery: `curl -sS ${shellQuote(`${tasks}/<task_id>?apikey=<API_KEY>`)}`,
    byHeader: `curl -sS -H 'Authorization: Bearer <API_KEY>' \\\n  ${shellQuote(`${tasks}/<task_id>`)}`,
    headers: `curl -sS -i -H 'Authorization: Bearer <API_KEY>' ${shellQuote(`${tasks}/<task_id>`)}`,
  }
}

export function ApiDocsPage(props: { doc: ApiDocument; baseUrl: string; assets: AssetStore }): JSX.Element {
  const { doc } = props
  const entries = operations(doc)
  const tags = [...(doc.tags ?? [])]
  for (const e of entries) for (const t of e.op.tags ?? ['Other']) if (!tags.some((x) => x.name === t)) tags.push({ name: t })
  const curl = curlExamples(doc, props.baseUrl)
  const schemes = Object.entries(doc.components?.securitySchemes ?? {})
  const schemas = Object.entries(doc.components?.schemas ?? {})
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

      <section aria-labelledby="authentication">
        <h2 id="authentication">Authentication</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Scheme</th>
              <th scope="col">How</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
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
              <Operation doc={doc} entry={entry} />
            ))}
          </section>
        )
      })}

      <section aria-labelledby="schemas">
        <h2 id="schemas">Schemas</h2>
        {schemas.map(([name, schema]) => (
          <section class="card" id={schemaAnchor(name)} aria-labelledby={`${schemaAnchor(name)}-title`}>
            <h3 id={`${schemaAnchor(name)}-title`} safe>
              {name}
            </h3>
            <Paragraphs text={descriptionOf(schema)} />
            {schema.properties || schema.allOf ? <FieldsTable schema={schema} /> : <p safe>{`Type: ${typeText(schema)}`}</p>}
            <details>
              <summary>JSON Schema</summary>
              <pre>
                <code safe>{pretty(schema)}</code>
              </pre>
            </details>
          </section>
        ))}
      </section>
    </Layout>
  )
}

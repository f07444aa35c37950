// The pieces of the API docs page (src/pages/docs.tsx) that render OpenAPI schemas and
// descriptions: the document types it reads, field tables, schema links, description text
// and examples. Every value is escaped.

import { TableHead } from './table-head'

export type Json = Record<string, unknown>

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

export interface ApiOperation {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  security?: Array<Record<string, string[]>>
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: Json }>
  requestBody?: { description?: string; required?: boolean; content?: Record<string, MediaType> }
  responses?: Record<string, { description?: string; headers?: Record<string, ApiHeader | Json>; content?: Record<string, MediaType> }>
}

export interface MediaType {
  schema?: Json
  example?: unknown
  examples?: Record<string, { summary?: string; value?: unknown }>
}

export interface SecurityScheme {
  type: string
  in?: string
  name?: string
  scheme?: string
  description?: string
}

export interface ApiHeader {
  description?: string
  schema?: Json
  example?: unknown
}

export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1)
export const schemaAnchor = (name: string) => `schema-${name}`

/** Where a link to a component schema goes (its section on /docs, or its own page). */
export type SchemaHref = (name: string) => string
/** A link to a schema's section on the same page. */
export const onThisPage: SchemaHref = (name) => `#${schemaAnchor(name)}`

/** A header object, following a `$ref` into components.headers. */
export function resolveHeader(doc: ApiDocument, h: ApiHeader | Json): ApiHeader {
  const ref = (h as Json).$ref
  if (typeof ref === 'string') return doc.components?.headers?.[refName(ref)] ?? {}
  return h as ApiHeader
}

export const pretty = (value: unknown) => JSON.stringify(value, null, 2)
export const descriptionOf = (s: Json): string => (typeof s.description === 'string' ? s.description : '')

/** A short, plain-text type label for a schema: `string`, `integer 0–100`, `one of "a", "b"`. */
export function typeText(s: Json | undefined): string {
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

/** The schemas a type refers to, as links to their sections (or their own pages: `href`). */
export function SchemaLinks(props: { schema: Json | undefined; href?: SchemaHref }): JSX.Element {
  const href = props.href ?? onThisPage
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
          <a href={href(n)} safe>
            {n}
          </a>
        </>
      ))}
      {props.schema?.type === 'array' ? ' (array)' : ''}
    </span>
  )
}

export interface Field {
  name: string
  schema: Json
  required: boolean
}

/** The fields of an object schema, nested objects flattened to dotted names (a few levels). */
export function fieldsOf(schema: Json, prefix = '', depth = 0): Field[] {
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

export function FieldsTable(props: { schema: Json; href?: SchemaHref }): JSX.Element {
  const fields = fieldsOf(props.schema)
  if (!fields.length) return ''
  return (
    <table>
      <TableHead columns={['Field', 'Type', 'Required', 'Description']} />
      <tbody>
        {fields.map((f) => (
          <tr>
            <td style="white-space:nowrap">
              <code safe>{f.name}</code>
            </td>
            <td>
              <SchemaLinks schema={f.schema} href={props.href} />
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
export function Text(props: { text: string | undefined }): JSX.Element {
  if (!props.text) return ''
  const parts = props.text.split('`')
  // An unpaired backquote is shown as it is.
  if (parts.length % 2 === 0) parts.splice(-2, 2, `${parts.at(-2)}\`${parts.at(-1)}`)
  return <>{parts.map((part, i) => (i % 2 ? <code safe>{part}</code> : <span safe>{part}</span>))}</>
}

export function Paragraphs(props: { text: string | undefined }): JSX.Element {
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

export function Examples(props: { media: MediaType }): JSX.Element {
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

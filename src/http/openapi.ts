// The OpenAPI 3.1 document and the API docs page. Elysia's OpenAPI plugin walks the routes and
// builds the paths (methods, path parameters, operation ids) from each route's `detail`; this
// module gives it the rest: the TypeBox schemas of src/http/api-schemas.ts as components, the
// security schemes and the shared response headers. The plugin's own UI is off (it loads its
// scripts from a CDN); /docs renders the same document on the server instead.
//
// The task and operator routes read their bodies themselves (`parse: 'none'`) to answer with
// exact error texts, so they declare no `body`/`response` schemas (Elysia would validate
// those); their request and response schemas are described in `detail` (src/http/operations.ts).

import { Elysia } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import type { TSchema } from '@sinclair/typebox'
import { version } from '../../package.json'
import { ApiDocsPage, DOCS_PATH, ownPageSchemas, SCHEMA_PAGES_PATH, SchemaPage } from '../pages/docs'
import type { ApiDocument } from '../pages/openapi-parts'
import { NotFoundPage } from '../pages/tools'
import { apiComponents } from './api-schemas'
import type { AppDeps } from './deps'
import { filledOnce, ORIGIN_SLOT, renderedOnce, type RenderedOnce } from './rendered'

export const OPENAPI_PATH = '/openapi.json'
export { DOCS_PATH }

type JsonSchema = Record<string, unknown>
const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v)

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs'] as const
const SCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'] as const
const SCHEMA_VALUES = ['items', 'additionalProperties', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'] as const

/**
 * A TypeBox schema as an OpenAPI 3.1 (JSON Schema 2020-12) schema object: TypeBox's symbol
 * keys dropped, draft-07 tuples (`items: [...]`) rewritten as `prefixItems`, and unions of
 * string constants folded into `enum`, which documentation tools show as a list of values.
 */
export function toJsonSchema(schema: TSchema | JsonSchema): JsonSchema {
  return convert(JSON.parse(JSON.stringify(schema)) as JsonSchema)
}

function convert(node: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...node }
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items
    if (out.additionalItems === false) out.items = false
    else delete out.items
    delete out.additionalItems
  }
  for (const key of SCHEMA_MAPS) {
    const map = out[key]
    if (isObject(map)) out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, isObject(v) ? convert(v) : v]))
  }
  for (const key of SCHEMA_LISTS) {
    const list = out[key]
    if (Array.isArray(list)) out[key] = list.map((v: unknown) => (isObject(v) ? convert(v) : v))
  }
  for (const key of SCHEMA_VALUES) {
    const value = out[key]
    if (isObject(value)) out[key] = convert(value)
  }
  const { anyOf, ...rest } = out
  if (
    Array.isArray(anyOf) &&
    anyOf.length > 0 &&
    anyOf.every((v: unknown) => isObject(v) && typeof v.const === 'string' && Object.keys(v).every((k) => k === 'const' || k === 'type'))
  ) {
    return { ...rest, type: 'string', enum: anyOf.map((v: JsonSchema) => v.const) }
  }
  return out
}

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` })
export const headerRef = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` })

export const SECURITY_SCHEMES = {
  ApiKeyQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'apikey',
    description: 'The API key as the `apikey` query parameter: `?apikey=<API_KEY>`.',
  },
  ApiKeyBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'The API key in the header `Authorization: Bearer <API_KEY>`. When a request carries both, the header wins and the query parameter is ignored.',
  },
  OperatorToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token: `Authorization: Bearer <ADMIN_TOKEN>`, the value the service was started with. Without ADMIN_TOKEN the operator API is disabled and answers 404.',
  },
} as const

export const RESPONSE_HEADERS = {
  'RateLimit-Policy': {
    description: 'The key’s quota (IETF draft-ietf-httpapi-ratelimit-headers): `"monthly";q=<monthly limit>;w=<seconds in this UTC calendar month>`.',
    schema: { type: 'string' },
    example: '"monthly";q=1000;w=2592000',
  },
  RateLimit: {
    description: 'What is left of the quota: `"monthly";r=<remaining fetches>;t=<seconds until the count resets at the start of next month, UTC>`.',
    schema: { type: 'string' },
    example: '"monthly";r=999;t=1339200',
  },
  'Retry-After': {
    description: 'Seconds until the monthly count resets. Sent with a 403 for a key that has reached its limit.',
    schema: { type: 'integer', minimum: 1 },
    example: 1339200,
  },
  'Cache-Control': {
    description: 'Keyed responses are never stored by caches.',
    schema: { type: 'string', const: 'no-store' },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme to use.',
    schema: { type: 'string', const: 'Bearer' },
  },
} as const

const DESCRIPTION = `Stores the results of browser tests run on the hosted tool pages (\`/tools/<tool>\`) as tasks, and serves them as JSON to holders of an API key.

Authentication: \`GET /api/antibot/tasks/{task_id}\` needs an API key, sent as the query parameter \`apikey\` or as \`Authorization: Bearer <API_KEY>\`; when both are sent, the header wins. \`POST /api/antibot/tasks\` needs none. The operator API (\`/api/admin/*\`) needs the operator token.

Limits: each key has a monthly limit set by its plan. Only successful fetches (200) count. The month is the UTC calendar month: the count starts again at 00:00:00 UTC on the first day of each month. Keyed responses carry \`RateLimit-Policy\` and \`RateLimit\` headers.

Errors: every error response has a JSON body with one string field, \`error\`.`

/** The plugin's document options: everything but the paths, which come from the routes. */
function documentation() {
  const schemas = Object.fromEntries(Object.entries(apiComponents()).map(([name, schema]) => [name, toJsonSchema(schema)]))
  return {
    info: { title: 'Antibot API', version, description: DESCRIPTION },
    tags: [
      { name: 'Tasks', description: 'Submitting tool results and reading them back.' },
      { name: 'Operator', description: 'Plans and API keys, for the people who run the service.' },
      { name: 'Operations', description: 'Probes for load balancers and orchestrators.' },
    ],
    components: { schemas, securitySchemes: SECURITY_SCHEMES, headers: RESPONSE_HEADERS },
  }
}

/**
 * GET /openapi.json (the plugin, with its UI off), GET /docs and GET /docs/schemas/<name>.
 * Only the JSON API is documented: /api/* and /healthz; the HTML pages and assets are left out.
 * Each is rendered once, at its first request, and then served from memory (src/http/rendered.ts).
 */
export function apiDocs(deps: Pick<AppDeps, 'assets'>) {
  const spec = openapi({
    provider: null,
    specPath: OPENAPI_PATH,
    documentation: documentation(),
    // staticFile: false, or the plugin drops every path with a dot in it (/.well-known/jwks.json).
    exclude: { paths: [/^(?!\/api\/|\/healthz$|\/\.well-known\/jwks\.json$)/], staticFile: false },
  })
  // The document the plugin builds from the routes (it caches the object itself).
  const specRoute = spec.routes.find((r) => r.path === OPENAPI_PATH)
  if (!specRoute) throw new Error(`The OpenAPI plugin did not register ${OPENAPI_PATH}`)
  const document = () => (specRoute.handler as () => ApiDocument)()

  const json = renderedOnce(() => JSON.stringify(document()))
  const docs = filledOnce(() => ApiDocsPage({ doc: document(), baseUrl: ORIGIN_SLOT, assets: deps.assets }))
  const schemaPages = new Map<string, RenderedOnce>()
  const schemaPage = (name: string): RenderedOnce | undefined => {
    if (!schemaPages.size) for (const n of ownPageSchemas(document())) schemaPages.set(n, renderedOnce(() => SchemaPage({ doc: document(), name: n, assets: deps.assets })))
    return schemaPages.get(name)
  }
  const HTML = { 'content-type': 'text/html; charset=utf-8' }

  return (
    new Elysia({ name: 'api-docs' })
      .use(spec)
      // Registered after the plugin's route for the same path, so this one answers: the
      // document's JSON text made once, instead of the plugin's object serialised per request
      // (tests/openapi.test.ts checks both that it answers and that it renders once).
      .get(OPENAPI_PATH, async () => new Response(await json.bytes(), { headers: { 'content-type': 'application/json;charset=utf-8' } }), { detail: { hide: true } })
      .get(DOCS_PATH, async ({ request }) => new Response(await docs.body(new URL(request.url).origin), { headers: HTML }), { detail: { hide: true } })
      .get(
        `${SCHEMA_PAGES_PATH}/:name`,
        async ({ params, request }) => {
          const page = schemaPage(params.name)
          if (!page) return new Response(await NotFoundPage({ assets: deps.assets, path: new URL(request.url).pathname }), { status: 404, headers: HTML })
          return new Response(await page.bytes(), { headers: HTML })
        },
        { detail: { hide: true } },
      )
  )
}

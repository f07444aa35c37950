// GET /openapi.json and GET /docs through app.handle: the document's shape, its security
// schemes, the exact error texts, and — so that the document cannot drift from the service —
// every documented error example replayed against the running app.

import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { count } from 'drizzle-orm'
import { pageNonces, tasks } from '../db/schema'
import { ERROR_TEXT } from '../src/core/errors'
import { TOOL_IDS } from '../common/tools'
import * as docsPages from '../src/pages/docs'
import { ownPageSchemas } from '../src/pages/docs'
import * as toolPages from '../src/pages/tools'
import { buildTestApp, makeKey, specBotResults, testAssets } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// biome-ignore lint/suspicious/noExplicitAny: the test walks an arbitrary OpenAPI document.
type Json = Record<string, any>

const BASE = 'http://localhost'
const ADMIN_TOKEN = 'openapi-test-operator-token-01234'
const USED_NONCE = 'usedusedusedusedusedusedaa'
const NO_SUCH_ID = '3f1c2a9e-8b4d-4c6e-9f0a-1b2c3d4e5f60'
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace']

function operations(doc: Json): Array<{ path: string; method: string; op: Json }> {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  )
}

/** Every `$ref` in the document, with where it was found. */
function refs(node: unknown, at = '#'): Array<{ ref: string; at: string }> {
  if (Array.isArray(node)) return node.flatMap((v, i) => refs(v, `${at}/${i}`))
  if (!node || typeof node !== 'object') return []
  return Object.entries(node).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [{ ref: v, at }] : refs(v, `${at}/${k}`)))
}

function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  return ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), doc)
}

const jsonRequest = (path: string, body: BodyInit, init: { method?: string; type?: string | null; token?: string } = {}) => {
  const headers: Record<string, string> = {}
  if (init.type !== null) headers['content-type'] = init.type ?? 'application/json'
  if (init.token) headers.authorization = `Bearer ${init.token}`
  return new Request(`${BASE}${path}`, { method: init.method ?? 'POST', headers, body })
}

/** Bytes, so that Request does not add a text/plain Content-Type of its own. */
const bytes = (s: string) => new TextEncoder().encode(s)

for (const driver of testDrivers()) {
  describe(`OpenAPI document and docs page (${driver})`, () => {
    let database: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    let closedApp: Awaited<ReturnType<typeof buildTestApp>>['app']
    let doc: Json

    beforeAll(async () => {
      database = await openTestDatabase(driver)
      app = (await buildTestApp(database.db, { adminToken: ADMIN_TOKEN })).app
      closedApp = (await buildTestApp(database.db)).app
      const res = await app.handle(new Request(`${BASE}/openapi.json`))
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('application/json')
      doc = (await res.json()) as Json
    }, 30_000)

    afterAll(async () => {
      await database?.destroy()
    }, 30_000)

    const op = (path: string, method: string): Json => {
      const o = doc.paths[path]?.[method]
      if (!o) throw new Error(`no ${method.toUpperCase()} ${path} in the document`)
      return o
    }

    test('is an OpenAPI 3.1 document with info, paths and components', () => {
      expect(doc.openapi).toMatch(/^3\.1\.\d+$/)
      expect(doc.info).toMatchObject({ title: 'Antibot API', version: expect.any(String) })
      expect(doc.info.description).toContain('UTC calendar month')
      expect(doc.info.description).toContain('the header wins')
      for (const { path, method, op } of operations(doc)) {
        expect(path).toStartWith('/')
        expect(typeof op.operationId).toBe('string')
        expect(Object.keys(op.responses ?? {}).length).toBeGreaterThan(0)
        for (const [status, response] of Object.entries(op.responses as Json)) {
          expect(status).toMatch(/^[1-5]\d\d$/)
          expect(typeof (response as Json).description).toBe('string')
        }
        for (const p of op.parameters ?? []) {
          expect(['path', 'query', 'header', 'cookie']).toContain(p.in)
          if (p.in === 'path') expect(path).toContain(`{${p.name}}`)
        }
        if (op.requestBody) expect(method).not.toBe('get')
      }
      const ids = operations(doc).map((o) => o.op.operationId)
      expect(new Set(ids).size).toBe(ids.length)
    })

    test('documents the JSON API and nothing else', () => {
      const listed = operations(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`)
      expect(listed).toEqual(
        expect.arrayContaining([
          'POST /api/antibot/tasks',
          'GET /api/antibot/tasks/{task_id}',
          'GET /api/admin/plans',
          'POST /api/admin/plans',
          'POST /api/admin/keys',
          'PATCH /api/admin/keys/{id}',
          'GET /api/admin/keys/{id}',
          'GET /api/admin/tasks',
          'GET /healthz',
          'GET /.well-known/jwks.json',
        ]),
      )
      for (const path of Object.keys(doc.paths)) expect(path === '/healthz' || path === '/.well-known/jwks.json' || path.startsWith('/api/')).toBe(true)
    })

    test('every $ref resolves', () => {
      const all = refs(doc)
      expect(all.length).toBeGreaterThan(10)
      for (const { ref, at } of all) {
        if (resolvePointer(doc, ref) === undefined) throw new Error(`${ref} (at ${at}) does not resolve`)
      }
    })

    test('has both API key schemes and the operator scheme, each used where it applies', () => {
      const schemes = doc.components.securitySchemes
      expect(schemes.ApiKeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'apikey' })
      expect(schemes.ApiKeyBearer).toMatchObject({ type: 'http', scheme: 'bearer' })
      expect(schemes.OperatorToken).toMatchObject({ type: 'http', scheme: 'bearer' })
      expect(op('/api/antibot/tasks/{task_id}', 'get').security).toEqual([{ ApiKeyQuery: [] }, { ApiKeyBearer: [] }])
      expect(op('/api/antibot/tasks', 'post').security).toEqual([])
      expect(op('/healthz', 'get').security).toEqual([])
      for (const { path, op: o } of operations(doc)) {
        if (path.startsWith('/api/admin/')) expect(o.security).toEqual([{ OperatorToken: [] }])
        for (const requirement of o.security ?? []) for (const name of Object.keys(requirement)) expect(schemes[name]).toBeDefined()
      }
    })

    test('gives the exact error texts of GET /api/antibot/tasks/{task_id}', () => {
      const responses = op('/api/antibot/tasks/{task_id}', 'get').responses
      const cases = { 401: ERROR_TEXT.unauthorized, 403: ERROR_TEXT.forbidden, 404: ERROR_TEXT.taskNotFound }
      for (const [status, text] of Object.entries(cases)) {
        const media = responses[status].content['application/json']
        expect(media.schema.properties.error.const).toBe(text)
        expect(media.schema.required).toEqual(['error'])
        expect(media.example).toEqual({ error: text })
      }
      expect(responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Task' })
    })

    test('names the rate-limit headers on keyed responses and Retry-After on 403', () => {
      const responses = op('/api/antibot/tasks/{task_id}', 'get').responses
      for (const status of ['200', '403', '404']) expect(Object.keys(responses[status].headers)).toEqual(expect.arrayContaining(['RateLimit-Policy', 'RateLimit']))
      expect(Object.keys(responses['403'].headers)).toContain('Retry-After')
      expect(Object.keys(responses['401'].headers)).not.toContain('RateLimit')
      const headers = doc.components.headers
      expect(headers['RateLimit-Policy'].description).toContain('draft-ietf-httpapi-ratelimit-headers')
      expect(headers.RateLimit.example).toMatch(/^"monthly";r=\d+;t=\d+$/)
    })

    test('describes the Task with exactly the seven fields of the spec, and the tool enum with the 14 ids', () => {
      const schemas = doc.components.schemas
      expect(Object.keys(schemas.Task.properties)).toEqual(['task_id', 'tool', 'score', 'ip_address', 'user_agent', 'results', 'created_at'])
      expect(schemas.Task.required).toEqual(Object.keys(schemas.Task.properties))
      expect(schemas.Task.additionalProperties).toBe(false)
      expect(schemas.Task.properties.tool.enum).toEqual([...TOOL_IDS])
      expect(schemas.Task.properties.created_at.pattern).toBe('^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+00:00$')
      expect(TOOL_IDS).toHaveLength(14)

      const create = op('/api/antibot/tasks', 'post')
      expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateTaskBody' })
      expect(schemas.CreateTaskBody.properties.tool.enum).toEqual([...TOOL_IDS])
      expect(schemas.CreateTaskBody.required).toEqual(['tool', 'results'])
      expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '409', '413', '415', '422'])
      expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TaskCreated' })
    })

    test('publishes the bot-detector results schema of the spec and one results schema per tool', () => {
      const schemas = doc.components.schemas
      for (const name of ['BotDetectorResults', 'BotDetectorSubmission']) {
        const s = schemas[name]
        expect(s.required).toEqual(expect.arrayContaining(['summary', 'leaks', 'navigator', 'screen', 'webgl', 'canvas', 'scoring']))
        expect(s.properties.leaks.properties.webdriver.type).toBe('boolean')
        expect(s.properties.navigator.properties.userAgent.type).toBe('string')
        expect(s.properties.screen.properties.colorDepth.type).toBe('integer')
        expect(s.properties.scoring.properties.webdriver.enum).toContain('pass')
        expect(s.properties.summary.properties.score).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 })
      }
      const shapes = schemas.TaskResults.anyOf.map((r: Json) => r.$ref)
      expect(shapes).toHaveLength(TOOL_IDS.length)
      expect(shapes).toContain('#/components/schemas/BotDetectorResults')
      for (const ref of shapes) {
        const s = schemas[ref.split('/').pop()]
        expect(s.required).toEqual(expect.arrayContaining(['summary', 'checks', 'server']))
      }
    })

    test('TypeBox constructs come out as OpenAPI 3.1 schemas (no draft-07 tuples)', () => {
      const tuples = JSON.stringify(doc.components.schemas).match(/"additionalItems"/g)
      expect(tuples).toBeNull()
      expect(doc.components.schemas.KeyPatch.properties.status.enum).toEqual(['active', 'inactive'])
    })

    // Each documented error example, and the request that makes the service answer with it.
    const taskRequests: Record<string, Record<string, () => Request>> = {
      400: {
        empty: () => jsonRequest('/api/antibot/tasks', ''),
        notUtf8: () => jsonRequest('/api/antibot/tasks', new Uint8Array([0x7b, 0xff, 0x7d])),
        syntax: () => jsonRequest('/api/antibot/tasks', '{"tool":'),
      },
      409: { nonceUsed: () => jsonRequest('/api/antibot/tasks', JSON.stringify({ tool: 'bot-detector', results: specBotResults(), nonce: USED_NONCE })) },
      413: { tooLarge: () => jsonRequest('/api/antibot/tasks', JSON.stringify({ tool: 'bot-detector', results: { pad: 'x'.repeat(65536) } })) },
      415: {
        wrongType: () => jsonRequest('/api/antibot/tasks', '{}', { type: 'text/plain' }),
        noType: () => jsonRequest('/api/antibot/tasks', bytes('{}'), { type: null }),
      },
      422: {
        notObject: () => jsonRequest('/api/antibot/tasks', '[]'),
        unknownTool: () => jsonRequest('/api/antibot/tasks', JSON.stringify({ tool: 'no-such-tool', results: {} })),
        missingResults: () => jsonRequest('/api/antibot/tasks', JSON.stringify({ tool: 'bot-detector' })),
        wrongType: () => jsonRequest('/api/antibot/tasks', JSON.stringify({ tool: 'bot-detector', results: 'x' })),
        unknownField: () => jsonRequest('/api/antibot/tasks', JSON.stringify({ tool: 'bot-detector', results: {}, extra: 1 })),
        schema: () => {
          const results = specBotResults() as Json
          results.leaks.webdriver = 'no'
          return jsonRequest('/api/antibot/tasks', JSON.stringify({ tool: 'bot-detector', results }))
        },
        unstorable: () => jsonRequest('/api/antibot/tasks', JSON.stringify({ tool: 'bot-detector', results: { note: 'a\u0000b' } })),
      },
    }

    const adminBody = (what: 'plans' | 'keys', method = 'POST', path = `/api/admin/${what}`) => ({
      400: { syntax: () => jsonRequest(path, '{"name":', { method, token: ADMIN_TOKEN }) },
      401: { token: () => jsonRequest(path, '{}', { method }) },
      413: { tooLarge: () => jsonRequest(path, JSON.stringify({ pad: 'x'.repeat(16384) }), { method, token: ADMIN_TOKEN }) },
      415: { wrongType: () => jsonRequest(path, bytes('{}'), { method, type: null, token: ADMIN_TOKEN }) },
    })
    const disabled = (path: string, method = 'GET') => () => (method === 'GET' ? new Request(`${BASE}${path}`) : jsonRequest(path, '{}', { method }))

    const adminRequests: Record<string, Record<string, Record<string, { app?: 'closed'; request: () => Request }>>> = {}
    const on = (key: string, table: Record<string, Record<string, () => Request>>, closed: Record<string, () => Request> = {}) => {
      adminRequests[key] = Object.fromEntries(Object.entries(table).map(([status, examples]) => [status, Object.fromEntries(Object.entries(examples).map(([n, r]) => [n, { request: r }]))]))
      adminRequests[key]['404'] = { ...adminRequests[key]['404'], ...Object.fromEntries(Object.entries(closed).map(([n, r]) => [n, { app: 'closed' as const, request: r }])) }
    }
    on('GET /api/admin/plans', { 401: { token: () => new Request(`${BASE}/api/admin/plans`) } }, { disabled: disabled('/api/admin/plans') })
    on(
      'POST /api/admin/plans',
      { ...adminBody('plans'), 422: { schema: () => jsonRequest('/api/admin/plans', JSON.stringify({ name: 'x', monthly_limit: 1.5 }), { token: ADMIN_TOKEN }) } },
      { disabled: disabled('/api/admin/plans', 'POST') },
    )
    on(
      'POST /api/admin/keys',
      {
        ...adminBody('keys'),
        422: {
          unknownPlan: () => jsonRequest('/api/admin/keys', JSON.stringify({ email: 'a@example.com', plan: 'gold' }), { token: ADMIN_TOKEN }),
          expiry: () => jsonRequest('/api/admin/keys', JSON.stringify({ email: 'a@example.com', plan: 'free', expires_at: 'tomorrow' }), { token: ADMIN_TOKEN }),
          expiryRange: () => jsonRequest('/api/admin/keys', JSON.stringify({ email: 'a@example.com', plan: 'free', expires_at: '9999-12-31T23:59:59-23:59' }), { token: ADMIN_TOKEN }),
          control: () => jsonRequest('/api/admin/keys', JSON.stringify({ email: 'a\u0000@example.com', plan: 'free' }), { token: ADMIN_TOKEN }),
        },
      },
      { disabled: disabled('/api/admin/keys', 'POST') },
    )
    on(
      'PATCH /api/admin/keys/{id}',
      {
        ...adminBody('keys', 'PATCH', `/api/admin/keys/${NO_SUCH_ID}`),
        422: { status: () => jsonRequest(`/api/admin/keys/${NO_SUCH_ID}`, JSON.stringify({ status: 'paused' }), { method: 'PATCH', token: ADMIN_TOKEN }) },
        404: { noKey: () => jsonRequest(`/api/admin/keys/${NO_SUCH_ID}`, JSON.stringify({ status: 'inactive' }), { method: 'PATCH', token: ADMIN_TOKEN }) },
      },
      { disabled: disabled(`/api/admin/keys/${NO_SUCH_ID}`, 'PATCH') },
    )
    on(
      'GET /api/admin/keys/{id}',
      {
        401: { token: () => new Request(`${BASE}/api/admin/keys/${NO_SUCH_ID}`) },
        404: { noKey: () => new Request(`${BASE}/api/admin/keys/${NO_SUCH_ID}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }) },
      },
      { disabled: disabled(`/api/admin/keys/${NO_SUCH_ID}`) },
    )

    on(
      'GET /api/admin/tasks',
      {
        401: { token: () => new Request(`${BASE}/api/admin/tasks`) },
        422: {
          unknownTool: () => new Request(`${BASE}/api/admin/tasks?tool=no-such-tool`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
          limit: () => new Request(`${BASE}/api/admin/tasks?limit=500`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
        },
      },
      { disabled: disabled('/api/admin/tasks') },
    )

    test('every documented error example of POST /api/antibot/tasks is what the service answers, and nothing is stored', async () => {
      // A nonce some earlier submission used, for the 409 example.
      const now = new Date()
      await database.db.insert(pageNonces).values({ nonce: USED_NONCE, tool: 'bot-detector', turnSecret: 'x', createdAt: now, expiresAt: new Date(now.getTime() + 60_000), usedAt: now }).onConflictDoNothing()
      const responses = op('/api/antibot/tasks', 'post').responses
      let checked = 0
      for (const [status, response] of Object.entries(responses as Json)) {
        if (status === '201') continue
        const examples = (response as Json).content['application/json'].examples as Json
        for (const [name, example] of Object.entries(examples)) {
          const make = taskRequests[status]?.[name]
          if (!make) throw new Error(`no test request for the documented ${status} example '${name}'`)
          const res = await app.handle(make())
          expect({ name, status: res.status, body: await res.json() }).toEqual({ name, status: Number(status), body: example.value })
          expect(example.value.error).toStartWith('Cannot create task: ')
          checked++
        }
      }
      expect(checked).toBe(Object.values(taskRequests).reduce((n, t) => n + Object.keys(t).length, 0))
      const [stored] = await database.db.select({ n: count() }).from(tasks)
      expect(stored!.n).toBe(0)
    })

    test('every documented operator error example is what the service answers', async () => {
      for (const { path, method, op: o } of operations(doc)) {
        if (!path.startsWith('/api/admin/')) continue
        const key = `${method.toUpperCase()} ${path}`
        for (const [status, response] of Object.entries(o.responses as Json)) {
          if (Number(status) < 400) continue
          const examples = ((response as Json).content['application/json'].examples ?? {}) as Json
          for (const [name, example] of Object.entries(examples)) {
            const entry = adminRequests[key]?.[status]?.[name]
            if (!entry) throw new Error(`no test request for the documented ${status} example '${name}' of ${key}`)
            const res = await (entry.app === 'closed' ? closedApp : app).handle(entry.request())
            expect({ key, name, status: res.status, body: await res.json() }).toEqual({ key, name, status: Number(status), body: example.value })
          }
        }
      }
    })

    test('the documented rate-limit headers are the ones a keyed fetch gets', async () => {
      const { key } = await makeKey(database.db, { limit: 5 })
      const res = await app.handle(new Request(`${BASE}/api/antibot/tasks/${NO_SUCH_ID}?apikey=${key}`))
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: ERROR_TEXT.taskNotFound })
      expect(res.headers.get('ratelimit-policy')).toMatch(/^"monthly";q=5;w=\d+$/)
      expect(res.headers.get('ratelimit')).toMatch(/^"monthly";r=5;t=\d+$/)
      expect(res.headers.get('cache-control')).toBe('no-store')
    })

    test('GET /docs renders every documented operation, the auth schemes and curl examples, with no outside scripts', async () => {
      const res = await app.handle(new Request(`${BASE}/docs`))
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      const html = await res.text()
      // Fails naming the missing fragment rather than printing the whole page.
      const has = (fragment: string) => {
        if (!html.includes(fragment)) throw new Error(`the docs page lacks ${JSON.stringify(fragment)}`)
      }
      expect(html).toStartWith('<!doctype html>')
      for (const { path, method, op: o } of operations(doc)) {
        has(`<code>${method.toUpperCase()} ${path}</code>`)
        has(`id="${o.operationId}"`)
        for (const status of Object.keys(o.responses)) has(`<strong>${status}</strong>`)
      }
      // Every schema has its section; the large ones (the tools' results) link to a page of their own.
      for (const name of Object.keys(doc.components.schemas)) has(`id="schema-${name}"`)
      const own = ownPageSchemas(doc as never)
      expect(own).toEqual(expect.arrayContaining(TOOL_IDS.map((t) => `${t.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}Results`)))
      for (const name of own) has(`<a href="/docs/schemas/${name}">${name}</a>`)
      // The first view stays light: at most 150 KB of HTML (docs/performance.md gives the figure).
      expect(new TextEncoder().encode(html).length).toBeLessThanOrEqual(150 * 1024)
      for (const name of ['ApiKeyQuery', 'ApiKeyBearer', 'OperatorToken']) has(`<code>${name}</code>`)
      for (const text of Object.values(ERROR_TEXT)) has(text)
      // curl examples, escaped: the placeholders are text, not tags.
      has(`curl -sS -X POST &#x27;${BASE}/api/antibot/tasks&#x27;`)
      has(`${BASE}/api/antibot/tasks/&lt;task_id&gt;?apikey=&lt;API_KEY&gt;`)
      has(`curl -sS -H &#x27;Authorization: Bearer &lt;API_KEY&gt;&#x27;`)
      expect(html.includes('<API_KEY>')).toBe(false)
      const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1]!)
      for (const src of scripts) expect(src).toStartWith('/assets/')
      expect(/https?:\/\/(cdn|unpkg|jsdelivr)/.test(html)).toBe(false)
    })

    test('each large schema has its own page, with its fields, its JSON Schema and links back; an unknown name is a 404 page', async () => {
      for (const name of ownPageSchemas(doc as never)) {
        const res = await app.handle(new Request(`${BASE}/docs/schemas/${name}`))
        expect(res.status, name).toBe(200)
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
        expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
        const html = await res.text()
        expect(html).toContain(`<h1 id="schema-${name}-title">${name}</h1>`)
        expect(html).toContain('<summary>JSON Schema</summary>')
        expect(html).toContain('<a href="/docs">API docs</a>')
        // Links to the small schemas lead to their sections on /docs.
        for (const m of html.matchAll(/href="#schema-/g)) throw new Error(`a same-page schema link on ${name}'s page at ${m.index}`)
      }
      const missing = await app.handle(new Request(`${BASE}/docs/schemas/NoSuchSchema`))
      expect(missing.status).toBe(404)
      expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await missing.text()).toContain('/docs/schemas/NoSuchSchema')
    })

    test('the index, /docs, its schema pages and /openapi.json render once: a second request serves the kept bytes', async () => {
      const renders = { docs: spyOn(docsPages, 'ApiDocsPage'), schema: spyOn(docsPages, 'SchemaPage'), index: spyOn(toolPages, 'IndexPage'), json: spyOn(JSON, 'stringify') }
      try {
        // A fresh app: nothing rendered yet.
        const fresh = (await buildTestApp(database.db)).app
        const get = async (path: string, host = BASE) => {
          const res = await fresh.handle(new Request(`${host}${path}`))
          expect(res.status, path).toBe(200)
          return res.text()
        }
        const documentRenders = () => renders.json.mock.calls.filter(([v]) => (v as Json | null)?.openapi !== undefined).length
        const first = { docs: await get('/docs'), index: await get('/'), schema: await get('/docs/schemas/BotDetectorResults'), json: await get('/openapi.json') }
        expect([renders.docs.mock.calls.length, renders.index.mock.calls.length, renders.schema.mock.calls.length, documentRenders()]).toEqual([1, 1, 1, 1])
        for (let i = 0; i < 3; i++) {
          expect(await get('/docs')).toBe(first.docs)
          expect(await get('/')).toBe(first.index)
          expect(await get('/docs/schemas/BotDetectorResults')).toBe(first.schema)
          expect(await get('/openapi.json')).toBe(first.json)
        }
        expect([renders.docs.mock.calls.length, renders.index.mock.calls.length, renders.schema.mock.calls.length, documentRenders()]).toEqual([1, 1, 1, 1])
        // The document served is the plugin's, as JSON. (Parsed afresh: the suite's `doc` has been
        // through toMatchObject with asymmetric matchers, which Bun writes into the object.)
        const served = JSON.parse(first.json) as Json
        expect(served.openapi).toStartWith('3.1')
        expect(Object.keys(served.paths)).toContain('/api/antibot/tasks/{task_id}')
        // The curl examples carry each request's own origin, filled into the kept page exactly
        // as a render for that origin would have written it (quoted for the shell, escaped for HTML).
        for (const origin of [BASE, 'http://example.test:8080', 'https://[2001:db8::1]:8443']) {
          const page = await get('/docs', origin)
          const direct = await docsPages.ApiDocsPage({ doc: served as never, baseUrl: origin, assets: await testAssets() })
          expect(page).toBe(direct)
        }
        expect(renders.docs.mock.calls.length).toBe(1 + 3)
        expect(first.docs).toContain(`curl -sS -X POST &#x27;${BASE}/api/antibot/tasks&#x27;`)
      } finally {
        for (const s of Object.values(renders)) s.mockRestore()
      }
    })

    test('the plugin serves no UI of its own', async () => {
      expect((await app.handle(new Request(`${BASE}/openapi`))).status).toBe(404)
      expect((await app.handle(new Request(`${BASE}/swagger`))).status).toBe(404)
    })
  })
}

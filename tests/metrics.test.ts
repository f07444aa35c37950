// GET /metrics through app.handle(), on every test driver: 404 while METRICS_TOKEN is unset,
// 401 without the token or with another, and what the requests, tasks, fetches and limits of a
// short session show in the series — routes as templates, nothing identifying in any label.
// tests/metrics.e2e.ts has Debian's Prometheus scrape the running service.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SUBMISSION_STAGES } from '../src/core/stage-clock'
import { taskVerdict } from '../src/core/task-verdict'
import { createMetrics, type Metrics } from '../src/metrics'
import { buildTestApp, makeKey, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { samples, value } from './support/exposition'
import { WebClient } from './support/web-client'
import { LOGIN_THROTTLE } from '../src/core/throttle'
import { uniqueEmail } from './support/unique'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const BASE = 'http://localhost'
const TOKEN = 'metrics-token-0123456789abcdef'
const EMAIL = 'metrics-owner@example.test'

type App = Awaited<ReturnType<typeof buildTestApp>>['app']

describe.each(testDrivers())('GET /metrics on %s', (driver) => {
  let tdb: TestDatabase
  let app: App
  let metrics: Metrics
  const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`${BASE}${path}`, { headers }))
  // Elysia runs the after-response hooks (which count a request) in a setImmediate after the
  // response: a turn of the event loop later, every earlier request is counted.
  const scrape = async () => {
    await new Promise((r) => setImmediate(r))
    await new Promise((r) => setImmediate(r))
    const res = await get('/metrics', { authorization: `Bearer ${TOKEN}` })
    expect(res.status).toBe(200)
    return res.text()
  }

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    metrics = createMetrics({ db: tdb.load })
    ;({ app } = await buildTestApp(tdb.db, { metrics, metricsToken: TOKEN, taskRateLimit: { max: 2, windowSeconds: 600 }, taskMissLimit: { max: 2, windowSeconds: 600 } }))
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => tdb?.destroy())

  test('404 while METRICS_TOKEN is unset, with or without metrics', async () => {
    for (const overrides of [{}, { metrics: createMetrics() }]) {
      const { app: off } = await buildTestApp(tdb.db, overrides)
      const res = await off.handle(new Request(`${BASE}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }))
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: 'Not found: no route for GET /metrics' })
    }
  })

  test('401 without the token, with another (shorter, longer, same length) or another scheme; 200 text with it', async () => {
    for (const authorization of [null, 'Bearer', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Bearer ${TOKEN.slice(0, -1)}X`, `Basic ${btoa(`x:${TOKEN}`)}`, TOKEN]) {
      const res = await get('/metrics', authorization === null ? {} : { authorization })
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 })
      expect(res.headers.get('www-authenticate')).toBe('Bearer')
      expect(await res.json()).toEqual({ error: 'Metrics token required: send Authorization: Bearer <METRICS_TOKEN>' })
    }
    const res = await get('/metrics', { authorization: `bearer ${TOKEN}` })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await res.text()).toContain('# TYPE antibot_http_requests_total counter')
  })

  test('a session of pages, tasks, fetches and limits, counted under route templates, with nothing identifying in any label', async () => {
    const before = samples(await scrape())
    const was = (name: string, labels: Record<string, string>) => value(before, name, labels) ?? 0
    const { key } = await makeKey(tdb.db, { email: EMAIL, limit: 1 })
    expect((await get('/tools/bot-detector')).status).toBe(200)
    expect((await get('/tools/nope')).status).toBe(404)
    const missing = crypto.randomUUID()
    expect((await get(`/no/such/${missing}`)).status).toBe(404)
    const post = () =>
      app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tool: 'bot-detector', results: specBotResults() }) }))
    const created = await post()
    expect(created.status).toBe(201)
    const { task_id: id } = (await created.json()) as { task_id: string }
    expect((await post()).status).toBe(201)
    expect((await post()).status).toBe(429)
    const auth = { authorization: `Bearer ${key}` }
    const fetched = await get(`/api/antibot/tasks/${id}`, auth)
    expect(fetched.status).toBe(200)
    const task = (await fetched.json()) as { score: number; results: Record<string, unknown> }
    expect((await get(`/api/antibot/tasks/${id}`)).status).toBe(401)
    expect((await get(`/api/antibot/tasks/${id}?apikey=${encodeURIComponent(key)}`)).status).toBe(403)

    const text = await scrape()
    const now = samples(text)
    const grew = (name: string, labels: Record<string, string>) => (value(now, name, labels) ?? 0) - was(name, labels)
    expect(grew('antibot_http_requests_total', { route: '/tools/:tool', method: 'GET', status: '200' })).toBe(1)
    expect(grew('antibot_http_requests_total', { route: '/tools/:tool', method: 'GET', status: '404' })).toBe(1)
    expect(grew('antibot_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(1)
    expect(grew('antibot_http_requests_total', { route: '/api/antibot/tasks', method: 'POST', status: '201' })).toBe(2)
    expect(grew('antibot_http_requests_total', { route: '/api/antibot/tasks', method: 'POST', status: '429' })).toBe(1)
    expect(grew('antibot_http_request_duration_seconds_count', { route: '/api/antibot/tasks/:task_id' })).toBe(3)
    expect(grew('antibot_task_fetches_total', { status: '200' })).toBe(1)
    expect(grew('antibot_task_fetches_total', { status: '401' })).toBe(1)
    expect(grew('antibot_task_fetches_total', { status: '403' })).toBe(1)
    // A body of the spec's shape, scored from its own entries, carries no verdict of its own:
    // it is counted under its score's band in bot-detector's words.
    expect(task.results.verdict).toBeUndefined()
    expect(taskVerdict('bot-detector', task.results, task.score)).toBe('human')
    expect(grew('antibot_tasks_created_total', { tool: 'bot-detector', verdict: 'human' })).toBe(2)
    expect(grew('antibot_tasks_server_evidence_total', { evidence: 'without' })).toBe(2)
    expect(grew('antibot_limited_total', { limit: 'task_create' })).toBe(1)
    // Each stored submission's stages, each run once and timed (issue 61); the refused one is not counted.
    for (const stage of SUBMISSION_STAGES) {
      expect(grew('antibot_submission_stage_runs_total', { stage })).toBe(2)
      expect(grew('antibot_submission_stage_seconds_total', { stage })).toBeGreaterThan(0)
    }
    expect(grew('antibot_limited_total', { limit: 'monthly_quota' })).toBe(1)
    expect(value(now, 'antibot_db_pool_size')).toBe(driver === 'pglite' ? 1 : 10)
    // No id, key, address or email anywhere in the exposition, labels or otherwise.
    for (const secret of [id, missing, key, EMAIL, 'example.test', 'unknown', '127.0.0.1', '/nope', '/no/such']) expect(text).not.toContain(secret)
    const routes = new Set(now.filter((s) => s.labels.route !== undefined).map((s) => s.labels.route))
    for (const route of routes) expect(route === 'unmatched' || /^\/[a-z0-9/_.:*-]*$/.test(route!)).toBe(true)
  })

  test('a key that asked for too many missing ids: its 429s are counted as fetches and as the miss limit', async () => {
    const { key } = await makeKey(tdb.db, { email: EMAIL })
    const was = samples(await scrape())
    const auth = { authorization: `Bearer ${key}` }
    expect((await get(`/api/antibot/tasks/${crypto.randomUUID()}`, auth)).status).toBe(404)
    expect((await get(`/api/antibot/tasks/${crypto.randomUUID()}`, auth)).status).toBe(404)
    expect((await get(`/api/antibot/tasks/${crypto.randomUUID()}`, auth)).status).toBe(429)
    const now = samples(await scrape())
    const grew = (name: string, labels: Record<string, string>) => (value(now, name, labels) ?? 0) - (value(was, name, labels) ?? 0)
    expect(grew('antibot_task_fetches_total', { status: '404' })).toBe(2)
    expect(grew('antibot_task_fetches_total', { status: '429' })).toBe(1)
    expect(grew('antibot_limited_total', { limit: 'task_misses' })).toBe(1)
  })

  test("the account forms' throttles: each refused sign-up and log-in is counted under its limit", async () => {
    const own = createMetrics()
    const { app: forms } = await buildTestApp(tdb.db, { metrics: own, metricsToken: TOKEN, signupLimit: { max: 1, windowSeconds: 3600 } })
    const c = new WebClient(forms)
    await c.get('/signup')
    expect((await c.post('/signup', { email: uniqueEmail('a'), password: 'correct horse battery' })).status).toBe(200)
    expect((await c.post('/signup', { email: uniqueEmail('b'), password: 'correct horse battery' })).status).toBe(429)
    const statuses: number[] = []
    for (let i = 0; i <= LOGIN_THROTTLE.address.max; i++) statuses.push((await c.logIn(`nobody-${i}@example.test`, 'wrong password here')).status)
    expect(statuses.filter((x) => x === 429)).toHaveLength(1)
    await new Promise((r) => setImmediate(r))
    await new Promise((r) => setImmediate(r))
    const text = await own.text()
    expect(value(text, 'antibot_limited_total', { limit: 'signup' })).toBe(1)
    expect(value(text, 'antibot_limited_total', { limit: 'login' })).toBe(1)
    expect(value(text, 'antibot_http_requests_total', { route: '/login', method: 'POST', status: '429' })).toBe(1)
    expect(text).not.toContain('example.test')
  }, HOOK_TIMEOUT_MS)
})

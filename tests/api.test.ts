// The task API and the operator API over HTTP, through app.handle(), on every test driver:
// every row of the interface spec's Endpoints, Authentication, Errors and Limits sections.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { Db } from '../db/client'
import { getMonthUsage } from '../db/keys'
import { countTasks, getTask } from '../db/tasks'
import { generateApiKey, isWellFormedApiKey } from '../src/core/keys'
import { formatTimestamp, monthKey } from '../src/core/month'
import { parseTrustedProxies } from '../src/core/ip'
import { buildTestApp, makeKey, random, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0

const BASE = 'http://localhost'
const ADMIN = 'test-admin-token-0123456789'
const START = '2026-11-15T12:00:00Z'
const UNAUTHORIZED = 'Valid API key required.'
const FORBIDDEN = 'API key is inactive, expired, or has reached its request limit.'
const NOT_FOUND = 'Task not found.'
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
/** Task ids are time-ordered (src/core/ids.ts: uuidV7). */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const CREATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/

type App = Awaited<ReturnType<typeof buildTestApp>>['app']

/** Asserts a JSON `{"error": text}` body with nothing else in it, and returns the text. */
async function expectError(res: Response, status: number, text?: string | RegExp): Promise<string> {
  const raw = await res.text()
  expect({ status: res.status, raw }).toMatchObject({ status })
  expect(res.headers.get('content-type')).toStartWith('application/json')
  const body = JSON.parse(raw) as Record<string, unknown>
  expect(Object.keys(body)).toEqual(['error'])
  expect(typeof body.error).toBe('string')
  if (typeof text === 'string') expect(body.error).toBe(text)
  else if (text) expect(body.error as string).toMatch(text)
  return body.error as string
}

describe.each(testDrivers())('task API on %s', (driver) => {
  let tdb: TestDatabase
  let app: App
  let clock: Awaited<ReturnType<typeof buildTestApp>>['clock']
  let taskId: string

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    app.handle(
      new Request(`${BASE}/api/antibot/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    )
  const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`${BASE}${path}`, { headers }))
  const fetchTask = (id: string, key: string | null, via: 'header' | 'query' = 'header') =>
    via === 'header' || key === null
      ? get(`/api/antibot/tasks/${id}`, key === null ? {} : { authorization: `Bearer ${key}` })
      : get(`/api/antibot/tasks/${id}?apikey=${encodeURIComponent(key)}`)
  const used = async (keyId: string) => (await getMonthUsage(tdb.db, keyId, monthKey(clock()))).count
  const admin = (method: string, path: string, body?: unknown, token: string | null = ADMIN) =>
    app.handle(
      new Request(`${BASE}/api/admin${path}`, {
        method,
        headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    )
  async function createTask(score = 90): Promise<string> {
    const res = await post({ tool: 'bot-detector', results: specBotResults(score) }, { 'user-agent': 'TestAgent/1.0' })
    expect(res.status).toBe(201)
    return ((await res.json()) as { task_id: string }).task_id
  }

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    ;({ app, clock } = await buildTestApp(tdb.db, { adminToken: ADMIN }))
    taskId = await createTask()
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)
  beforeEach(() => {
    clock.set(START)
  })

  test('GET /healthz answers 200 when the database answers', async () => {
    const res = await get('/healthz')
    expect(res.status).toBe(200)
  })

  test('GET /probe/frame is an empty HTML page any site may frame (the storage-partitioning probe nests it under a data: frame)', async () => {
    const res = await get('/probe/frame')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/html')
    expect(res.headers.get('x-frame-options')).toBeNull()
    expect(res.headers.get('content-security-policy') ?? '').not.toContain('frame-ancestors')
    expect(await res.text()).not.toContain('<script')
  })

  describe('POST /api/antibot/tasks', () => {
    test('201 with exactly a UUID v4 task_id, and the row stored once', async () => {
      const before = await countTasks(tdb.db)
      const res = await post({ tool: 'bot-detector', results: specBotResults(80) })
      expect(res.status).toBe(201)
      expect(res.headers.get('content-type')).toStartWith('application/json')
      const body = (await res.json()) as Record<string, unknown>
      expect(Object.keys(body)).toEqual(['task_id'])
      expect(body.task_id).toMatch(UUID_V7)
      expect(await countTasks(tdb.db)).toBe(before + 1)
      const stored = await getTask(tdb.db, body.task_id as string)
      expect(stored?.tool).toBe('bot-detector')
    })

    test('needs no authentication and ignores a key that is sent anyway', async () => {
      const res = await post({ tool: 'bot-detector', results: specBotResults() }, { authorization: 'Bearer nonsense' })
      expect(res.status).toBe(201)
    })

    test('accepts a JSON content type with parameters', async () => {
      const res = await post({ tool: 'bot-detector', results: specBotResults() }, { 'content-type': 'Application/JSON; charset=UTF-8' })
      expect(res.status).toBe(201)
    })

    test('every submission gets its own id', async () => {
      const ids = new Set([await createTask(), await createTask(), await createTask()])
      expect(ids.size).toBe(3)
    })

    test('stores the user agent and the creation time from the clock', async () => {
      clock.set('2027-03-04T05:06:07.890Z')
      const id = await createTask()
      const stored = (await getTask(tdb.db, id))!
      expect(stored.user_agent).toBe('TestAgent/1.0')
      expect(stored.created_at).toBe('2027-03-04T05:06:07+00:00')
    })
  })

  describe('GET /api/antibot/tasks/{task_id}', () => {
    test('200 with exactly the seven Task fields', async () => {
      const { key } = await makeKey(tdb.db, { limit: 100 })
      const res = await fetchTask(taskId, key)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toStartWith('application/json')
      const task = (await res.json()) as Record<string, unknown>
      expect(Object.keys(task).sort()).toEqual(['created_at', 'ip_address', 'results', 'score', 'task_id', 'tool', 'user_agent'])
      expect(task.task_id).toBe(taskId)
      expect(task.tool).toBe('bot-detector')
      expect(typeof task.ip_address).toBe('string')
      expect(task.user_agent).toBe('TestAgent/1.0')
      expect(task.results).toBeObject()
    })

    test('created_at is YYYY-MM-DDTHH:MM:SS+00:00 and equals the clock at creation', async () => {
      clock.set('2026-11-15T12:00:00.750Z')
      const id = await createTask()
      clock.set(START)
      const { key } = await makeKey(tdb.db, { limit: 100 })
      const task = (await (await fetchTask(id, key)).json()) as { created_at: string }
      expect(task.created_at).toMatch(CREATED_AT)
      expect(task.created_at).toBe('2026-11-15T12:00:00+00:00')
      expect(task.created_at).toBe(formatTimestamp(new Date(START)))
    })

    test('score is an integer equal to results.summary.score', async () => {
      const { key } = await makeKey(tdb.db, { limit: 100 })
      const task = (await (await fetchTask(taskId, key)).json()) as { score: number; results: { summary: { score: number } } }
      expect(Number.isInteger(task.score)).toBe(true)
      expect(task.score).toBe(task.results.summary.score)
    })

    test('serves the bot-detector sections the page submitted', async () => {
      const { key } = await makeKey(tdb.db, { limit: 100 })
      const task = (await (await fetchTask(taskId, key)).json()) as { results: Record<string, unknown> }
      const sent = specBotResults()
      for (const section of ['leaks', 'navigator', 'screen', 'webgl', 'canvas', 'scoring'] as const) expect(task.results[section]).toEqual(sent[section])
      expect(Object.keys(task.results.summary as object).sort()).toEqual(['failed', 'passed', 'score', 'total', 'warnings'])
    })

    test('serves every check with its name, why and source, though the row stores them without', async () => {
      const { key } = await makeKey(tdb.db, { limit: 100 })
      const res = await fetchTask(taskId, key)
      const task = (await res.json()) as { results: { checks: Array<Record<string, unknown>> } }
      expect(task.results.checks.length).toBe(3)
      for (const c of task.results.checks) expect(Object.keys(c).sort()).toEqual(['expected', 'id', 'name', 'observed', 'points', 'source', 'verdict', 'why'])
      const stored = JSON.parse((await getTask(tdb.db, taskId))!.results) as { checks: Array<Record<string, unknown>> }
      expect(stored.checks.map((c) => [c.id, 'name' in c, 'why' in c, 'source' in c])).toEqual(task.results.checks.map((c) => [c.id, false, false, false]))
    })

    test('an upper-case task id finds the same task', async () => {
      const { key } = await makeKey(tdb.db, { limit: 100 })
      const res = await fetchTask(taskId.toUpperCase(), key)
      expect(res.status).toBe(200)
      expect(((await res.json()) as { task_id: string }).task_id).toBe(taskId)
    })
  })

  describe('authentication', () => {
    test('accepts the key in the Authorization header', async () => {
      const { key } = await makeKey(tdb.db, { limit: 10 })
      expect((await fetchTask(taskId, key, 'header')).status).toBe(200)
    })

    test('accepts the key in the apikey query parameter', async () => {
      const { key } = await makeKey(tdb.db, { limit: 10 })
      expect((await fetchTask(taskId, key, 'query')).status).toBe(200)
    })

    test('the header wins when both are sent', async () => {
      const good = await makeKey(tdb.db, { limit: 10 })
      const other = await makeKey(tdb.db, { limit: 10 })
      const both = (header: string, query: string) => get(`/api/antibot/tasks/${taskId}?apikey=${query}`, { authorization: `Bearer ${header}` })
      expect((await both(good.key, 'garbage')).status).toBe(200)
      await expectError(await both(generateApiKey(random), good.key), 401, UNAUTHORIZED)
      // Only the header's key was counted.
      expect((await both(good.key, other.key)).status).toBe(200)
      expect(await used(good.id)).toBe(2)
      expect(await used(other.id)).toBe(0)
    })

    test('401 when no key is sent, with WWW-Authenticate', async () => {
      const res = await fetchTask(taskId, null)
      expect(res.headers.get('www-authenticate')).toBe('Bearer')
      await expectError(res, 401, UNAUTHORIZED)
      await expectError(await get(`/api/antibot/tasks/${taskId}?apikey=`), 401, UNAUTHORIZED)
    })

    test('401 for a malformed key: changed character, truncated, wrong prefix, not Bearer', async () => {
      const { key } = await makeKey(tdb.db, { limit: 10 })
      const changed = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11)
      for (const bad of [changed, key.slice(0, -1), `xx_${key.slice(3)}`, 'not a key']) {
        await expectError(await fetchTask(taskId, bad, 'query'), 401, UNAUTHORIZED)
        await expectError(await fetchTask(taskId, bad, 'header'), 401, UNAUTHORIZED)
      }
      await expectError(await get(`/api/antibot/tasks/${taskId}`, { authorization: `Basic ${btoa(`user:${key}`)}` }), 401, UNAUTHORIZED)
      await expectError(await get(`/api/antibot/tasks/${taskId}`, { authorization: 'Bearer' }), 401, UNAUTHORIZED)
    })

    test('401 for a well-formed key that does not exist', async () => {
      const unknown = generateApiKey(random)
      expect(isWellFormedApiKey(unknown)).toBe(true)
      await expectError(await fetchTask(taskId, unknown), 401, UNAUTHORIZED)
      await expectError(await fetchTask(taskId, unknown, 'query'), 401, UNAUTHORIZED)
    })

    test('401 before 404: a missing key with an unknown task id', async () => {
      await expectError(await fetchTask('00000000-0000-4000-8000-000000000000', null), 401, UNAUTHORIZED)
      await expectError(await fetchTask('not-a-uuid', generateApiKey(random)), 401, UNAUTHORIZED)
    })
  })

  describe('403 and 404', () => {
    test('403 for an inactive key', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 10, status: 'inactive' })
      await expectError(await fetchTask(taskId, key), 403, FORBIDDEN)
      expect(await used(id)).toBe(0)
    })

    test('403 for an expired key, including one expiring this very second', async () => {
      const past = await makeKey(tdb.db, { limit: 10, expiresAt: new Date('2026-11-15T11:59:59Z') })
      await expectError(await fetchTask(taskId, past.key), 403, FORBIDDEN)
      const now = await makeKey(tdb.db, { limit: 10, expiresAt: new Date(START) })
      await expectError(await fetchTask(taskId, now.key), 403, FORBIDDEN)
      const later = await makeKey(tdb.db, { limit: 10, expiresAt: new Date('2026-11-15T12:00:01Z') })
      expect((await fetchTask(taskId, later.key)).status).toBe(200)
    })

    test('403 at the limit, with Retry-After until the month resets', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 2 })
      expect((await fetchTask(taskId, key)).status).toBe(200)
      expect((await fetchTask(taskId, key, 'query')).status).toBe(200)
      const res = await fetchTask(taskId, key)
      // 2026-11-15T12:00:00Z to 2026-12-01T00:00:00Z.
      expect(res.headers.get('retry-after')).toBe(String(15 * 86400 + 12 * 3600))
      await expectError(res, 403, FORBIDDEN)
      expect(await used(id)).toBe(2)
    })

    test('403 on a plan with a zero limit', async () => {
      const { key } = await makeKey(tdb.db, { limit: 0 })
      await expectError(await fetchTask(taskId, key), 403, FORBIDDEN)
    })

    test('403 beats 404: an exhausted, inactive or expired key asking for an unknown task', async () => {
      const exhausted = await makeKey(tdb.db, { limit: 1 })
      expect((await fetchTask(taskId, exhausted.key)).status).toBe(200)
      const missing = '00000000-0000-4000-8000-000000000000'
      await expectError(await fetchTask(missing, exhausted.key), 403, FORBIDDEN)
      await expectError(await fetchTask('not-a-uuid', exhausted.key), 403, FORBIDDEN)
      const inactive = await makeKey(tdb.db, { status: 'inactive' })
      await expectError(await fetchTask(missing, inactive.key), 403, FORBIDDEN)
      const expired = await makeKey(tdb.db, { expiresAt: new Date('2020-01-01T00:00:00Z') })
      await expectError(await fetchTask(missing, expired.key), 403, FORBIDDEN)
    })

    test('404 for an unknown task id', async () => {
      const { key } = await makeKey(tdb.db, { limit: 10 })
      await expectError(await fetchTask('00000000-0000-4000-8000-000000000000', key), 404, NOT_FOUND)
      await expectError(await fetchTask(crypto.randomUUID(), key, 'query'), 404, NOT_FOUND)
    })

    test('404 for task ids that are not UUIDs, never a 5xx', async () => {
      const { key } = await makeKey(tdb.db, { limit: 10 })
      for (const id of ['not-a-uuid', '123', `${taskId}0`, taskId.slice(1), taskId.replace(/-/g, ''), "x'%20or%201=1--", '%zz', '%00', 'a'.repeat(500)]) {
        await expectError(await fetchTask(id, key), 404, NOT_FOUND)
      }
    })
  })

  describe('limits', () => {
    test('only 200s count: 404s and 403s leave the usage alone', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 2 })
      await fetchTask('00000000-0000-4000-8000-000000000000', key)
      await fetchTask('not-a-uuid', key)
      expect(await used(id)).toBe(0)
      expect((await fetchTask(taskId, key)).status).toBe(200)
      expect(await used(id)).toBe(1)
      expect((await fetchTask(taskId, key)).status).toBe(200)
      expect((await fetchTask(taskId, key)).status).toBe(403)
      expect((await fetchTask('00000000-0000-4000-8000-000000000000', key)).status).toBe(403)
      expect(await used(id)).toBe(2)
    })

    test('the operator view of usage shows the same count', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 5 })
      await fetchTask(taskId, key)
      await fetchTask('00000000-0000-4000-8000-000000000000', key)
      const view = (await (await admin('GET', `/keys/${id}`)).json()) as { usage: { used: number; remaining: number } }
      expect(view.usage).toMatchObject({ used: 1, remaining: 4 })
    })

    test('creating tasks is not counted against any key', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 5 })
      await createTask()
      await post({ tool: 'bot-detector', results: specBotResults() }, { authorization: `Bearer ${key}` })
      expect(await used(id)).toBe(0)
    })

    test('the count resets at the UTC month boundary', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 2 })
      clock.set('2026-11-30T23:59:58Z')
      expect((await fetchTask(taskId, key)).status).toBe(200)
      clock.set('2026-11-30T23:59:59Z')
      expect((await fetchTask(taskId, key)).status).toBe(200)
      const last = await fetchTask(taskId, key)
      expect(last.status).toBe(403)
      expect(last.headers.get('retry-after')).toBe('1')
      clock.set('2026-12-01T00:00:00Z')
      const fresh = await fetchTask(taskId, key)
      expect(fresh.status).toBe(200)
      expect(fresh.headers.get('ratelimit')).toBe(`"monthly";r=1;t=${31 * 86400}`)
      expect((await getMonthUsage(tdb.db, id, '2026-11-01')).count).toBe(2)
      expect((await getMonthUsage(tdb.db, id, '2026-12-01')).count).toBe(1)
    })

    test('the count resets from December to January too', async () => {
      const { key } = await makeKey(tdb.db, { limit: 1 })
      clock.set('2026-12-31T23:59:59Z')
      expect((await fetchTask(taskId, key)).status).toBe(200)
      expect((await fetchTask(taskId, key)).status).toBe(403)
      clock.set('2027-01-01T00:00:00Z')
      expect((await fetchTask(taskId, key)).status).toBe(200)
    })

    test('RateLimit-Policy and RateLimit on a 200: quota, window, remaining and reset', async () => {
      const { key } = await makeKey(tdb.db, { limit: 5 })
      const res = await fetchTask(taskId, key)
      expect(res.headers.get('ratelimit-policy')).toBe('"monthly";q=5;w=2592000')
      expect(res.headers.get('ratelimit')).toBe('"monthly";r=4;t=1339200')
      expect((await fetchTask(taskId, key)).headers.get('ratelimit')).toBe('"monthly";r=3;t=1339200')
    })

    test('RateLimit headers on keyed 403s and 404s, with the remaining count unchanged', async () => {
      const { key } = await makeKey(tdb.db, { limit: 1 })
      const notFound = await fetchTask('00000000-0000-4000-8000-000000000000', key)
      expect(notFound.status).toBe(404)
      expect(notFound.headers.get('ratelimit-policy')).toBe('"monthly";q=1;w=2592000')
      expect(notFound.headers.get('ratelimit')).toBe('"monthly";r=1;t=1339200')
      expect(notFound.headers.get('retry-after')).toBeNull()
      expect((await fetchTask(taskId, key)).headers.get('ratelimit')).toBe('"monthly";r=0;t=1339200')
      const limited = await fetchTask(taskId, key)
      expect(limited.status).toBe(403)
      expect(limited.headers.get('ratelimit')).toBe('"monthly";r=0;t=1339200')
      const inactive = await makeKey(tdb.db, { limit: 7, status: 'inactive' })
      const forbidden = await fetchTask(taskId, inactive.key)
      expect(forbidden.headers.get('ratelimit-policy')).toBe('"monthly";q=7;w=2592000')
      expect(forbidden.headers.get('retry-after')).toBeNull()
    })

    test('no RateLimit headers on a 401 (there is no key to describe)', async () => {
      const res = await fetchTask(taskId, generateApiKey(random))
      expect(res.status).toBe(401)
      expect(res.headers.get('ratelimit')).toBeNull()
    })
  })

  describe('operator API', () => {
    test('404 for every operator route when ADMIN_TOKEN is not set', async () => {
      const { app: plain } = await buildTestApp(tdb.db)
      for (const [method, path] of [['GET', '/api/admin/plans'], ['POST', '/api/admin/plans'], ['POST', '/api/admin/keys'], ['GET', `/api/admin/keys/${crypto.randomUUID()}`], ['PATCH', `/api/admin/keys/${crypto.randomUUID()}`]] as const) {
        const res = await plain.handle(new Request(`${BASE}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}` } }))
        await expectError(res, 404, /ADMIN_TOKEN/)
      }
    })

    test('401 without a token, with a wrong token or scheme', async () => {
      await expectError(await admin('GET', '/plans', undefined, null), 401, /ADMIN_TOKEN/)
      await expectError(await admin('GET', '/plans', undefined, `${ADMIN}x`), 401)
      await expectError(await admin('GET', '/plans', undefined, ADMIN.slice(0, -1)), 401)
      await expectError(await admin('POST', '/plans', { name: 'sneaky', monthly_limit: 1 }, 'wrong'), 401)
      const basic = await app.handle(new Request(`${BASE}/api/admin/plans`, { headers: { authorization: `Basic ${ADMIN}` } }))
      await expectError(basic, 401)
      const plans = (await (await admin('GET', '/plans')).json()) as Array<{ name: string }>
      expect(plans.map((p) => p.name)).not.toContain('sneaky')
    })

    test('POST /plans creates a plan, and sets the limit of an existing one', async () => {
      const res = await admin('POST', '/plans', { name: 'team', monthly_limit: 250 })
      expect(res.status).toBe(201)
      const plan = (await res.json()) as { id: number; name: string; monthly_limit: number; self_serve: boolean }
      expect(plan).toEqual({ id: expect.any(Number), name: 'team', monthly_limit: 250, self_serve: false })
      const again = await admin('POST', '/plans', { name: 'team', monthly_limit: 300 })
      expect(again.status).toBe(201)
      expect(await again.json()).toEqual({ id: plan.id, name: 'team', monthly_limit: 300, self_serve: false })
      const list = (await (await admin('GET', '/plans')).json()) as Array<{ name: string; monthly_limit: number }>
      expect(list.find((p) => p.name === 'team')?.monthly_limit).toBe(300)
    })

    test('POST /keys creates a key (and its account) that works at once', async () => {
      await admin('POST', '/plans', { name: 'tiny', monthly_limit: 1 })
      const res = await admin('POST', '/keys', { email: 'New.Customer@example.test', plan: 'tiny', name: 'scraper' })
      expect(res.status).toBe(201)
      const created = (await res.json()) as Record<string, unknown>
      expect(Object.keys(created)).toEqual(expect.arrayContaining(['id', 'key', 'prefix', 'plan', 'status', 'expires_at']))
      expect(created.id as string).toMatch(UUID_V4)
      expect({ plan: created.plan, status: created.status, expires_at: created.expires_at }).toEqual({ plan: 'tiny', status: 'active', expires_at: null })
      const key = created.key as string
      expect(isWellFormedApiKey(key)).toBe(true)
      expect(created.prefix).toBe(key.slice(0, 7))
      expect((await fetchTask(taskId, key)).status).toBe(200)
      await expectError(await fetchTask(taskId, key), 403, FORBIDDEN)
      // The secret is shown once: never by the read endpoint.
      const view = await (await admin('GET', `/keys/${created.id}`)).text()
      expect(view).not.toContain(key)
      expect(JSON.parse(view)).toMatchObject({ email: 'new.customer@example.test', name: 'scraper', plan: 'tiny' })
    })

    test('POST /keys with an expiry stores it in UTC', async () => {
      const res = await admin('POST', '/keys', { email: 'exp@example.test', plan: 'free', expires_at: '2027-01-31T10:00:00+02:00' })
      expect(res.status).toBe(201)
      expect(((await res.json()) as { expires_at: string }).expires_at).toBe('2027-01-31T08:00:00+00:00')
    })

    test('PATCH /keys/{id} changes status, expiry and plan, and returns the key without its secret', async () => {
      const created = (await (await admin('POST', '/keys', { email: 'patch@example.test', plan: 'free' })).json()) as { id: string; key: string }
      const inactive = await admin('PATCH', `/keys/${created.id}`, { status: 'inactive' })
      expect(inactive.status).toBe(200)
      const text = await inactive.text()
      expect(text).not.toContain(created.key)
      expect(JSON.parse(text)).toMatchObject({ id: created.id, status: 'inactive', plan: 'free' })
      await expectError(await fetchTask(taskId, created.key), 403, FORBIDDEN)

      expect((await admin('PATCH', `/keys/${created.id}`, { status: 'active' })).status).toBe(200)
      expect((await fetchTask(taskId, created.key)).status).toBe(200)

      const expired = await admin('PATCH', `/keys/${created.id}`, { expires_at: '2026-11-01' })
      expect(((await expired.json()) as { expires_at: string }).expires_at).toBe('2026-11-01T00:00:00+00:00')
      await expectError(await fetchTask(taskId, created.key), 403, FORBIDDEN)
      expect((await admin('PATCH', `/keys/${created.id}`, { expires_at: null })).status).toBe(200)
      expect((await fetchTask(taskId, created.key)).status).toBe(200)

      await admin('POST', '/plans', { name: 'one', monthly_limit: 1 })
      const replanned = await admin('PATCH', `/keys/${created.id}`, { plan: 'one' })
      expect(((await replanned.json()) as { plan: string }).plan).toBe('one')
      // The limit is the account's allowance on the key's plan (issue 57): the two fetches of
      // this month were on free; on 'one' the account has one, then nothing.
      expect((await fetchTask(taskId, created.key)).status).toBe(200)
      await expectError(await fetchTask(taskId, created.key), 403, FORBIDDEN)
    })

    test('GET /keys/{id} shows this month\'s usage and limit', async () => {
      const created = (await (await admin('POST', '/keys', { email: 'usage@example.test', plan: 'free' })).json()) as { id: string; key: string }
      clock.set('2026-11-15T12:00:00Z')
      await fetchTask(taskId, created.key)
      clock.set('2026-11-16T08:30:00Z')
      await fetchTask(taskId, created.key)
      const res = await admin('GET', `/keys/${created.id}`)
      expect(res.status).toBe(200)
      const view = (await res.json()) as Record<string, unknown>
      expect(view).toMatchObject({ id: created.id, status: 'active', plan: 'free', email: 'usage@example.test' })
      expect(view.usage).toEqual({
        month: '2026-11',
        used: 2,
        key_used: 2,
        limit: 1000,
        remaining: 998,
        resets_at: '2026-12-01T00:00:00+00:00',
        last_used_at: '2026-11-16T08:30:00+00:00',
      })
      clock.set('2026-12-02T00:00:00Z')
      const december = (await (await admin('GET', `/keys/${created.id}`)).json()) as { usage: Record<string, unknown> }
      expect(december.usage).toMatchObject({ month: '2026-12', used: 0, remaining: 1000, last_used_at: null })
    })

    test('404 for an unknown key id', async () => {
      await expectError(await admin('GET', `/keys/${crypto.randomUUID()}`), 404)
      await expectError(await admin('GET', '/keys/not-a-uuid'), 404)
      await expectError(await admin('PATCH', `/keys/${crypto.randomUUID()}`, { status: 'inactive' }), 404)
      await expectError(await admin('PATCH', '/keys/%zz', { status: 'inactive' }), 404)
    })

    test('422 for bad plan input, and nothing saved', async () => {
      const before = await (await admin('GET', '/plans')).json()
      for (const body of [
        { name: 'Bad Name', monthly_limit: 1 },
        { name: '', monthly_limit: 1 },
        { name: 'neg', monthly_limit: -1 },
        { name: 'frac', monthly_limit: 1.5 },
        { name: 'str', monthly_limit: '10' },
        { name: 'nolimit' },
        { monthly_limit: 5 },
        { name: 'extra', monthly_limit: 5, colour: 'red' },
        [],
      ]) {
        await expectError(await admin('POST', '/plans', body), 422, /^Cannot save plan: /)
      }
      expect(await (await admin('GET', '/plans')).json()).toEqual(before)
    })

    test('422 for bad key input, naming the problem', async () => {
      await expectError(await admin('POST', '/keys', { email: 'a@example.test', plan: 'no-such-plan' }), 422, /unknown plan 'no-such-plan'/)
      await expectError(await admin('POST', '/keys', { email: 'not-an-email', plan: 'free' }), 422, /email/)
      await expectError(await admin('POST', '/keys', { plan: 'free' }), 422, /email/)
      await expectError(await admin('POST', '/keys', { email: 'a@example.test' }), 422, /plan/)
      await expectError(await admin('POST', '/keys', { email: 'a@example.test', plan: 'free', expires_at: 'tomorrow' }), 422, /expires_at/)
      await expectError(await admin('POST', '/keys', { email: 'a@example.test', plan: 'free', expires_at: '2026-02-30' }), 422, /expires_at/)
      await expectError(await admin('POST', '/keys', { email: 'a@example.test', plan: 'free', secret: 'x' }), 422)
    })

    test('422 for a bad key change, and the key unchanged', async () => {
      const created = (await (await admin('POST', '/keys', { email: 'badpatch@example.test', plan: 'free' })).json()) as { id: string }
      await expectError(await admin('PATCH', `/keys/${created.id}`, { status: 'paused' }), 422, /status/)
      await expectError(await admin('PATCH', `/keys/${created.id}`, { plan: 'no-such-plan' }), 422, /unknown plan/)
      await expectError(await admin('PATCH', `/keys/${created.id}`, { expires_at: 'soon' }), 422, /expires_at/)
      await expectError(await admin('PATCH', `/keys/${created.id}`, { status: 'inactive', name: 'x' }), 422)
      const view = (await (await admin('GET', `/keys/${created.id}`)).json()) as { status: string; plan: string; expires_at: string | null }
      expect(view).toMatchObject({ status: 'active', plan: 'free', expires_at: null })
    })

    test('400 for malformed JSON and 415 for a wrong content type', async () => {
      await expectError(await admin('POST', '/plans', '{"name": "x",'), 400, /not valid JSON/)
      const res = await app.handle(
        new Request(`${BASE}/api/admin/plans`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'text/plain' }, body: '{}' }),
      )
      await expectError(res, 415, /Content-Type must be application\/json/)
    })
  })
})

describe('GET /healthz', () => {
  test('503 with a JSON body when the database does not answer', async () => {
    const down = { execute: () => Promise.reject(new Error('connection refused')) } as unknown as Db
    const { app } = await buildTestApp(down)
    const res = await app.handle(new Request(`${BASE}/healthz`))
    expect(res.status).toBe(503)
    expect(res.headers.get('content-type')).toStartWith('application/json')
  })
})

describe('client address', () => {
  // Through a real socket: app.handle has no peer address.
  let tdb: TestDatabase
  beforeAll(async () => {
    tdb = await openTestDatabase('pglite')
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  async function submitVia(trusted: string, headers: Record<string, string>): Promise<string> {
    const { app } = await buildTestApp(tdb.db, { trustedProxies: parseTrustedProxies(trusted) })
    app.listen({ port: 0, hostname: '127.0.0.1' })
    try {
      const res = await fetch(`http://127.0.0.1:${app.server!.port}/api/antibot/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ tool: 'bot-detector', results: specBotResults() }),
      })
      expect(res.status).toBe(201)
      const { task_id } = (await res.json()) as { task_id: string }
      return (await getTask(tdb.db, task_id))!.ip_address
    } finally {
      await app.stop(true)
    }
  }

  test('stores the socket address and ignores X-Forwarded-For from an untrusted peer', async () => {
    expect(await submitVia('', { 'x-forwarded-for': '198.51.100.9' })).toBe('127.0.0.1')
    expect(await submitVia('10.0.0.0/8', { 'x-forwarded-for': '198.51.100.9' })).toBe('127.0.0.1')
  })

  test('believes X-Forwarded-For from a trusted proxy, right-most untrusted hop first', async () => {
    expect(await submitVia('127.0.0.1', { 'x-forwarded-for': '203.0.113.1, 198.51.100.9' })).toBe('198.51.100.9')
  })
})

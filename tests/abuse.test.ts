// Abuse limits, IP truncation and the database-away answer, over HTTP on every test driver:
// the per-address limit on POST (off by default, 429 with Retry-After, per client address as
// resolved behind trusted proxies, shared by instances), the per-key limit on fetches of ids
// that do not exist (never counted against the month), IP_TRUNCATE, and 503 when PostgreSQL
// cannot be reached.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPostgres } from '../db/client'
import { getMonthUsage } from '../db/keys'
import { countTasks, getTask } from '../db/tasks'
import { parseTrustedProxies } from '../src/core/ip'
import { monthKey } from '../src/core/month'
import { generateApiKey } from '../src/core/keys'
import { buildTestApp, makeKey, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const BASE = 'http://localhost'
type Built = Awaited<ReturnType<typeof buildTestApp>>
type App = Built['app']

const BODY = JSON.stringify({ tool: 'bot-detector', results: specBotResults() })
const postVia = (app: App, headers: Record<string, string> = {}) =>
  app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: BODY }))
const getVia = (app: App, id: string, key: string) => app.handle(new Request(`${BASE}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } }))

async function errorOf(res: Response): Promise<string> {
  expect(res.headers.get('content-type')).toStartWith('application/json')
  const body = (await res.json()) as Record<string, unknown>
  expect(Object.keys(body)).toEqual(['error'])
  return body.error as string
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)
const missingId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`

/** Listens on 127.0.0.1 so the handler sees a socket address (app.handle has none). */
function listen(app: App): { url: string; stop: () => Promise<void> } {
  app.listen({ port: 0, hostname: '127.0.0.1' })
  return { url: `http://127.0.0.1:${app.server!.port}`, stop: async () => void (await app.stop()) }
}

describe.each(testDrivers())('abuse limits on %s', (driver) => {
  let tdb: TestDatabase

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  describe('task submissions per address', () => {
    test('are unlimited by default', async () => {
      const { app } = await buildTestApp(tdb.db)
      const statuses = await Promise.all(range(40).map(async () => (await postVia(app)).status))
      expect(statuses).toEqual(range(40).map(() => 201))
    })

    test('with TASK_RATE_LIMIT 3/60: three 201s, then 429 with Retry-After and nothing stored, until the window ends', async () => {
      const { app, clock } = await buildTestApp(tdb.db, { taskRateLimit: { max: 3, windowSeconds: 60 } })
      const before = await countTasks(tdb.db)
      for (let i = 0; i < 3; i++) expect((await postVia(app)).status).toBe(201)
      clock.set('2026-11-15T12:00:15Z')
      const refused = await postVia(app)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('45')
      expect(await errorOf(refused)).toBe('Cannot create task: too many tasks from this address; retry in 45 s')
      expect(await countTasks(tdb.db)).toBe(before + 3)
      // Refused before the body is read: a bad body gets the 429, not a 415.
      const badType = await app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', body: 'x' }))
      expect(badType.status).toBe(429)
      clock.set('2026-11-15T12:01:00Z')
      expect((await postVia(app)).status).toBe(201)
    })

    test('under concurrency, exactly the limit gets through', async () => {
      const { app } = await buildTestApp(tdb.db, { taskRateLimit: { max: 7, windowSeconds: 3600 }, clock: () => new Date('2026-12-01T00:00:00Z') })
      const before = await countTasks(tdb.db)
      const statuses = await Promise.all(range(25).map(async () => (await postVia(app)).status))
      expect(statuses.filter((s) => s === 201)).toHaveLength(7)
      expect(statuses.filter((s) => s === 429)).toHaveLength(18)
      expect(await countTasks(tdb.db)).toBe(before + 7)
    })

    test('counts the client address from X-Forwarded-For only behind a trusted proxy', async () => {
      const limit = { max: 2, windowSeconds: 60 }
      const behind = await buildTestApp(tdb.db, { taskRateLimit: limit, trustedProxies: parseTrustedProxies('127.0.0.1'), clock: () => new Date('2027-01-01T00:00:00Z') })
      const server = listen(behind.app)
      try {
        const post = (xff?: string) =>
          fetch(`${server.url}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...(xff ? { 'x-forwarded-for': xff } : {}) }, body: BODY }).then(async (r) => {
            await r.text()
            return r.status
          })
        // Two clients behind the proxy, each with its own allowance; a spoofed left-most entry changes nothing.
        expect([await post('198.51.100.1'), await post('198.51.100.1'), await post('198.51.100.1')]).toEqual([201, 201, 429])
        expect([await post('198.51.100.2'), await post('6.6.6.6, 198.51.100.2')]).toEqual([201, 201])
        expect(await post('7.7.7.7, 198.51.100.2')).toBe(429)
      } finally {
        await server.stop()
      }
      const direct = await buildTestApp(tdb.db, { taskRateLimit: limit, clock: () => new Date('2027-02-01T00:00:00Z') })
      const server2 = listen(direct.app)
      try {
        // No trusted proxies: the header is ignored and every request is 127.0.0.1's.
        const statuses: number[] = []
        for (const xff of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
          const r = await fetch(`${server2.url}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': xff }, body: BODY })
          await r.text()
          statuses.push(r.status)
        }
        expect(statuses).toEqual([201, 201, 429])
      } finally {
        await server2.stop()
      }
    })

    // PGlite is one process's database: two instances on it cannot exist.
    if (driver === 'postgres') test('two app instances on one database share the allowance', async () => {
      const second = openPostgres(tdb.url!, { max: 5 })
      try {
        const opts = { taskRateLimit: { max: 10, windowSeconds: 3600 }, clock: () => new Date('2027-03-01T00:00:00Z') }
        const apps = [(await buildTestApp(tdb.db, opts)).app, (await buildTestApp(second.db, opts)).app]
        const statuses = await Promise.all(range(30).map(async (i) => (await postVia(apps[i % 2]!)).status))
        expect(statuses.filter((s) => s === 201)).toHaveLength(10)
        expect(statuses.filter((s) => s === 429)).toHaveLength(20)
      } finally {
        await second.close()
      }
    })
  })

  describe('fetches of task ids that do not exist, per key', () => {
    const missLimit = { max: 3, windowSeconds: 600 }
    let built: Built
    let taskId: string

    beforeAll(async () => {
      built = await buildTestApp(tdb.db, { taskMissLimit: missLimit })
      taskId = ((await (await postVia(built.app)).json()) as { task_id: string }).task_id
    }, HOOK_TIMEOUT_MS)

    test('after 3 misses every fetch with the key gets 429 until the window ends; misses never count', async () => {
      const { app, clock } = built
      clock.set('2026-11-15T12:00:00Z')
      const { key, id } = await makeKey(tdb.db, { limit: 100 })
      expect((await getVia(app, taskId, key)).status).toBe(200)
      expect((await getVia(app, missingId(1), key)).status).toBe(404)
      expect((await getVia(app, 'not-a-uuid', key)).status).toBe(404)
      clock.set('2026-11-15T12:01:00Z')
      expect((await getVia(app, missingId(2), key)).status).toBe(404)
      for (const id_ of [missingId(3), taskId]) {
        const res = await getVia(app, id_, key)
        expect(res.status).toBe(429)
        expect(res.headers.get('retry-after')).toBe('540')
        expect(res.headers.get('cache-control')).toBe('no-store')
        expect(await errorOf(res)).toBe('Too many requests for task ids that do not exist with this API key; retry in 540 s.')
      }
      expect((await getMonthUsage(tdb.db, id, monthKey(clock()))).count).toBe(1)
      // Another key is not affected.
      const other = await makeKey(tdb.db, { limit: 100 })
      expect((await getVia(app, taskId, other.key)).status).toBe(200)
      clock.set('2026-11-15T12:10:00Z')
      expect((await getVia(app, taskId, key)).status).toBe(200)
      expect((await getMonthUsage(tdb.db, id, monthKey(clock()))).count).toBe(2)
    })

    test('the 403s still come first for an exhausted or inactive key', async () => {
      const { app } = built
      built.clock.set('2026-11-16T12:00:00Z')
      const { key } = await makeKey(tdb.db, { limit: 1 })
      for (let i = 0; i < 3; i++) expect((await getVia(app, missingId(i), key)).status).toBe(404)
      expect((await getVia(app, taskId, key)).status).toBe(429)
      const inactive = await makeKey(tdb.db, { limit: 1, status: 'inactive' })
      expect((await getVia(app, missingId(9), inactive.key)).status).toBe(403)
    })

    test('concurrent misses: the key is shut out after them, and only misses were recorded', async () => {
      const { app } = built
      built.clock.set('2026-11-17T12:00:00Z')
      const { key, id } = await makeKey(tdb.db, { limit: 100 })
      const statuses = await Promise.all(range(20).map(async (i) => (await getVia(app, missingId(100 + i), key)).status))
      // Each request read the window before the others' misses landed, so more than 3 may see
      // 404; none is a 5xx, and afterwards the key is blocked.
      expect(statuses.every((s) => s === 404 || s === 429)).toBe(true)
      expect(statuses.filter((s) => s === 404).length).toBeGreaterThanOrEqual(3)
      expect((await getVia(app, taskId, key)).status).toBe(429)
      expect((await getMonthUsage(tdb.db, id, monthKey(built.clock()))).count).toBe(0)
    })
  })

  describe('IP_TRUNCATE', () => {
    async function submitThroughProxy(ipTruncate: boolean) {
      const { app } = await buildTestApp(tdb.db, { ipTruncate, trustedProxies: parseTrustedProxies('127.0.0.1') })
      const server = listen(app)
      try {
        const res = await fetch(`${server.url}/api/antibot/tasks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.77', 'user-agent': 'Agent/1.2.3.4' },
          body: BODY,
        })
        expect(res.status).toBe(201)
        const id = ((await res.json()) as { task_id: string }).task_id
        const stored = (await getTask(tdb.db, id))!
        return { stored, results: JSON.parse(stored.results) as { server: { ip: string; headers: Array<[string, string]> } } }
      } finally {
        await server.stop()
      }
    }

    test('off: the full address is stored', async () => {
      const { stored, results } = await submitThroughProxy(false)
      expect(stored.ip_address).toBe('203.0.113.77')
      expect(results.server.ip).toBe('203.0.113.77')
    })

    test('on: ip_address, the server evidence and the forwarded header keep only the /24', async () => {
      const { stored, results } = await submitThroughProxy(true)
      expect(stored.ip_address).toBe('203.0.113.0')
      expect(results.server.ip).toBe('203.0.113.0')
      expect(results.server.headers.find(([k]) => k === 'x-forwarded-for')?.[1]).toBe('203.0.113.0')
      expect(stored.results).not.toContain('203.0.113.77')
      expect(stored.user_agent).toBe('Agent/1.2.3.4')
    })
  })

  describe('when PostgreSQL cannot be reached', () => {
    test('the API answers 503 with Retry-After and a JSON error, never 500', async () => {
      // Port 1 on loopback: the connection is refused at once.
      const away = openPostgres('postgres://postgres@127.0.0.1:1/none', { max: 2, connectTimeoutSeconds: 1 })
      try {
        // Built on the working database (building may read it), then pointed at the missing one.
        const { app } = await buildTestApp(tdb.db, { db: away.db, taskRateLimit: { max: 5, windowSeconds: 60 } })
        const key = generateApiKey((n) => crypto.getRandomValues(new Uint8Array(n)))
        for (const res of [await getVia(app, missingId(1), key), await postVia(app)]) {
          expect(res.status).toBe(503)
          expect(res.headers.get('retry-after')).toBe('2')
          expect(await errorOf(res)).toBe('Service temporarily unavailable: the database is not reachable; retry shortly.')
        }
        expect((await app.handle(new Request(`${BASE}/healthz`))).status).toBe(503)
      } finally {
        await away.close()
      }
    }, HOOK_TIMEOUT_MS)
  })
})

// Per-client limits hold per network, behind a trusted proxy, on every test driver (and across
// two app instances on PostgreSQL): an IPv6 /64 is one client (src/core/ip.ts networkKey), so
// its many addresses do not multiply sign-ups, log-in guesses, TASK_RATE_LIMIT or the page
// nonces kept for it; and X-Forwarded-For entries with ports are read as their addresses.
//
// The app listens on 127.0.0.1, which is the trusted proxy; each request names its client in
// X-Forwarded-For, as a reverse proxy would.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { openPostgres, rows, type Db } from '../db/client'
import { createAccountWithPassword } from '../db/accounts'
import { getTask } from '../db/tasks'
import type { App } from '../src/app'
import { hashPassword } from '../src/auth/password'
import { networkKey, parseTrustedProxies } from '../src/core/ip'
import { hashSecret } from '../src/core/keys'
import { LOGIN_THROTTLE, SIGNUP_THROTTLE } from '../src/core/throttle'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { WebClient } from './support/web-client'
import { uniqueEmail } from './support/unique'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const TEST_TIMEOUT_MS = 60_000
const PROXY = parseTrustedProxies('127.0.0.1')
const PASSWORD = 'correct horse battery'
const range = (k: number) => Array.from({ length: k }, (_, i) => i)
const email = (tag: string) => uniqueEmail(tag)
/** Twelve (or more) addresses of one IPv6 /64, each looking unrelated to the others. */
const inSlash64 = (prefix: string, i: number) => `${prefix}:${((i * 40503) % 0x10000).toString(16)}:${(i * 7 + 1).toString(16)}::${i + 1}`

function listen(app: App): { url: string; stop: () => Promise<void> } {
  app.listen({ port: 0, hostname: '127.0.0.1' })
  return { url: `http://127.0.0.1:${app.server!.port}`, stop: async () => void (await app.stop()) }
}

/** A browser behind the trusted proxy, which names it in X-Forwarded-For. */
const browserAt = (app: App, url: string, forwardedFor: string) => new WebClient(app, url, (r) => fetch(r, { redirect: 'manual' }), { 'x-forwarded-for': forwardedFor })

function tally(xs: Array<number | string>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const x of xs) out[x] = (out[x] ?? 0) + 1
  return out
}

describe.each(testDrivers())('per-network limits behind a trusted proxy on %s', (driver) => {
  let tdb: TestDatabase
  let db: Db
  let second: { db: Db; close(): Promise<void> } | null = null

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    db = tdb.db
    if (driver === 'postgres') second = openPostgres(tdb.url!, { max: 10 })
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await second?.close()
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  test(
    '12 sign-ups from 12 addresses of one /64: the first 10 are served, the rest get 429; another /64 still signs up',
    async () => {
      const { app } = await buildTestApp(db, { trustedProxies: PROXY })
      const server = listen(app)
      try {
        const statuses: number[] = []
        for (const i of range(12)) {
          const b = browserAt(app, server.url, inSlash64('2001:db8:aa:1', i))
          await b.get('/signup')
          statuses.push((await b.post('/signup', { email: email('s64'), password: PASSWORD })).status)
        }
        expect(statuses).toEqual([...range(SIGNUP_THROTTLE.max).map(() => 200), 429, 429])
        const other = browserAt(app, server.url, '2001:db8:aa:2::1')
        await other.get('/signup')
        expect((await other.post('/signup', { email: email('s64-other'), password: PASSWORD })).status).toBe(200)
      } finally {
        await server.stop()
      }
    },
    TEST_TIMEOUT_MS,
  )

  test(
    '12 wrong log-ins for one account from 12 addresses of one /64: 10 judged (422), then 429; the owner from elsewhere still logs in',
    async () => {
      const owner = email('l64')
      await createAccountWithPassword(db, { email: owner, passwordHash: await hashPassword(PASSWORD) })
      const { app } = await buildTestApp(db, { trustedProxies: PROXY })
      const server = listen(app)
      try {
        const statuses: number[] = []
        for (const i of range(12)) {
          const b = browserAt(app, server.url, inSlash64('2001:db8:bb:1', i))
          await b.get('/login')
          statuses.push((await b.post('/login', { email: owner, password: `wrong guess ${i}` })).status)
        }
        expect(statuses).toEqual([...range(LOGIN_THROTTLE.address.max).map(() => 422), 429, 429])
        const home = browserAt(app, server.url, '198.51.100.20')
        expect((await home.logIn(owner, PASSWORD)).status).toBe(303)
      } finally {
        await server.stop()
      }
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'IPv4-mapped IPv6 counts as its IPv4 address: 6 wrong log-ins each way make 12 from one client',
    async () => {
      const owner = email('mapped')
      await createAccountWithPassword(db, { email: owner, passwordHash: await hashPassword(PASSWORD) })
      const { app } = await buildTestApp(db, { trustedProxies: PROXY })
      const server = listen(app)
      try {
        const statuses: number[] = []
        for (const i of range(12)) {
          const b = browserAt(app, server.url, i % 2 ? '::ffff:203.0.113.44' : '203.0.113.44')
          await b.get('/login')
          statuses.push((await b.post('/login', { email: owner, password: `wrong ${i}` })).status)
        }
        expect(tally(statuses)).toEqual({ 422: 10, 429: 2 })
      } finally {
        await server.stop()
      }
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'TASK_RATE_LIMIT 5/60 holds for 12 addresses of one /64 (5 × 201, 7 × 429), and another /64 has its own',
    async () => {
      const { app } = await buildTestApp(db, { trustedProxies: PROXY, taskRateLimit: { max: 5, windowSeconds: 60 } })
      const server = listen(app)
      const post = (xff: string) =>
        fetch(`${server.url}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': xff }, body: '{"tool":"http-headers","results":{}}' }).then((r) => r.status)
      try {
        const statuses: number[] = []
        for (const i of range(12)) statuses.push(await post(inSlash64('2001:db8:cc:1', i)))
        expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429, 429, 429, 429, 429])
        expect(await post('2001:db8:cc:2::9')).toBe(201)
      } finally {
        await server.stop()
      }
    },
    TEST_TIMEOUT_MS,
  )

  describe('X-Forwarded-For entries with ports', () => {
    test('a task stores the address, not the proxy: 203.0.113.5:40001 and [2001:db8::1]:443', async () => {
      const { app } = await buildTestApp(db, { trustedProxies: PROXY })
      const server = listen(app)
      try {
        for (const [xff, stored] of [
          ['203.0.113.5:40001', '203.0.113.5'],
          ['[2001:db8::1]:443', '2001:db8::1'],
          ['198.51.100.9, 127.0.0.1:5123', '198.51.100.9'],
        ] as const) {
          const res = await fetch(`${server.url}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': xff }, body: '{"tool":"http-headers","results":{}}' })
          expect(res.status).toBe(201)
          const { task_id } = (await res.json()) as { task_id: string }
          expect((await getTask(db, task_id))?.ip_address).toBe(stored)
        }
      } finally {
        await server.stop()
      }
    })

    test(
      '10 wrong log-ins from 203.0.113.5:40001 lock out that client only: the owner behind the same proxy logs in',
      async () => {
        const owner = email('port')
        await createAccountWithPassword(db, { email: owner, passwordHash: await hashPassword(PASSWORD) })
        const { app } = await buildTestApp(db, { trustedProxies: PROXY })
        const server = listen(app)
        try {
          const attacker = browserAt(app, server.url, '203.0.113.5:40001')
          await attacker.get('/login')
          const statuses: number[] = []
          for (const i of range(11)) statuses.push((await attacker.post('/login', { email: email('victim'), password: `guess ${i}` })).status)
          expect(statuses).toEqual([...range(10).map(() => 422), 429])
          const ownerBrowser = browserAt(app, server.url, '198.51.100.77:50123')
          expect((await ownerBrowser.logIn(owner, PASSWORD)).status).toBe(303)
        } finally {
          await server.stop()
        }
      },
      TEST_TIMEOUT_MS,
    )
  })

  describe('page nonces kept per network (PAGE_NONCE_LIMIT)', () => {
    const unused = async (network: string) =>
      (await rows<{ nonce: string }>(db, sql`select nonce from page_nonces where network = ${hashSecret(network)} and used_at is null`)).map((r) => r.nonce).sort()
    const nonceOf = (html: string) => /data-nonce="([a-z2-7]{26})"/.exec(html)?.[1] ?? null

    test(
      '12 page loads from 12 addresses of one /64 with a limit of 3: every page renders with a nonce, the /64 keeps the newest 3',
      async () => {
        const { app, clock } = await buildTestApp(db, { trustedProxies: PROXY, pageNonceLimit: 3 })
        const server = listen(app)
        try {
          const issued: string[] = []
          for (const i of range(12)) {
            clock.set(new Date(Date.parse('2026-11-15T12:00:00Z') + i * 1000))
            const res = await fetch(`${server.url}/tools/font-detection`, { headers: { 'x-forwarded-for': inSlash64('2001:db8:dd:1', i) } })
            expect(res.status).toBe(200)
            const nonce = nonceOf(await res.text())
            expect(nonce).not.toBeNull()
            issued.push(nonce!)
          }
          expect(await unused(networkKey('2001:db8:dd:1::1'))).toEqual(issued.slice(-3).sort())
          // The newest page's nonce is live: its task is verified. The oldest one's is gone:
          // its task is still stored, unverified, with the reason.
          const submit = async (nonce: string) => {
            const r = await fetch(`${server.url}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '2001:db8:dd:1::99' }, body: JSON.stringify({ tool: 'font-detection', results: {}, nonce }) })
            expect(r.status).toBe(201)
            const task = await getTask(db, ((await r.json()) as { task_id: string }).task_id)
            return JSON.parse(task!.results) as { verified: boolean; server: { nonce: string } }
          }
          expect(await submit(issued[11]!)).toMatchObject({ verified: true, server: { nonce: 'valid' } })
          expect(await submit(issued[0]!)).toMatchObject({ verified: false, server: { nonce: 'unknown' } })
          // A used nonce no longer counts: the /64 keeps 3 never-used ones besides it.
          clock.set('2026-11-15T12:01:00Z')
          await fetch(`${server.url}/tools/font-detection`, { headers: { 'x-forwarded-for': '2001:db8:dd:1::5' } })
          expect(await unused(networkKey('2001:db8:dd:1::1'))).toHaveLength(3)
          expect(((await rows<{ n: number }>(db, sql`select count(*)::int as n from page_nonces where nonce = ${issued[11]!} and used_at is not null`))[0]!.n)).toBe(1)
        } finally {
          await server.stop()
        }
      },
      TEST_TIMEOUT_MS,
    )

    test('another network keeps its own nonces while one /64 loads pages', async () => {
      const { app } = await buildTestApp(db, { trustedProxies: PROXY, pageNonceLimit: 2 })
      const server = listen(app)
      try {
        await fetch(`${server.url}/tools/http-headers`, { headers: { 'x-forwarded-for': '198.51.100.123' } })
        for (const i of range(6)) await fetch(`${server.url}/tools/http-headers`, { headers: { 'x-forwarded-for': inSlash64('2001:db8:ee:1', i) } })
        expect(await unused('198.51.100.123')).toHaveLength(1)
        expect(await unused(networkKey('2001:db8:ee:1::1'))).toHaveLength(2)
      } finally {
        await server.stop()
      }
    })

    test(
      '60 page loads at once from one /64, spread over two app instances on PostgreSQL: exactly the limit is kept',
      async () => {
        const instances = [db, ...(second ? [second.db] : [])]
        const apps = await Promise.all(instances.map((d) => buildTestApp(d, { trustedProxies: PROXY, pageNonceLimit: 5 })))
        const servers = apps.map(({ app }) => listen(app))
        try {
          const statuses = await Promise.all(
            range(60).map((i) => fetch(`${servers[i % servers.length]!.url}/tools/canvas-fingerprint`, { headers: { 'x-forwarded-for': inSlash64('2001:db8:ff:1', i) } }).then((r) => r.status)),
          )
          expect(tally(statuses)).toEqual({ 200: 60 })
          expect(await unused(networkKey('2001:db8:ff:1::1'))).toHaveLength(5)
        } finally {
          await Promise.all(servers.map((s) => s.stop()))
        }
      },
      TEST_TIMEOUT_MS,
    )
  })
})

// browser-fingerprint's fp-commonness over HTTP on every test driver: the service counts the
// stored tasks sharing the submitted visitor id (other addresses only) before judging, stores
// the visitor id as the task's `fingerprint`, and the page's report shows the stored verdict.
// Client addresses come from X-Forwarded-For, believed from the test's own socket (127.0.0.1).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql, type SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { rows } from '../db/client'
import { getTask } from '../db/tasks'
import { parseTrustedProxies } from '../src/core/ip'
import { visitorIdOf } from '../src/checks/visitor-id'
import { CHROME_UA, desktopChrome, plain, scope, twice } from '../src/core/tools/browser-fingerprint.fixture'
import { buildTestApp, fixedClock, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0

type Check = { id: string; verdict: string; observed: unknown; expected: string }
interface StoredResults {
  checks: Check[]
  fingerprint: { visitorId: string; commonness: { tasks: number; addresses: number } | null }
}

/** Desktop Chrome whose core count makes a visitor id of its own for each test. */
function signals(cores: number) {
  const s = desktopChrome()
  s.hardware = twice({ hardwareConcurrency: cores, deviceMemory: 8 })
  s.pageScope = s.iframeScope = s.workerScope = plain(scope(CHROME_UA, { hardwareConcurrency: cores }))
  return s
}

function listen(app: Awaited<ReturnType<typeof buildTestApp>>['app']) {
  app.listen({ port: 0, hostname: '127.0.0.1' })
  return { url: `http://127.0.0.1:${app.server!.port}`, stop: async () => void (await app.stop()) }
}

describe.each(testDrivers())('fp-commonness over HTTP on %s', (driver) => {
  let tdb: TestDatabase
  let server: { url: string; stop: () => Promise<void> }
  let clock: ReturnType<typeof fixedClock>

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    clock = fixedClock()
    const { app } = await buildTestApp(tdb.db, { trustedProxies: parseTrustedProxies('127.0.0.1'), clock })
    server = listen(app)
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await server?.stop()
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  const headers = (ip: string) => ({ 'content-type': 'application/json', 'x-forwarded-for': ip, 'user-agent': CHROME_UA, 'accept-language': 'de-DE,de;q=0.9' })

  async function submit(ip: string, body: unknown, base = server.url): Promise<{ id: string; results: StoredResults; fingerprint: string | null; commonness: Check }> {
    clock.set(new Date(clock().getTime() + 1000))
    const res = await fetch(`${base}/api/antibot/tasks`, { method: 'POST', headers: headers(ip), body: JSON.stringify(body) })
    expect(res.status).toBe(201)
    const id = ((await res.json()) as { task_id: string }).task_id
    return stored(id)
  }

  async function stored(id: string) {
    const results = JSON.parse((await getTask(tdb.db, id))!.results) as StoredResults
    const [row] = await rows<{ fingerprint: string | null }>(tdb.db, sql`select fingerprint from tasks where id = ${id}::uuid`)
    return { id, results, fingerprint: row!.fingerprint, commonness: results.checks.find((c) => c.id === 'fp-commonness')! }
  }

  async function report(ip: string, body: unknown): Promise<{ status: number; row: string }> {
    const res = await fetch(`${server.url}/tools/browser-fingerprint/report`, { method: 'POST', headers: headers(ip), body: JSON.stringify(body) })
    const html = await res.text()
    return { status: res.status, row: /<tr data-check="fp-commonness">[\s\S]*?<\/tr>/.exec(html)?.[0] ?? html }
  }

  const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;')

  test('the first submission is unique, the same address repeating stays unique, many other addresses make it common', async () => {
    const body = { tool: 'browser-fingerprint', results: { signals: signals(6) } }
    const visitorId = visitorIdOf(body.results.signals)!

    const first = await submit('203.0.113.1', body)
    expect(first.fingerprint).toBe(visitorId)
    expect(first.results.fingerprint.visitorId).toBe(visitorId)
    expect(first.commonness).toMatchObject({ verdict: 'pass', observed: `unique: no task stored in the last 90 days has visitor id ${visitorId}` })
    expect(first.results.fingerprint.commonness).toEqual({ tasks: 0, addresses: 0 })

    // One person reloading: their own tasks never count as other visitors.
    for (let i = 1; i <= 3; i++) {
      const again = await submit('203.0.113.1', body)
      expect(again.commonness.verdict).toBe('pass')
      expect(again.commonness.observed).toBe(`unique to this address: ${i} stored task${i === 1 ? ' has' : 's have'} visitor id ${visitorId} in the last 90 days, all from this address`)
      expect(again.results.fingerprint.commonness).toEqual({ tasks: i, addresses: 0 })
    }

    // Four more addresses: each sees the earlier ones as a few other addresses (rare, a pass).
    for (let n = 2; n <= 5; n++) {
      const other = await submit(`198.51.100.${n}`, body)
      expect(other.commonness.verdict).toBe('pass')
      expect(String(other.commonness.observed)).toStartWith('rare: ')
      expect(other.results.fingerprint.commonness!.addresses).toBe(n - 1)
    }

    // The sixth address sees five others: common.
    const sixth = await submit('198.51.100.6', body)
    expect(sixth.commonness.verdict).toBe('warn')
    expect(sixth.commonness.observed).toBe(`common: 8 stored tasks have visitor id ${visitorId} in the last 90 days, from 5 other addresses — a default configuration, as automation fleets have`)
    expect(sixth.fingerprint).toBe(visitorId)

    // And so does the first address now, its own four tasks left out of the addresses.
    const back = await submit('203.0.113.1', body)
    expect(back.commonness.verdict).toBe('warn')
    expect(back.results.fingerprint.commonness).toEqual({ tasks: 9, addresses: 5 })
  })

  test('one address storing a visitor id 1,000 times moves its count by one: the next address still finds it common (issue 57)', async () => {
    const body = { tool: 'browser-fingerprint', results: { signals: signals(14) } }
    const visitorId = visitorIdOf(body.results.signals)!
    for (let n = 1; n <= 5; n++) await submit(`192.0.2.${n}`, body)
    const sixth = await submit('192.0.2.6', body)
    expect(sixth.commonness.verdict).toBe('warn')
    // What 1,000 submissions from one address leave (stored in one statement, newer than the
    // others): the newest thousand tasks are all that address's.
    const at = new Date(clock().getTime() + 1000)
    await tdb.db.execute(sql`insert into tasks (id, tool, score, ip_address, user_agent, results, created_at, fingerprint)
      select gen_random_uuid(), 'browser-fingerprint', 90, '192.0.2.99', 'UA', '{}'::jsonb, ${at.toISOString()}::timestamptz + g * interval '1 millisecond', ${visitorId}
      from generate_series(1, 1000) g`)
    clock.set(new Date(at.getTime() + 10_000))
    const next = await submit('192.0.2.7', body)
    expect(next.commonness.verdict).toBe('warn')
    expect(next.results.fingerprint.commonness!.addresses).toBe(7)
    expect(String(next.commonness.observed)).toStartWith('common: at least 1000 stored tasks have visitor id')
    // And the flooding address itself: the six others, its own thousand left out.
    expect((await submit('192.0.2.99', body)).results.fingerprint.commonness!.addresses).toBe(7)
  })

  test('the report after a page submission shows the stored task’s verdict, not one counting the task itself', async () => {
    const page = await (await fetch(`${server.url}/tools/browser-fingerprint`)).text()
    const nonce = /data-nonce="([a-z2-7]{26})"/.exec(page)![1]!
    const body = { tool: 'browser-fingerprint', results: { signals: signals(10) }, nonce }
    const task = await submit('203.0.113.50', body)
    expect(task.commonness).toMatchObject({ verdict: 'pass', observed: `unique: no task stored in the last 90 days has visitor id ${task.fingerprint}` })
    // Someone else submits the same fingerprint before the page asks for its report.
    await submit('203.0.113.51', { tool: 'browser-fingerprint', results: { signals: signals(10) } })
    const r = await report('203.0.113.50', body)
    expect(r.status).toBe(200)
    expect(r.row).toContain('v-pass')
    expect(r.row).toContain(escaped(String(task.commonness.observed)))
  })

  test('other tools store no fingerprint; bad browser-fingerprint input is a 422, never a 5xx', async () => {
    const bot = await fetch(`${server.url}/api/antibot/tasks`, { method: 'POST', headers: headers('203.0.113.60'), body: JSON.stringify({ tool: 'bot-detector', results: specBotResults() }) })
    expect(bot.status).toBe(201)
    expect((await stored(((await bot.json()) as { task_id: string }).task_id)).fingerprint).toBeNull()
    const bad = [null, 7, { tool: 'browser-fingerprint', results: { signals: { ...signals(2), hardware: 'eight' } } }, { tool: 'browser-fingerprint', results: { signals: signals(2) }, extra: 1 }]
    for (const b of bad) {
      const res = await fetch(`${server.url}/api/antibot/tasks`, { method: 'POST', headers: headers('203.0.113.61'), body: JSON.stringify(b) })
      expect(res.status).toBe(422)
      expect((await report('203.0.113.61', b)).status).toBe(422)
    }
    // Sent no signals (curl): stored with no fingerprint, the check says why.
    const curl = await submit('203.0.113.62', { tool: 'browser-fingerprint', results: {} })
    expect(curl.fingerprint).toBeNull()
    expect(curl.commonness).toMatchObject({ verdict: 'na', expected: 'no visitor id: no component was read reliably' })
  })

  test('a count that fails costs no task: stored, the check na with the reason', async () => {
    // The same database, except that the count over stored tasks throws.
    const dialect = new PgDialect()
    const failing = new Proxy(tdb.db, {
      get(target, prop, receiver) {
        if (prop !== 'execute') return Reflect.get(target, prop, receiver)
        return (query: SQL) => {
          if (dialect.sqlToQuery(query).sql.includes('with recursive seen')) {
            return Promise.reject(new Error('simulated failure of the count'))
          }
          return target.execute(query)
        }
      },
    })
    const lines: string[] = []
    const { app } = await buildTestApp(failing, { trustedProxies: parseTrustedProxies('127.0.0.1'), log: (l) => lines.push(l) })
    const other = listen(app)
    try {
      const task = await submit('203.0.113.70', { tool: 'browser-fingerprint', results: { signals: signals(12) } }, other.url)
      expect(task.fingerprint).toBe(visitorIdOf(signals(12)))
      expect(task.commonness).toMatchObject({ verdict: 'na', expected: 'not counted: the count over stored tasks could not be made (the query failed)' })
      expect(task.results.fingerprint.commonness).toBeNull()
      expect(lines.some((l) => l.includes('simulated failure of the count'))).toBe(true)
    } finally {
      await other.stop()
    }
  })
})

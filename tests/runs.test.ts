// The run API (issue 47) over HTTP, on every test driver: GET /run issues one nonce per tool
// under one run id, and each tool's task stored under its nonce takes that run id; GET
// /api/antibot/runs/{id} and GET /api/antibot/compare answer with the task endpoint's key rules,
// texts and order, and a successful read counts once however many tasks it returns — exactly,
// under concurrency, and on PostgreSQL across two app instances; a run's nonces count against
// PAGE_NONCE_LIMIT as one block, and never evict each other.

import { beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { TOOL_IDS } from '../common/tools'
import { openPostgres, rows, type Db } from '../db/client'
import { getMonthUsage } from '../db/keys'
import { getTask } from '../db/tasks'
import type { App } from '../src/app'
import { compareRuns, type ComparedTask } from '../src/core/compare'
import { uuidV4 } from '../src/core/ids'
import { networkKey, parseTrustedProxies } from '../src/core/ip'
import { generateApiKey, hashSecret } from '../src/core/keys'
import { monthKey } from '../src/core/month'
import { CHROME_UA } from '../src/core/tools/bot-detector.fixture'
import { COMPARE_MISSING } from '../src/http/operations'
import { buildTestApp, makeKey, random, specBotResults } from './support/app'
import { testDrivers, type TestDatabase } from './support/db'
import { HOOK_TIMEOUT_MS, useTestDatabase } from './support/db-suite'

const TEST_TIMEOUT_MS = 120_000
const BASE = 'http://localhost'
const START = '2026-11-15T12:00:00Z'
const UNAUTHORIZED = 'Valid API key required.'
const FORBIDDEN = 'API key is inactive, expired, or has reached its request limit.'
const NOT_FOUND = 'Task not found.'
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000'
const PROXY = parseTrustedProxies('127.0.0.1')
/** What a person's Chrome 131 on Windows sends. */
const CHROME_HEADERS = { 'user-agent': CHROME_UA, 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' }
const CURL_HEADERS = { 'user-agent': 'curl/8.5.0' }
const range = (n: number) => Array.from({ length: n }, (_, i) => i)
const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000)

/** How a request reaches the app: app.handle (client address 'unknown'), or fetch to a listening app. */
type Send = (path: string, init?: RequestInit) => Promise<Response>

interface Section {
  tool: string
  nonce: string
  turnSecret: string
}
interface RunPage {
  runId: string
  sections: Section[]
}
interface ServedTask {
  task_id: string
  tool: string
  score: number
  user_agent: string
  created_at: string
  results: Record<string, unknown>
}
interface Run {
  run_id: string
  created_at: string
  complete: boolean
  tools: string[]
  tasks: ServedTask[]
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null

/** The run id on <body> and each tool section's data attributes, in the page's order. */
function readRunPage(html: string): RunPage {
  const body = /<body\b[^>]*>/.exec(html)?.[0] ?? ''
  const sections = [...html.matchAll(/<section\b[^>]*\sdata-run-tool="[^"]*"[^>]*>/g)].map(([tag]) => ({
    tool: attribute(tag, 'data-run-tool')!,
    nonce: attribute(tag, 'data-nonce') ?? '',
    turnSecret: attribute(tag, 'data-turn-secret') ?? '',
  }))
  return { runId: attribute(body, 'data-run-id') ?? '', sections }
}

const nonceOf = (html: string) => /data-nonce="([a-z2-7]{26})"/.exec(html)?.[1] ?? null

/**
 * What is submitted for a tool: no results (a client without the probes: an untested task, still
 * stored under the page's nonce), except bot-detector, which takes a body of the spec's shape.
 * `{signals: {}}` is refused: each tool's signals have required members.
 */
const resultsFor = (tool: string) => (tool === 'bot-detector' ? specBotResults() : {})

/** The remaining count the RateLimit header gives. */
const remainingOf = (res: Response) => Number(/;r=(\d+);/.exec(res.headers.get('ratelimit') ?? '')?.[1] ?? Number.NaN)

/** Asserts a JSON `{"error": text}` body with nothing else in it. */
async function expectError(res: Response, status: number, text: string): Promise<void> {
  const raw = await res.text()
  expect({ status: res.status, raw }).toEqual({ status, raw: JSON.stringify({ error: text }) })
  expect(res.headers.get('content-type')).toStartWith('application/json')
  expect(res.headers.get('cache-control')).toBe('no-store')
  if (status === 401) expect(res.headers.get('www-authenticate')).toBe('Bearer')
}

/** The page, submission and read helpers over one way of reaching the app. */
function client(send: Send, db: () => Db) {
  const loadRun = async (headers: Record<string, string> = CHROME_HEADERS): Promise<RunPage> => {
    const res = await send('/run', { headers })
    expect(res.status).toBe(200)
    return readRunPage(await res.text())
  }
  const loadTool = async (tool: string, headers: Record<string, string> = CHROME_HEADERS): Promise<string> => {
    const res = await send(`/tools/${tool}`, { headers })
    expect(res.status).toBe(200)
    return nonceOf(await res.text())!
  }
  const submit = async (tool: string, nonce: string | null, headers: Record<string, string> = CHROME_HEADERS): Promise<string> => {
    const body = { tool, results: resultsFor(tool), ...(nonce === null ? {} : { nonce }) }
    const res = await send('/api/antibot/tasks', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    expect({ tool, status: res.status }).toEqual({ tool, status: 201 })
    return ((await res.json()) as { task_id: string }).task_id
  }
  /** Loads /run and stores every tool's task under its section's nonce; the task ids by tool. */
  const completeRun = async (headers: Record<string, string> = CHROME_HEADERS) => {
    const page = await loadRun(headers)
    const tasks = new Map<string, string>()
    for (const s of page.sections) tasks.set(s.tool, await submit(s.tool, s.nonce, headers))
    return { runId: page.runId, tasks }
  }
  const runOfTask = async (taskId: string) => (await rows<{ run_id: string | null }>(db(), sql`select run_id::text as run_id from tasks where id = ${taskId}::uuid`))[0]!.run_id
  return { loadRun, loadTool, submit, completeRun, runOfTask }
}

/** A keyed GET, the key in the Authorization header or the apikey parameter (null: no key). */
function keyed(send: Send, path: string, key: string | null, via: 'header' | 'query' = 'header'): Promise<Response> {
  if (key === null) return send(path)
  if (via === 'header') return send(path, { headers: { authorization: `Bearer ${key}` } })
  return send(`${path}${path.includes('?') ? '&' : '?'}apikey=${encodeURIComponent(key)}`)
}

describe.each(testDrivers())('the run API on %s', (driver) => {
  let tdb: TestDatabase
  let app: App
  let clock: Awaited<ReturnType<typeof buildTestApp>>['clock']
  useTestDatabase(driver, (d) => {
    tdb = d
  })
  const send: Send = (path, init) => app.handle(new Request(`${BASE}${path}`, init))
  const c = client(send, () => tdb.db)
  const readRun = (id: string, key: string | null, via: 'header' | 'query' = 'header') => keyed(send, `/api/antibot/runs/${id}`, key, via)
  const compare = (query: string, key: string | null, via: 'header' | 'query' = 'header') => keyed(send, `/api/antibot/compare${query}`, key, via)
  const used = async (keyId: string) => (await getMonthUsage(tdb.db, keyId, monthKey(clock()))).count

  /** Two complete runs (a person's Chrome, then curl) and a task of a plain tool page. */
  let runA: { runId: string; tasks: Map<string, string> }
  let runB: { runId: string; tasks: Map<string, string> }
  let plainTask: string

  beforeAll(async () => {
    ;({ app, clock } = await buildTestApp(tdb.db))
    clock.set(START)
    runA = await c.completeRun(CHROME_HEADERS)
    runB = await c.completeRun(CURL_HEADERS)
    plainTask = await c.submit('http-headers', await c.loadTool('http-headers'))
  }, HOOK_TIMEOUT_MS)
  beforeEach(() => {
    clock.set(START)
  })

  describe('GET /run', () => {
    test(
      '14 sections in the tools’ order, each with its tool, nonce and TURN password; <body data-run-id> a UUID; the 14 nonces stored under it, one per tool; each task stored with them takes the run id',
      async () => {
        const res = await send('/run', { headers: CHROME_HEADERS })
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toStartWith('text/html')
        expect(res.headers.get('cache-control')).toBe('no-store')
        const page = readRunPage(await res.text())
        expect(page.runId).toMatch(UUID_V4)
        expect(page.sections.map((s) => s.tool)).toEqual([...TOOL_IDS])
        for (const s of page.sections) {
          expect(s.nonce).toMatch(/^[a-z2-7]{26}$/)
          expect(s.turnSecret).toMatch(/^[A-Za-z0-9]{24}$/)
        }
        expect(new Set(page.sections.map((s) => s.nonce)).size).toBe(14)
        expect(new Set(page.sections.map((s) => s.turnSecret)).size).toBe(14)

        const stored = await rows<{ nonce: string; tool: string; turn_secret: string; used: boolean }>(
          tdb.db,
          sql`select nonce, tool, turn_secret, used_at is not null as used from page_nonces where run_id = ${page.runId}::uuid`,
        )
        // Sorted here, not by the database's collation.
        stored.sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
        const bySection = [...page.sections].sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
        expect(stored).toEqual(bySection.map((s) => ({ nonce: s.nonce, tool: s.tool, turn_secret: s.turnSecret, used: false })))

        for (const s of page.sections) {
          const taskId = await c.submit(s.tool, s.nonce)
          expect({ tool: s.tool, run: await c.runOfTask(taskId) }).toEqual({ tool: s.tool, run: page.runId })
          // Stored under the page's nonce: judged against it, not a task without one.
          expect({ tool: s.tool, nonce: (JSON.parse((await getTask(tdb.db, taskId))!.results) as { server: { nonce: string } }).server.nonce }).toEqual({ tool: s.tool, nonce: 'valid' })
        }
        const usedNow = await rows<{ n: number }>(tdb.db, sql`select count(*)::int as n from page_nonces where run_id = ${page.runId}::uuid and used_at is not null`)
        expect(usedNow[0]!.n).toBe(14)
      },
      TEST_TIMEOUT_MS,
    )

    test('every load is a new run: another run id, other nonces', async () => {
      const other = await c.completeRun()
      expect(other.runId).toMatch(UUID_V4)
      expect(other.runId).not.toBe(runA.runId)
      expect(other.runId).not.toBe(runB.runId)
      expect([...other.tasks.keys()]).toEqual([...TOOL_IDS])
    }, TEST_TIMEOUT_MS)

    test('a run’s nonce is single-use (409 the second time, one task per tool); sent for another tool, its task is stored without the run', async () => {
      const page = await c.loadRun()
      const [bot, ipLeak, webrtc] = page.sections as [Section, Section, Section]
      expect(await c.runOfTask(await c.submit(bot.tool, bot.nonce))).toBe(page.runId)
      const again = await send('/api/antibot/tasks', { method: 'POST', headers: { 'content-type': 'application/json', ...CHROME_HEADERS }, body: JSON.stringify({ tool: bot.tool, results: resultsFor(bot.tool), nonce: bot.nonce }) })
      expect(again.status).toBe(409)
      await again.body?.cancel()
      // ip-leak's nonce under webrtc-leak's body: not that page's nonce, so not that run's task.
      const wrong = await c.submit(webrtc.tool, ipLeak.nonce)
      expect(await c.runOfTask(wrong)).toBeNull()
      expect((JSON.parse((await getTask(tdb.db, wrong))!.results) as { server: { nonce: string } }).server.nonce).toBe('wrong-tool')
      const { key } = await makeKey(tdb.db, { limit: 10 })
      const run = (await (await readRun(page.runId, key)).json()) as Run
      expect(run.tasks.map((t) => t.tool)).toEqual([bot.tool])
      expect(run.complete).toBe(false)
      // The rest of the run, so that its nonces do not linger among the network's unused ones.
      for (const s of page.sections.slice(1)) await c.submit(s.tool, s.nonce)
    }, TEST_TIMEOUT_MS)

    test('a task from a tool’s own page, or without a nonce, has no run', async () => {
      const nonce = await c.loadTool('font-detection')
      const issued = await rows<{ run_id: string | null }>(tdb.db, sql`select run_id::text as run_id from page_nonces where nonce = ${nonce}`)
      expect(issued).toEqual([{ run_id: null }])
      expect(await c.runOfTask(await c.submit('font-detection', nonce))).toBeNull()
      expect(await c.runOfTask(plainTask)).toBeNull()
      expect(await c.runOfTask(await c.submit('http-headers', null))).toBeNull()
    }, TEST_TIMEOUT_MS)
  })

  describe('GET /api/antibot/runs/{run_id}', () => {
    test(
      'no run until a task is stored; then 200 with run_id, created_at, complete, tools and tasks in the tools’ order; complete only with all 14; each read counted once',
      async () => {
        const { key, id } = await makeKey(tdb.db, { limit: 100 })
        const page = await c.loadRun()
        await expectError(await readRun(page.runId, key), 404, NOT_FOUND)
        expect(await used(id)).toBe(0)
        // Stored last tool first, a second apart: the run still lists them in the tools' order,
        // and its created_at is its first task's.
        const stored = new Set<string>()
        for (const [i, s] of [...page.sections].reverse().entries()) {
          clock.set(at(i + 1))
          await c.submit(s.tool, s.nonce)
          stored.add(s.tool)
          const res = await readRun(page.runId, key, i % 2 ? 'query' : 'header')
          expect(res.status).toBe(200)
          expect(res.headers.get('content-type')).toStartWith('application/json')
          expect(res.headers.get('cache-control')).toBe('no-store')
          expect(remainingOf(res)).toBe(100 - (i + 1))
          expect(res.headers.get('ratelimit-policy')).toStartWith('"monthly";q=100;')
          const run = (await res.json()) as Run
          expect(Object.keys(run)).toEqual(['run_id', 'created_at', 'complete', 'tools', 'tasks'])
          expect(run.run_id).toBe(page.runId)
          expect(run.created_at).toBe('2026-11-15T12:00:01+00:00')
          expect({ stored: i + 1, complete: run.complete }).toEqual({ stored: i + 1, complete: i === 13 })
          expect(run.tools).toEqual([...TOOL_IDS])
          expect(run.tasks.map((t) => t.tool)).toEqual(TOOL_IDS.filter((t) => stored.has(t)))
          expect(await used(id)).toBe(i + 1)
        }
      },
      TEST_TIMEOUT_MS,
    )

    test('each task is byte for byte what GET /api/antibot/tasks/{id} serves; the read counts one however many tasks', async () => {
      const reader = await makeKey(tdb.db, { limit: 100 })
      const other = await makeKey(tdb.db, { limit: 100 })
      const res = await readRun(runA.runId, reader.key)
      expect(res.status).toBe(200)
      const text = await res.text()
      const run = JSON.parse(text) as Run
      expect(run.complete).toBe(true)
      expect(run.tasks.map((t) => t.task_id)).toEqual(TOOL_IDS.map((t) => runA.tasks.get(t)!))
      for (const t of run.tasks) {
        const single = await keyed(send, `/api/antibot/tasks/${t.task_id}`, other.key)
        expect(single.status).toBe(200)
        const body = await single.text()
        expect(t).toEqual(JSON.parse(body) as ServedTask)
        // The same text, members in the same order.
        expect({ tool: t.tool, inRun: text.includes(body) }).toEqual({ tool: t.tool, inRun: true })
      }
      expect(await used(reader.id)).toBe(1)
      expect(await used(other.id)).toBe(14)
      const again = await readRun(runA.runId, reader.key, 'query')
      expect(remainingOf(again)).toBe(98)
      expect(await again.text()).toBe(text)
      expect(await used(reader.id)).toBe(2)
    }, TEST_TIMEOUT_MS)

    test('an upper-case run id finds the same run', async () => {
      const { key } = await makeKey(tdb.db, { limit: 10 })
      const res = await readRun(runA.runId.toUpperCase(), key)
      expect(res.status).toBe(200)
      expect(((await res.json()) as Run).run_id).toBe(runA.runId)
    })

    test('401 without a key, with a malformed key or an unknown one, in the header or the apikey parameter; before 404', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 10 })
      await expectError(await readRun(runA.runId, null), 401, UNAUTHORIZED)
      await expectError(await send(`/api/antibot/runs/${runA.runId}?apikey=`), 401, UNAUTHORIZED)
      await expectError(await send(`/api/antibot/runs/${runA.runId}`, { headers: { authorization: 'Bearer' } }), 401, UNAUTHORIZED)
      await expectError(await send(`/api/antibot/runs/${runA.runId}`, { headers: { authorization: `Basic ${btoa(`user:${key}`)}` } }), 401, UNAUTHORIZED)
      const changed = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11)
      for (const bad of ['not a key', key.slice(0, -1), `xx_${key.slice(3)}`, changed, generateApiKey(random)]) {
        await expectError(await readRun(runA.runId, bad, 'header'), 401, UNAUTHORIZED)
        await expectError(await readRun(runA.runId, bad, 'query'), 401, UNAUTHORIZED)
      }
      await expectError(await readRun(UNKNOWN_UUID, null), 401, UNAUTHORIZED)
      await expectError(await readRun('not-a-uuid', generateApiKey(random)), 401, UNAUTHORIZED)
      expect(await used(id)).toBe(0)
    })

    test('403 for an inactive or expired key, not counted', async () => {
      const inactive = await makeKey(tdb.db, { limit: 10, status: 'inactive' })
      await expectError(await readRun(runA.runId, inactive.key), 403, FORBIDDEN)
      await expectError(await readRun(runA.runId, inactive.key, 'query'), 403, FORBIDDEN)
      expect(await used(inactive.id)).toBe(0)
      const expired = await makeKey(tdb.db, { limit: 10, expiresAt: new Date(START) })
      await expectError(await readRun(runA.runId, expired.key), 403, FORBIDDEN)
      expect(await used(expired.id)).toBe(0)
    })

    test('403 at the limit, with Retry-After until the month resets; a key at its limit gets 403 even for an unknown run', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 2 })
      const first = await readRun(runA.runId, key)
      expect(first.status).toBe(200)
      expect(remainingOf(first)).toBe(1)
      const second = await readRun(runB.runId, key, 'query')
      expect(second.status).toBe(200)
      expect(remainingOf(second)).toBe(0)
      const refused = await readRun(runA.runId, key)
      // 2026-11-15T12:00:00Z to 2026-12-01T00:00:00Z.
      expect(refused.headers.get('retry-after')).toBe(String(15 * 86400 + 12 * 3600))
      expect(remainingOf(refused)).toBe(0)
      await expectError(refused, 403, FORBIDDEN)
      await expectError(await readRun(UNKNOWN_UUID, key), 403, FORBIDDEN)
      await expectError(await readRun('not-a-uuid', key), 403, FORBIDDEN)
      expect(await used(id)).toBe(2)
      const zero = await makeKey(tdb.db, { limit: 0 })
      await expectError(await readRun(runA.runId, zero.key), 403, FORBIDDEN)
    })

    test('404 for an unknown UUID, a task’s id and ids that are not UUIDs, none of them counted', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 10 })
      await expectError(await readRun(UNKNOWN_UUID, key), 404, NOT_FOUND)
      await expectError(await readRun(uuidV4(random), key, 'query'), 404, NOT_FOUND)
      // A task id is not a run id, not even the id of one of the run's tasks.
      await expectError(await readRun(plainTask, key), 404, NOT_FOUND)
      await expectError(await readRun(runA.tasks.get('bot-detector')!, key), 404, NOT_FOUND)
      for (const bad of ['not-a-uuid', '123', `${runA.runId}0`, runA.runId.slice(1), runA.runId.replace(/-/g, ''), "x'%20or%201=1--", '%zz', 'a'.repeat(500)]) {
        await expectError(await readRun(bad, key), 404, NOT_FOUND)
      }
      expect(await used(id)).toBe(0)
      expect((await readRun(runA.runId, key)).status).toBe(200)
      expect(await used(id)).toBe(1)
    })
  })

  describe('counting under concurrency', () => {
    const tally = async (responses: Response[]) => {
      const statuses: Record<number, number> = {}
      const remaining: number[] = []
      for (const res of responses) {
        statuses[res.status] = (statuses[res.status] ?? 0) + 1
        if (res.status === 200) {
          remaining.push(remainingOf(res))
          expect(((await res.json()) as Run).tasks).toHaveLength(14)
        } else if (res.status === 403) await expectError(res, 403, FORBIDDEN)
        else await res.body?.cancel()
      }
      return { statuses, remaining: remaining.sort((a, b) => a - b) }
    }

    test('40 concurrent run reads with a limit of 15: exactly 15 200s, each its own count, 25 403s', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 15 })
      const { statuses, remaining } = await tally(await Promise.all(range(40).map((i) => readRun(runA.runId, key, i % 3 ? 'header' : 'query'))))
      expect(statuses).toEqual({ 200: 15, 403: 25 })
      expect(remaining).toEqual(range(15))
      expect(await used(id)).toBe(15)
    }, TEST_TIMEOUT_MS)

    // PGlite is one process's database: two instances on it cannot exist.
    if (driver === 'postgres') {
      test('two app instances on one database share the limit: a read on each, then 40 concurrent run reads, a limit of 15, exactly 13 more 200s and a count of 15', async () => {
        const second = openPostgres(tdb.url!, { max: 10 })
        try {
          const { app: other } = await buildTestApp(second.db)
          const sendOther: Send = (path, init) => other.handle(new Request(`${BASE}${path}`, init))
          const { key, id } = await makeKey(tdb.db, { limit: 15 })
          // Each instance counts one read first, one after the other, so both are known to have
          // counted (which of them wins the concurrent ones is the machine's timing)…
          for (const via of [send, sendOther]) expect((await keyed(via, `/api/antibot/runs/${runB.runId}`, key, 'header')).status).toBe(200)
          // …then 40 at once, half to each: exactly the 13 left are answered.
          const responses = await Promise.all(range(40).map((i) => keyed(i % 2 ? sendOther : send, `/api/antibot/runs/${runB.runId}`, key, i % 3 ? 'header' : 'query')))
          const { statuses, remaining } = await tally(responses)
          expect(statuses).toEqual({ 200: 13, 403: 27 })
          expect(remaining).toEqual(range(13))
          expect(await used(id)).toBe(15)
          const [row] = await rows<{ count: number }>(second.db, sql`select count::int from key_usage where key_id = ${id}::uuid`)
          expect(row!.count).toBe(15)
        } finally {
          await second.close()
        }
      }, TEST_TIMEOUT_MS)
    }
  })

  describe('GET /api/antibot/compare', () => {
    const pair = (base: string, head: string) => `?base=${base}&head=${head}`

    test('400 when base or head is missing (or empty), not counted', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 10 })
      for (const query of ['', `?base=${runA.runId}`, `?head=${runB.runId}`, `?base=&head=${runB.runId}`, `?base=${runA.runId}&head=`, `?base=${runA.runId}&Head=${runB.runId}`]) {
        await expectError(await compare(query, key), 400, COMPARE_MISSING)
      }
      await expectError(await compare(`?base=${runA.runId}`, key, 'query'), 400, COMPARE_MISSING)
      expect(await used(id)).toBe(0)
    })

    test('401 without a key, with a malformed or unknown one, both ways', async () => {
      const query = pair(runA.runId, runB.runId)
      await expectError(await compare(query, null), 401, UNAUTHORIZED)
      await expectError(await send(`/api/antibot/compare${query}&apikey=`), 401, UNAUTHORIZED)
      for (const bad of ['not a key', generateApiKey(random)]) {
        await expectError(await compare(query, bad, 'header'), 401, UNAUTHORIZED)
        await expectError(await compare(query, bad, 'query'), 401, UNAUTHORIZED)
      }
      await expectError(await compare(pair(UNKNOWN_UUID, 'not-a-uuid'), null), 401, UNAUTHORIZED)
    })

    test('403 for an inactive key and a key at its limit, even when a side is unknown', async () => {
      const inactive = await makeKey(tdb.db, { limit: 10, status: 'inactive' })
      await expectError(await compare(pair(runA.runId, runB.runId), inactive.key), 403, FORBIDDEN)
      expect(await used(inactive.id)).toBe(0)
      const { key, id } = await makeKey(tdb.db, { limit: 1 })
      expect((await compare(pair(runA.runId, runB.runId), key, 'query')).status).toBe(200)
      const refused = await compare(pair(runA.runId, runB.runId), key)
      expect(refused.headers.get('retry-after')).toBe(String(15 * 86400 + 12 * 3600))
      await expectError(refused, 403, FORBIDDEN)
      await expectError(await compare(pair(runA.runId, UNKNOWN_UUID), key), 403, FORBIDDEN)
      await expectError(await compare(pair('not-a-uuid', runB.runId), key), 403, FORBIDDEN)
      expect(await used(id)).toBe(1)
    })

    test('404 when either side is neither a run nor a task, not counted', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 10 })
      for (const [base, head] of [
        [UNKNOWN_UUID, runB.runId],
        [runA.runId, UNKNOWN_UUID],
        [UNKNOWN_UUID, UNKNOWN_UUID],
        ['not-a-uuid', runB.runId],
        [runA.runId, `${runB.runId}0`],
        [plainTask, '123'],
      ] as const) {
        await expectError(await compare(pair(base, head), key), 404, NOT_FOUND)
      }
      expect(await used(id)).toBe(0)
    })

    test('200 comparing two runs: compareRuns over the runs as served, every tool on both sides, counted once', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 10 })
      const res = await compare(pair(runA.runId, runB.runId), key)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toStartWith('application/json')
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(remainingOf(res)).toBe(9)
      expect(await used(id)).toBe(1)
      const body = (await res.json()) as ReturnType<typeof compareRuns>
      expect(Object.keys(body)).toEqual(['base', 'head', 'same_ruleset', 'tools', 'identity', 'changed', 'new_failures', 'fixed_failures', 'new_warnings'])
      expect(body.base).toEqual({ id: runA.runId, kind: 'run' })
      expect(body.head).toEqual({ id: runB.runId, kind: 'run' })
      expect(body.same_ruleset).toBe(true)
      expect(body.tools.map((t) => [t.tool, t.base_task_id, t.head_task_id])).toEqual(TOOL_IDS.map((t) => [t, runA.tasks.get(t)!, runB.tasks.get(t)!]))
      for (const t of body.tools) expect({ tool: t.tool, same: t.ruleset.same }).toEqual({ tool: t.tool, same: true })
      for (const k of ['changed', 'new_failures', 'fixed_failures', 'new_warnings'] as const) expect(body[k]).toBe(body.tools.reduce((n, t) => n + t[k].length, 0))
      // Chrome, then curl: the user agent changed.
      expect(body.identity).toContainEqual({ id: 'user_agent', name: 'User agent', tool: 'bot-detector', base: CHROME_UA, head: 'curl/8.5.0' })

      // What the pure comparison gives for the two runs as GET /api/antibot/runs/{id} serves them.
      const reader = await makeKey(tdb.db, { limit: 10 })
      const served = async (runId: string) => ((await (await readRun(runId, reader.key)).json()) as Run).tasks as unknown as ComparedTask[]
      const expected = compareRuns({ id: runA.runId, kind: 'run', tasks: await served(runA.runId) }, { id: runB.runId, kind: 'run', tasks: await served(runB.runId) })
      expect(body).toEqual(JSON.parse(JSON.stringify(expected)))
      expect(await used(id)).toBe(1)
    }, TEST_TIMEOUT_MS)

    test('200 comparing a run with a task, and a task with a task: each side’s kind, only the common tool compared', async () => {
      const { key, id } = await makeKey(tdb.db, { limit: 10 })
      const res = await compare(pair(runA.runId, plainTask), key, 'query')
      expect(res.status).toBe(200)
      const body = (await res.json()) as ReturnType<typeof compareRuns>
      expect(body.base).toEqual({ id: runA.runId, kind: 'run' })
      expect(body.head).toEqual({ id: plainTask, kind: 'task' })
      expect(body.tools.map((t) => t.tool)).toEqual([...TOOL_IDS])
      for (const t of body.tools) {
        expect(t.base_task_id).toBe(runA.tasks.get(t.tool)!)
        expect(t.head_task_id).toBe(t.tool === 'http-headers' ? plainTask : null)
        if (t.tool !== 'http-headers') expect({ tool: t.tool, head: t.head, changed: t.changed, new_failures: t.new_failures }).toEqual({ tool: t.tool, head: null, changed: [], new_failures: [] })
      }
      expect(body.same_ruleset).toBe(true)
      expect(await used(id)).toBe(1)

      const tasks = await compare(pair(runA.tasks.get('bot-detector')!, runB.tasks.get('bot-detector')!.toUpperCase()), key)
      expect(tasks.status).toBe(200)
      const two = (await tasks.json()) as ReturnType<typeof compareRuns>
      expect(two.base).toEqual({ id: runA.tasks.get('bot-detector')!, kind: 'task' })
      expect(two.head).toEqual({ id: runB.tasks.get('bot-detector')!, kind: 'task' })
      expect(two.tools.map((t) => t.tool)).toEqual(['bot-detector'])
      expect(await used(id)).toBe(2)
    }, TEST_TIMEOUT_MS)
  })

  // A run's 14 nonces against PAGE_NONCE_LIMIT: the app listens on 127.0.0.1, the trusted
  // proxy, and each request names its client in X-Forwarded-For, so each test has its own network.
  describe('a run’s nonces against PAGE_NONCE_LIMIT', () => {
    const unused = async (address: string) =>
      (await rows<{ nonce: string }>(tdb.db, sql`select nonce from page_nonces where network = ${hashSecret(networkKey(address))} and used_at is null`)).map((r) => r.nonce).sort()
    const sorted = (xs: string[]) => [...xs].sort()

    /** The app with `pageNonceLimit`, listening; `from(address)`: a client the proxy names in X-Forwarded-For. */
    async function listening(pageNonceLimit: number) {
      const built = await buildTestApp(tdb.db, { trustedProxies: PROXY, pageNonceLimit })
      built.app.listen({ port: 0, hostname: '127.0.0.1' })
      const url = `http://127.0.0.1:${built.app.server!.port}`
      const from = (address: string) => client((path, init) => fetch(`${url}${path}`, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), 'x-forwarded-for': address } }), () => tdb.db)
      return { clock: built.clock, from, stop: async () => void (await built.app.stop()) }
    }

    test(
      'with a limit of 5, /run still gives 14 working nonces and evicts the network’s older unused ones; every tool’s task is stored under the run',
      async () => {
        const address = '198.51.100.47'
        const s = await listening(5)
        const c5 = s.from(address)
        try {
          const older: string[] = []
          for (const [i, tool] of ['http-headers', 'font-detection', 'screen-display', 'timezone-geo', 'ip-leak'].entries()) {
            s.clock.set(at(i))
            older.push(await c5.loadTool(tool))
          }
          expect(await unused(address)).toEqual(sorted(older))
          s.clock.set(at(10))
          const page = await c5.loadRun()
          expect(page.sections.map((x) => x.tool)).toEqual([...TOOL_IDS])
          // None of its own evicted, every older one gone.
          expect(await unused(address)).toEqual(sorted(page.sections.map((x) => x.nonce)))
          s.clock.set(at(20))
          for (const x of page.sections) {
            const taskId = await c5.submit(x.tool, x.nonce)
            const stored = JSON.parse((await getTask(tdb.db, taskId))!.results) as { server: { nonce: string } }
            expect({ tool: x.tool, nonce: stored.server.nonce, run: await c5.runOfTask(taskId) }).toEqual({ tool: x.tool, nonce: 'valid', run: page.runId })
          }
          const { key } = await makeKey(tdb.db, { limit: 10 })
          const run = (await (await readRun(page.runId, key)).json()) as Run
          expect(run.complete).toBe(true)
          // An evicted nonce no longer verifies: its task is stored without a run.
          const late = await c5.submit('http-headers', older[0]!)
          expect((JSON.parse((await getTask(tdb.db, late))!.results) as { server: { nonce: string } }).server.nonce).toBe('unknown')
          expect(await c5.runOfTask(late)).toBeNull()
        } finally {
          await s.stop()
        }
      },
      TEST_TIMEOUT_MS,
    )

    test(
      'with a limit of 20, the run’s 14 count as a block: of 10 older unused nonces the newest 6 stay',
      async () => {
        const address = '2001:db8:47:1::5'
        const s = await listening(20)
        const c20 = s.from(address)
        try {
          const older: string[] = []
          for (const i of range(10)) {
            s.clock.set(at(i))
            older.push(await c20.loadTool(TOOL_IDS[i]!))
          }
          s.clock.set(at(30))
          const page = await c20.loadRun()
          const first = page.sections.map((x) => x.nonce)
          expect(await unused(address)).toEqual(sorted([...older.slice(-6), ...first]))
          // Another address of the same /64 is the same network. Its run keeps all 14 of its
          // own and 6 of the first run's (issued at one instant: which 6 is the tie-break's).
          s.clock.set(at(40))
          const next = await s.from('2001:db8:47:1::77').loadRun()
          const left = await unused(address)
          expect(left).toHaveLength(20)
          expect(left).toEqual(expect.arrayContaining(next.sections.map((x) => x.nonce)))
          expect(left.filter((n) => first.includes(n))).toHaveLength(6)
          expect(left.filter((n) => older.includes(n))).toEqual([])
        } finally {
          await s.stop()
        }
      },
      TEST_TIMEOUT_MS,
    )
  })
})

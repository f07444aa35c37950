// The limit under concurrency: with L fetches left, N > L concurrent fetches give exactly L
// 200s and N - L 403s, and the count ends at the limit. On PostgreSQL also with two app
// instances (two connection pools) sharing the load. And concurrent submissions each store
// exactly one row. The limit is an account's allowance on a plan (issue 57): keys created,
// rotated, deactivated and deleted on the dashboard never add fetches to a month, and
// concurrent fetches through two keys of one account count it exactly.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPostgres } from '../db/client'
import { getMonthUsage } from '../db/keys'
import { upsertPlan } from '../db/plans'
import { countTasks, getTask } from '../db/tasks'
import { monthKey } from '../src/core/month'
import { buildTestApp, makeKey, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { uniqueEmail } from './support/unique'
import { WebClient } from './support/web-client'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const FORBIDDEN = 'API key is inactive, expired, or has reached its request limit.'
type App = Awaited<ReturnType<typeof buildTestApp>>['app']

function fetchVia(app: App, taskId: string, key: string) {
  return app.handle(new Request(`http://localhost/api/antibot/tasks/${taskId}`, { headers: { authorization: `Bearer ${key}` } }))
}

/** Tallies statuses; checks every 403 carries the spec's text; returns the `r` of each 200. */
async function tally(responses: Response[]) {
  const statuses: Record<number, number> = {}
  const remaining: number[] = []
  for (const res of responses) {
    statuses[res.status] = (statuses[res.status] ?? 0) + 1
    if (res.status === 200) remaining.push(Number(/;r=(\d+);/.exec(res.headers.get('ratelimit') ?? '')?.[1]))
    if (res.status === 403) expect(((await res.json()) as { error: string }).error).toBe(FORBIDDEN)
    else await res.body?.cancel()
  }
  return { statuses, remaining: remaining.sort((a, b) => a - b) }
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

describe.each(testDrivers())('concurrency on %s', (driver) => {
  let tdb: TestDatabase
  let app: App
  let clock: Awaited<ReturnType<typeof buildTestApp>>['clock']
  let taskId: string

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    // In-process requests share one address: room beyond the sign-up throttle for the accounts.
    ;({ app, clock } = await buildTestApp(tdb.db, { signupLimit: { max: 1_000, windowSeconds: 3600 } }))
    const res = await app.handle(
      new Request('http://localhost/api/antibot/tasks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'bot-detector', results: specBotResults() }),
      }),
    )
    taskId = ((await res.json()) as { task_id: string }).task_id
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  test('50 concurrent fetches with a limit of 20: exactly 20 200s and 30 403s', async () => {
    const { key, id } = await makeKey(tdb.db, { limit: 20 })
    const { statuses, remaining } = await tally(await Promise.all(range(50).map(() => fetchVia(app, taskId, key))))
    expect(statuses).toEqual({ 200: 20, 403: 30 })
    // Each 200 saw its own count: the increments did not overlap.
    expect(remaining).toEqual(range(20))
    expect((await getMonthUsage(tdb.db, id, monthKey(clock()))).count).toBe(20)
  })

  test('with some of the month already used, only what is left is served', async () => {
    const { key, id } = await makeKey(tdb.db, { limit: 20 })
    for (let i = 0; i < 5; i++) expect((await fetchVia(app, taskId, key)).status).toBe(200)
    const { statuses } = await tally(await Promise.all(range(50).map(() => fetchVia(app, taskId, key))))
    expect(statuses).toEqual({ 200: 15, 403: 35 })
    expect((await getMonthUsage(tdb.db, id, monthKey(clock()))).count).toBe(20)
  })

  test('concurrent submissions each store exactly one row', async () => {
    const before = await countTasks(tdb.db)
    const responses = await Promise.all(
      range(30).map((i) =>
        app.handle(
          new Request('http://localhost/api/antibot/tasks', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            // Each row marked by its canvas hash (a member the task keeps as sent).
            body: JSON.stringify({ tool: 'bot-detector', results: { ...specBotResults(), canvas: { hash: String(i) } } }),
          }),
        ),
      ),
    )
    expect(responses.map((r) => r.status)).toEqual(range(30).map(() => 201))
    const ids = await Promise.all(responses.map(async (r) => ((await r.json()) as { task_id: string }).task_id))
    expect(new Set(ids).size).toBe(30)
    expect(await countTasks(tdb.db)).toBe(before + 30)
    const stored = await Promise.all(ids.map((id) => getTask(tdb.db, id)))
    expect(stored.map((t) => Number((JSON.parse(t!.results) as { canvas: { hash: string } }).canvas.hash)).sort((a, b) => a - b)).toEqual(range(30))
  })

  test('create key → 5 fetches → delete key, three rounds on a plan of 3: 200 200 200 403 403, then only 403s', async () => {
    const plan = `tiny-${crypto.randomUUID().slice(0, 8)}`
    await upsertPlan(tdb.db, { name: plan, monthlyLimit: 3, selfServe: true })
    const c = new WebClient(app)
    await c.signUp(uniqueEmail('cycle'))
    const rounds: number[][] = []
    for (let round = 0; round < 3; round++) {
      const { key, id } = await c.createKey({ name: `k${round}`, plan })
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) {
        const res = await fetchVia(app, taskId, key)
        statuses.push(res.status)
        await res.body?.cancel()
      }
      rounds.push(statuses)
      expect((await c.post(`/dashboard/keys/${id}/delete`)).status).toBe(303)
    }
    expect(rounds).toEqual([
      [200, 200, 200, 403, 403],
      [403, 403, 403, 403, 403],
      [403, 403, 403, 403, 403],
    ])
    // Neither does rotating, deactivating and activating again, nor a key beside it.
    const { key, id } = await c.createKey({ name: 'last', plan })
    expect((await c.post(`/dashboard/keys/${id}/deactivate`)).status).toBe(303)
    expect((await c.post(`/dashboard/keys/${id}/activate`)).status).toBe(303)
    expect((await c.post(`/dashboard/keys/${id}/rotate`)).status).toBe(303)
    const rotated = /id="new-key-secret">\s*(ab_[0-9A-Za-z]+)/.exec(c.html)?.[1]
    expect(rotated).toBeDefined()
    const beside = await c.createKey({ name: 'beside', plan })
    for (const k of [key, rotated!, beside.key]) expect((await fetchVia(app, taskId, k)).status).not.toBe(200)
    await c.get('/dashboard')
    expect(c.html).toContain('3 / 3')
  })

  test('concurrent fetches through two keys of one account share its allowance: exactly the limit in 200s', async () => {
    const email = uniqueEmail('two-keys')
    const a = await makeKey(tdb.db, { limit: 20, email })
    const b = await makeKey(tdb.db, { limit: 20, email })
    const { statuses, remaining } = await tally(await Promise.all(range(60).map((i) => fetchVia(app, taskId, i % 2 ? a.key : b.key))))
    expect(statuses).toEqual({ 200: 20, 403: 40 })
    // Each 200 saw its own count of the one allowance: the increments did not overlap.
    expect(remaining).toEqual(range(20))
    const month = monthKey(clock())
    expect((await getMonthUsage(tdb.db, a.id, month)).count + (await getMonthUsage(tdb.db, b.id, month)).count).toBe(20)
  })

  // PGlite is one process's database: two instances on it cannot exist.
  if (driver === 'postgres') test('two app instances on one database share the limit: exactly 20 200s in total', async () => {
    const second = openPostgres(tdb.url!, { max: 10 })
    try {
      const { app: other } = await buildTestApp(second.db)
      const { key, id } = await makeKey(tdb.db, { limit: 20 })
      const apps = [app, other]
      const { statuses, remaining } = await tally(await Promise.all(range(50).map((i) => fetchVia(apps[i % 2]!, taskId, key))))
      expect(statuses).toEqual({ 200: 20, 403: 30 })
      expect(remaining).toEqual(range(20))
      expect((await getMonthUsage(tdb.db, id, monthKey(clock()))).count).toBe(20)
    } finally {
      await second.close()
    }
  })

  if (driver === 'postgres') test('two app instances, two keys of one account: exactly 20 200s in total', async () => {
    const second = openPostgres(tdb.url!, { max: 10 })
    try {
      const { app: other } = await buildTestApp(second.db)
      const email = uniqueEmail('two-instances-two-keys')
      const keys = [await makeKey(tdb.db, { limit: 20, email }), await makeKey(tdb.db, { limit: 20, email })]
      const apps = [app, other]
      const { statuses, remaining } = await tally(await Promise.all(range(80).map((i) => fetchVia(apps[i % 2]!, taskId, keys[(i >> 1) % 2]!.key))))
      expect(statuses).toEqual({ 200: 20, 403: 60 })
      expect(remaining).toEqual(range(20))
    } finally {
      await second.close()
    }
  })
})

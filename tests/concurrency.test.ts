// The limit under concurrency: with L fetches left, N > L concurrent fetches give exactly L
// 200s and N - L 403s, and the count ends at the limit. On PostgreSQL also with two app
// instances (two connection pools) sharing the load. And concurrent submissions each store
// exactly one row.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPostgres } from '../db/client'
import { getMonthUsage } from '../db/keys'
import { countTasks, getTask } from '../db/tasks'
import { monthKey } from '../src/core/month'
import { buildTestApp, makeKey, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening a database can take seconds on a loaded machine; the hooks get more than the default.
const HOOK_TIMEOUT_MS = 60_000
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
    ;({ app, clock } = await buildTestApp(tdb.db))
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
})

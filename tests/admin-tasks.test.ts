// GET /api/admin/tasks, the operator's list of recent tasks (what the detection matrix uses to
// find the task of a person's browser, whose page it does not drive), on every test driver.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { insertTask } from '../db/tasks'
import { taskListQuery } from '../src/http/admin'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const BASE = 'http://localhost'
const ADMIN = 'test-admin-token-0123456789'

type App = Awaited<ReturnType<typeof buildTestApp>>['app']

describe('taskListQuery', () => {
  test('defaults to 20 tasks of every tool', () => {
    expect(taskListQuery({})).toEqual({ tool: undefined, limit: 20 })
  })
  test('accepts a known tool and limits from 1 to 100', () => {
    expect(taskListQuery({ tool: 'bot-detector', limit: '1' })).toEqual({ tool: 'bot-detector', limit: 1 })
    expect(taskListQuery({ limit: '100' }).limit).toBe(100)
  })
  test('rejects an unknown tool and limits that are not whole numbers from 1 to 100', () => {
    expect(() => taskListQuery({ tool: 'no-such-tool' })).toThrow("Cannot list tasks: unknown tool 'no-such-tool'")
    for (const limit of ['0', '101', '1.5', '-1', '', '01', 'ten']) expect(() => taskListQuery({ limit })).toThrow(`got '${limit}'`)
  })
})

describe.each(testDrivers())('GET /api/admin/tasks on %s', (driver) => {
  let tdb: TestDatabase
  let app: App
  const ids = { old: crypto.randomUUID(), mid: crypto.randomUUID(), newest: crypto.randomUUID(), other: crypto.randomUUID() }
  const list = (query = '', token: string | null = ADMIN) =>
    app.handle(new Request(`${BASE}/api/admin/tasks${query}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } }))

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    ;({ app } = await buildTestApp(tdb.db, { adminToken: ADMIN }))
    const task = (id: string, tool: string, score: number, at: string) =>
      insertTask(tdb.db, { id, tool, score, ipAddress: '127.0.0.1', userAgent: 'Test/1.0', results: { summary: { score } }, createdAt: new Date(at) })
    await task(ids.old, 'bot-detector', 10, '2026-11-15T12:00:00Z')
    await task(ids.other, 'ip-leak', 100, '2026-11-15T12:00:01Z')
    await task(ids.mid, 'bot-detector', 50, '2026-11-15T12:00:02Z')
    await task(ids.newest, 'bot-detector', 95, '2026-11-15T12:00:02.5Z')
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  test('lists the newest tasks first, without their results', async () => {
    const res = await list()
    expect(res.status).toBe(200)
    const body = (await res.json()) as Array<Record<string, unknown>>
    expect(body.map((t) => t.task_id)).toEqual([ids.newest, ids.mid, ids.other, ids.old])
    expect(body[0]).toEqual({ task_id: ids.newest, tool: 'bot-detector', score: 95, created_at: '2026-11-15T12:00:02+00:00' })
  })

  test('filters by tool and stops at the limit', async () => {
    const res = await list('?tool=bot-detector&limit=2')
    expect(((await res.json()) as Array<{ task_id: string }>).map((t) => t.task_id)).toEqual([ids.newest, ids.mid])
    const other = await list('?tool=ip-leak')
    expect(((await other.json()) as Array<{ task_id: string }>).map((t) => t.task_id)).toEqual([ids.other])
  })

  test('needs the operator token, and answers 422 for a bad query', async () => {
    expect((await list('', null)).status).toBe(401)
    expect((await list('', 'wrong-token-wrong-token-0000')).status).toBe(401)
    const bad = await list('?limit=0')
    expect(bad.status).toBe(422)
    expect(await bad.json()).toEqual({ error: "Cannot list tasks: limit must be a whole number from 1 to 100, got '0'" })
  })
})

// The keyed GET of a task whose served body the instance keeps (src/signing.ts) reads the task
// without its results (db/fetch.ts, omitResults): what is served is the kept body, checked
// against the row's other fields and the results' stored size; a body pushed out meanwhile is
// built from a second read that counts nothing.

import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { getMonthUsage } from '../db/keys'
import type { ResponseSigner } from '../src/signing'
import { buildTestApp, makeKey, specBotResults } from './support/app'
import { testDrivers, type TestDatabase } from './support/db'
import { useTestDatabase } from './support/db-suite'

describe.each(testDrivers())('kept bodies on %s', (driver) => {
  let tdb: TestDatabase
  useTestDatabase(driver, (d) => (tdb = d))

  async function setUp(wrap: (s: ResponseSigner) => ResponseSigner = (s) => s) {
    const built = await buildTestApp(tdb.db)
    const { app, deps } = await buildTestApp(tdb.db, { signer: wrap(built.deps.signer) })
    const created = await app.handle(
      new Request('http://localhost/api/antibot/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tool: 'bot-detector', results: specBotResults() }) }),
    )
    const { task_id } = (await created.json()) as { task_id: string }
    const { key, id } = await makeKey(tdb.db, { limit: 100 })
    const get = async () => {
      const r = await app.handle(new Request(`http://localhost/api/antibot/tasks/${task_id}`, { headers: { authorization: `Bearer ${key}` } }))
      return { status: r.status, body: await r.text(), signature: r.headers.get('jws-signature') }
    }
    const used = async () => (await getMonthUsage(tdb.db, id, `${deps.clock().toISOString().slice(0, 7)}-01`))?.count ?? 0
    return { task_id, get, used }
  }

  /** Rewrites the stored results of a task (tasks are written once; only a test does this). */
  const rewrite = (id: string, replace: [string, string]) =>
    tdb.db.execute(sql`update tasks set results = replace(results::text, ${replace[0]}, ${replace[1]})::jsonb where id = ${id}::uuid`)

  test('a kept body is served without reading the results again; a change of their size is seen', async () => {
    const { task_id, get, used } = await setUp()
    const first = await get()
    expect(first.status).toBe(200)
    expect(first.body).toContain('"a1b2c3"')
    // Same stored size, other text: the kept body is served, so the results were not read.
    await rewrite(task_id, ['a1b2c3', 'z9y8x7'])
    const second = await get()
    expect(second).toEqual(first)
    // Another size: the guard sees it, and the body is built again from the row.
    await rewrite(task_id, ['z9y8x7', 'a-longer-canvas-hash'])
    const third = await get()
    expect(third.status).toBe(200)
    expect(third.body).toContain('"a-longer-canvas-hash"')
    expect(third.signature).not.toBe(first.signature)
    expect(await used()).toBe(3)
  })

  test('a body pushed out between the two steps is built from a second read, and the fetch counts once', async () => {
    let evicted = 0
    const { get, used } = await setUp((s) => ({
      ...s,
      // As if other fetches pushed the body out while this one was in the database.
      kept: () => {
        evicted++
        return undefined
      },
    }))
    const first = await get()
    const second = await get()
    expect(evicted).toBe(1)
    expect(second).toEqual(first)
    expect(second.status).toBe(200)
    expect(await used()).toBe(2)
  })
})

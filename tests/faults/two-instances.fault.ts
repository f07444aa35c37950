// Two real service processes (`bun src/main.ts`) on one PostgreSQL database, many concurrent
// clients on one key with a limit of L: exactly L 200s, the rest 403, each 200 saw its own
// remaining count, and the usage counter in the database is L.

import { requirePrerequisite } from '../support/prerequisites'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import postgres from 'postgres'
import { startServer, type RunningServer } from '../support/server'
import { specBotResults } from '../support/app'
import { faultPostgres, privateClusterUnavailable, runLoad, tally } from './support'

const L = 500
const N = 2000
const CONCURRENCY = 64
const FORBIDDEN = 'API key is inactive, expired, or has reached its request limit.'

const why = process.env.TEST_DATABASE_URL ? null : privateClusterUnavailable()

describe('two service processes on one database', () => {
  let pg: NonNullable<Awaited<ReturnType<typeof faultPostgres>>>
  const servers: RunningServer[] = []

  beforeAll(async () => {
    requirePrerequisite(why && `no TEST_DATABASE_URL and ${why}`)
    pg = (await faultPostgres())!
    // One after the other: the first applies the migrations (both would take turns anyway).
    servers.push(await startServer({ DATABASE_URL: pg.url }))
    servers.push(await startServer({ DATABASE_URL: pg.url }))
  }, 180_000)
  afterAll(async () => {
    for (const s of servers) await s.stop()
    await pg?.destroy()
  }, 120_000)

  test(`${N} fetches from ${CONCURRENCY} clients with a limit of ${L}: exactly ${L} 200s and the counter is ${L}`, async () => {
    const [a, b] = servers as [RunningServer, RunningServer]
    const admin = { authorization: `Bearer ${a.adminToken}`, 'content-type': 'application/json' }
    expect((await fetch(`${a.baseUrl}/api/admin/plans`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'fault-l', monthly_limit: L }) })).status).toBeLessThan(300)
    const key = await a.makeKey({ plan: 'fault-l' })
    const created = await fetch(`${b.baseUrl}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tool: 'bot-detector', results: specBotResults() }) })
    const taskId = ((await created.json()) as { task_id: string }).task_id

    const started = performance.now()
    const samples = await runLoad({
      concurrency: CONCURRENCY,
      total: N,
      make: (i) => ({
        kind: i % 2 ? 'B' : 'A',
        // Both ways of sending the key, on both instances.
        url: `${(i % 2 ? b : a).baseUrl}/api/antibot/tasks/${taskId}${i % 3 === 0 ? `?apikey=${key}` : ''}`,
        init: i % 3 === 0 ? {} : { headers: { authorization: `Bearer ${key}` } },
      }),
    })
    console.log(`two instances: ${N} requests in ${(performance.now() - started).toFixed(0)} ms, ${JSON.stringify(tally(samples))}`)

    const byStatus = (status: number) => samples.filter((s) => s.status === status)
    expect(samples).toHaveLength(N)
    expect(byStatus(200)).toHaveLength(L)
    expect(byStatus(403)).toHaveLength(N - L)
    // Both instances served some of the L.
    expect(byStatus(200).filter((s) => s.kind === 'A').length).toBeGreaterThan(0)
    expect(byStatus(200).filter((s) => s.kind === 'B').length).toBeGreaterThan(0)
    for (const s of byStatus(403)) expect(JSON.parse(s.body)).toEqual({ error: FORBIDDEN })
    for (const s of byStatus(200)) expect((JSON.parse(s.body) as { task_id: string }).task_id).toBe(taskId)

    const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
    try {
      const [usage] = await sql<{ n: number }[]>`select coalesce(sum(count), 0)::int as n from key_usage`
      expect(usage!.n).toBe(L)
    } finally {
      await sql.end()
    }
  }, 180_000)
})

// An ingest burst against a real service process: many task submissions from 64 concurrent
// clients. The number of 201s equals the rows stored equals the distinct task ids returned,
// every returned id is a stored row, and nothing answers 5xx. On PostgreSQL (TEST_DATABASE_URL
// or a private cluster) and, smaller, on embedded PGlite.

import { requirePrerequisite } from '../support/prerequisites'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { sql } from 'drizzle-orm'
import { openPglite, rows } from '../../db/client'
import { startServer } from '../support/server'
import { specBotResults } from '../support/app'
import { faultPostgres, privateClusterUnavailable, runLoad, tally, type Sample } from './support'

const CONCURRENCY = 64
const POSTGRES_BURST = Number(process.env.FAULT_BURST ?? 20_000)
const PGLITE_BURST = Number(process.env.FAULT_BURST_PGLITE ?? 5_000)

const pgWhy = process.env.TEST_DATABASE_URL ? null : privateClusterUnavailable()

/** Varied bodies: each carries its index, so a row can be matched to its request. */
function body(i: number): string {
  // Marked by the canvas hash, a member a task keeps as sent (others are dropped: issue 34),
  // and padded in it to vary the bodies' sizes.
  const results = { ...specBotResults(i % 101), canvas: { hash: `burst-${i}-${'x'.repeat(i % 512)}` } }
  return JSON.stringify({ tool: 'bot-detector', results })
}

async function burst(baseUrl: string, total: number): Promise<{ samples: Sample[]; ms: number }> {
  const t0 = performance.now()
  const samples = await runLoad({
    concurrency: CONCURRENCY,
    total,
    make: (i) => ({ kind: 'POST', url: `${baseUrl}/api/antibot/tasks`, init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(i) } }),
  })
  return { samples, ms: performance.now() - t0 }
}

function check(samples: Sample[], total: number, stored: { rows: number; matching: number }) {
  const created = samples.filter((s) => s.status === 201)
  const ids = created.map((s) => (JSON.parse(s.body) as { task_id: string }).task_id)
  expect(samples).toHaveLength(total)
  expect(samples.filter((s) => s.status === 0 || s.status >= 500).map((s) => `${s.status} ${s.body.slice(0, 100)}`)).toEqual([])
  expect(created).toHaveLength(total)
  expect(new Set(ids).size).toBe(created.length)
  expect(stored.rows).toBe(created.length)
  expect(stored.matching).toBe(created.length)
  return ids
}

describe('ingest burst', () => {
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  }, 120_000)

  test(`${POSTGRES_BURST} submissions, ${CONCURRENCY} at a time, on PostgreSQL`, async () => {
    requirePrerequisite(pgWhy && `no TEST_DATABASE_URL and ${pgWhy}`)
    const pg = (await faultPostgres())!
    cleanups.push(() => pg.destroy())
    const server = await startServer({ DATABASE_URL: pg.url })
    cleanups.push(() => server.stop())
    const { samples, ms } = await burst(server.baseUrl, POSTGRES_BURST)
    console.log(`burst on PostgreSQL (${pg.where}): ${POSTGRES_BURST} POSTs in ${(ms / 1000).toFixed(1)} s (${Math.round(POSTGRES_BURST / (ms / 1000))}/s), ${JSON.stringify(tally(samples))}`)
    const db = postgres(pg.url, { max: 1, onnotice: () => {} })
    try {
      const ids = samples.filter((s) => s.status === 201).map((s) => (JSON.parse(s.body) as { task_id: string }).task_id)
      const [count] = await db<{ n: number }[]>`select count(*)::int as n from tasks`
      const [matching] = await db<{ n: number }[]>`select count(*)::int as n from tasks where id = any(${ids}::uuid[])`
      const [distinctBodies] = await db<{ n: number }[]>`select count(distinct split_part(results->'canvas'->>'hash', '-', 2))::int as n from tasks`
      check(samples, POSTGRES_BURST, { rows: count!.n, matching: matching!.n })
      // Each request's body is stored once: no submission lost or stored twice.
      expect(distinctBodies!.n).toBe(POSTGRES_BURST)
    } finally {
      await db.end()
    }
  }, 300_000)

  test(`${PGLITE_BURST} submissions, ${CONCURRENCY} at a time, on PGlite`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'antibot-burst-'))
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
    const server = await startServer({ DATA_DIR: dataDir })
    let stopped = false
    cleanups.push(async () => void (stopped || (await server.stop())))
    const { samples, ms } = await burst(server.baseUrl, PGLITE_BURST)
    console.log(`burst on PGlite: ${PGLITE_BURST} POSTs in ${(ms / 1000).toFixed(1)} s (${Math.round(PGLITE_BURST / (ms / 1000))}/s), ${JSON.stringify(tally(samples))}`)
    // PGlite is single-process: stop the service, then open its data directory here.
    await server.stop()
    stopped = true
    const lite = await openPglite(join(dataDir, 'pglite'))
    try {
      const ids = samples.filter((s) => s.status === 201).map((s) => (JSON.parse(s.body) as { task_id: string }).task_id)
      const [count] = await rows<{ n: number }>(lite.db, sql`select count(*)::int as n from tasks`)
      const stored = new Set((await rows<{ id: string }>(lite.db, sql`select id::text as id from tasks`)).map((r) => r.id))
      check(samples, PGLITE_BURST, { rows: count!.n, matching: ids.filter((id) => stored.has(id)).length })
    } finally {
      await lite.close()
    }
  }, 300_000)
})

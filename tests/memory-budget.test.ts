// The memory budget of a small container (issues 33 and 61, docs/operations.md#memory), measured
// on the service as a user starts it: package.json's start command on a fresh DATA_DIR, PSS
// summed over all its processes (the IP database's parser, a child, included) and sampled every
// 50 ms from spawn (tests/support/pss.ts). The embedded default within 256 MB at its first start,
// idle, under a load of submissions and keyed fetches, and at a later start; on PostgreSQL
// (TEST_DATABASE_URL) a first start within 256 MB and idle ≤ 160 MB. Memory, not time: a busy
// machine makes the run slower, not larger (the JSC heap is bounded by the start command's
// BUN_JSC_gcMaxHeapSize). Measured here with both cores busy at 189 / 165 / 225 / 157 MB, and
// 170 / 67 MB on PostgreSQL (`npm run bench:memory` prints the same figures).

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon, { type AutocannonResult } from 'autocannon'
import { specBotResults } from './support/app'
import { openTestDatabase } from './support/db'
import { describeParts, IPDB_DONE, listening, spawnService, treeSampler } from './support/pss'

const RUN_TIMEOUT_MS = 240_000
const BUDGET_MB = { start: 256, idlePglite: 256, idlePostgres: 160, load: 256 }
const BODY = JSON.stringify({ tool: 'bot-detector', results: specBotResults() })
const parent = mkdtempSync(join(tmpdir(), 'antibot-memory-budget-'))
afterAll(() => rmSync(parent, { recursive: true, force: true }))

/** A start from spawn until the IP database is loaded and 2 s more; then 5 s of quiet. */
async function startAndIdle(dataDir: string, databaseUrl?: string) {
  const service = spawnService({ dataDir, databaseUrl })
  const sampler = treeSampler(service.pid)
  try {
    const url = await listening(service)
    await service.waitFor(IPDB_DONE)
    await Bun.sleep(2000)
    const start = sampler.peak
    await Bun.sleep(3000)
    const from = performance.now()
    await Bun.sleep(2000)
    return { service, sampler, url, start, idle: sampler.medianBetween(from) }
  } catch (e) {
    sampler.stop()
    await service.stop()
    throw e
  }
}

/** 400 submissions and 400 keyed fetches, 16 connections each, at once. */
async function load(url: string, adminToken: string): Promise<void> {
  const keyRes = await fetch(`${url}/api/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'memory-budget@example.com', plan: 'business' }),
  })
  expect(keyRes.status).toBe(201)
  const { key } = (await keyRes.json()) as { key: string }
  const created = await fetch(`${url}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY })
  expect(created.status).toBe(201)
  const { task_id: taskId } = (await created.json()) as { task_id: string }
  const run = (opts: Record<string, unknown>) =>
    new Promise<AutocannonResult>((resolve, reject) => {
      autocannon({ connections: 16, amount: 400, timeout: 60, ...opts }, (err, result) => (err ? reject(err) : resolve(result)))
    })
  const results = await Promise.all([
    run({ url: `${url}/api/antibot/tasks`, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY }),
    run({ url: `${url}/api/antibot/tasks/${taskId}`, headers: { authorization: `Bearer ${key}` } }),
  ])
  for (const r of results) expect({ ok: r['2xx'], other: r.non2xx, errors: r.errors }).toEqual({ ok: 400, other: 0, errors: 0 })
}

describe('memory of the service as a user starts it (PSS of all its processes)', () => {
  test(
    `embedded PGlite: a first start on a fresh DATA_DIR ≤ ${BUDGET_MB.start} MB, idle ≤ ${BUDGET_MB.idlePglite} MB, under load ≤ ${BUDGET_MB.load} MB; a later start ≤ ${BUDGET_MB.start} MB`,
    async () => {
      const dataDir = join(parent, 'pglite')
      const first = await startAndIdle(dataDir)
      try {
        console.log(`memory: PGlite first start ${first.start.mb.toFixed(0)} MB (${describeParts(first.start)}), idle ${first.idle.toFixed(0)} MB`)
        expect(first.start.mb).toBeLessThanOrEqual(BUDGET_MB.start)
        expect(first.idle).toBeLessThanOrEqual(BUDGET_MB.idlePglite)
        const from = performance.now()
        await load(first.url, first.service.adminToken)
        const underLoad = first.sampler.peakBetween(from)
        console.log(`memory: PGlite under load ${underLoad.toFixed(0)} MB`)
        expect(underLoad).toBeLessThanOrEqual(BUDGET_MB.load)
      } finally {
        first.sampler.stop()
        await first.service.stop()
      }
      const again = await startAndIdle(dataDir)
      try {
        console.log(`memory: PGlite later start ${again.start.mb.toFixed(0)} MB, idle ${again.idle.toFixed(0)} MB`)
        expect(again.start.mb).toBeLessThanOrEqual(BUDGET_MB.start)
        expect(again.idle).toBeLessThanOrEqual(BUDGET_MB.idlePglite)
      } finally {
        again.sampler.stop()
        await again.service.stop()
      }
    },
    RUN_TIMEOUT_MS,
  )

  test.skipIf(!process.env.TEST_DATABASE_URL)(
    `PostgreSQL: a first start ≤ ${BUDGET_MB.start} MB, idle ≤ ${BUDGET_MB.idlePostgres} MB`,
    async () => {
      const database = await openTestDatabase('postgres', { migrate: false })
      try {
        const run = await startAndIdle(join(parent, 'postgres'), database.url)
        try {
          console.log(`memory: PostgreSQL start ${run.start.mb.toFixed(0)} MB (${describeParts(run.start)}), idle ${run.idle.toFixed(0)} MB`)
          expect(run.start.mb).toBeLessThanOrEqual(BUDGET_MB.start)
          expect(run.idle).toBeLessThanOrEqual(BUDGET_MB.idlePostgres)
        } finally {
          run.sampler.stop()
          await run.service.stop()
        }
      } finally {
        await database.destroy()
      }
    },
    RUN_TIMEOUT_MS,
  )
})

// The service's memory as a user starts it (`npm run bench:memory`): PSS summed over all its
// processes (the service and any child it spawns), sampled every 50 ms from spawn
// (tests/support/pss.ts), in three runs:
//   pglite-fresh  `npm start`'s command on a new, empty DATA_DIR: the first start (creating the
//                 embedded database, migrating it, parsing the IP database into DATA_DIR/ipdb);
//   pglite        a second start on that same DATA_DIR;
//   postgres      DATABASE_URL to a database made for the run on TEST_DATABASE_URL's server
//                 (default postgres://postgres@127.0.0.1:5432/test), dropped afterwards.
// Each run reports: the peak from spawn until the start is over (the IP database loaded, plus
// 2 s), the idle level (median over 2 s, 10 s after the start), the peak under load (16
// connections submitting tasks and 16 fetching one task with a key, together, for --seconds),
// and the level 10 s after the load; with the budgets of issue 61 beside them (a first start,
// idle and load each ≤ 256 MB on PGlite; on PostgreSQL a start ≤ 256 MB and idle ≤ 160 MB).
//   bun tests/bench/memory.ts [--only pglite-fresh,pglite,postgres] [--seconds 15] [--npm]
// --npm starts `npm start` itself, whose Node process then counts too. Exits 1 when a budget is
// exceeded. The figures in docs/performance.md#memory come from this.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon, { type AutocannonResult } from 'autocannon'
import postgres from 'postgres'
import { specBotResults } from '../support/app'
import { describeParts, IPDB_DONE, listening, spawnService, treeSampler } from '../support/pss'

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}
const only = (arg('only') ?? 'pglite-fresh,pglite,postgres').split(',')
const seconds = Number(arg('seconds') ?? 15)
const npm = process.argv.includes('--npm')
const pgServer = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

const BUDGET = { start: 256, idle: { pglite: 256, postgres: 160 }, load: 256 } as const
const BODY = JSON.stringify({ tool: 'bot-detector', results: specBotResults() })
const fmt = (mb: number) => `${mb.toFixed(0)} MB`

interface Figures {
  run: string
  start: number
  startParts: string
  startMs: number
  idle: number
  load: number
  after: number
  requests: string
}

const cannon = (opts: Record<string, unknown>) =>
  new Promise<AutocannonResult>((resolve, reject) => {
    autocannon({ connections: 16, duration: seconds, ...opts }, (err, result) => (err ? reject(err) : resolve(result)))
  })

async function measure(run: string, dataDir: string, databaseUrl?: string): Promise<Figures> {
  const t0 = performance.now()
  const service = spawnService({ dataDir, databaseUrl, npm })
  const sampler = treeSampler(service.pid)
  try {
    const url = await listening(service)
    await service.waitFor(IPDB_DONE)
    const startMs = performance.now() - t0
    await Bun.sleep(2000)
    const start = sampler.peak
    // Idle: the level 10 s after the start.
    await Bun.sleep(8000)
    const idleFrom = performance.now()
    await Bun.sleep(2000)
    const idle = sampler.medianBetween(idleFrom)

    const admin = { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json' }
    const keyRes = await fetch(`${url}/api/admin/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ email: 'memory@example.com', plan: 'business' }) })
    if (keyRes.status !== 201) throw new Error(`Cannot create a key: ${keyRes.status} ${await keyRes.text()}`)
    const { key } = (await keyRes.json()) as { key: string }
    const created = await fetch(`${url}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY })
    if (created.status !== 201) throw new Error(`Cannot submit a task: ${created.status} ${await created.text()}`)
    const { task_id: taskId } = (await created.json()) as { task_id: string }

    const loadFrom = performance.now()
    const [post, get] = await Promise.all([
      cannon({ url: `${url}/api/antibot/tasks`, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY }),
      cannon({ url: `${url}/api/antibot/tasks/${taskId}`, headers: { authorization: `Bearer ${key}` } }),
    ])
    const load = sampler.peakBetween(loadFrom)
    await Bun.sleep(10_000)
    const after = sampler.take().mb
    const ok = (r: AutocannonResult) => `${Math.round(r.requests.average)} req/s (${r['2xx']} 2xx, ${r.non2xx} other, ${r.errors} errors)`
    return { run, start: start.mb, startParts: describeParts(start), startMs, idle, load, after, requests: `submissions ${ok(post)}; fetches ${ok(get)}` }
  } finally {
    sampler.stop()
    await service.stop()
  }
}

const results: Figures[] = []
const fresh = mkdtempSync(join(tmpdir(), 'antibot-memory-'))
try {
  if (only.includes('pglite-fresh')) results.push(await measure('pglite-fresh', fresh))
  if (only.includes('pglite')) {
    // A later start: on the first run's DATA_DIR, or one made (and started once) for it.
    if (!only.includes('pglite-fresh')) await measure('(first start, not counted)', fresh)
    results.push(await measure('pglite', fresh))
  }
  if (only.includes('postgres')) {
    const name = `antibot_memory_${process.pid}`
    const admin = postgres(pgServer, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database ${name}`)
    try {
      const u = new URL(pgServer)
      u.pathname = `/${name}`
      const dir = mkdtempSync(join(tmpdir(), 'antibot-memory-pg-'))
      try {
        results.push(await measure('postgres', dir, u.toString()))
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
    }
  }
} finally {
  rmSync(fresh, { recursive: true, force: true })
}

let over = false
const check = (mb: number, budget: number) => {
  if (mb > budget) over = true
  return `${fmt(mb)} ${mb > budget ? `OVER ${budget}` : `≤ ${budget}`}`
}
console.log(`memory (PSS summed over the service's processes, ${npm ? '`npm start`' : "package.json's start command"}, load ${seconds} s × 16 + 16 connections):`)
for (const r of results) {
  const pg = r.run === 'postgres'
  console.log(
    [
      `${r.run}: start ${check(r.start, BUDGET.start)} (peak: ${r.startParts}; started in ${(r.startMs / 1000).toFixed(1)} s)`,
      `  idle ${check(r.idle, pg ? BUDGET.idle.postgres : BUDGET.idle.pglite)}, under load ${check(r.load, BUDGET.load)}, 10 s after ${fmt(r.after)}`,
      `  ${r.requests}`,
    ].join('\n'),
  )
}
process.exit(over ? 1 : 0)

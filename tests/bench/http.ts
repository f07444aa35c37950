// HTTP benchmark: the service against a bare baseline (tests/bench/baseline.ts) measured in
// the same run, on a real PostgreSQL, plus the service on PGlite as a second row.
//   npm run bench:http [-- --rounds 5 --seconds 5 --connections 32 --keys 64]  (--keys 1: one hot key)
// Load comes from autocannon; the baseline and the service are interleaved round by round
// (order alternating; in each round the targets' GETs back to back, then their POSTs), each
// after a discarded warm-up; figures are medians over the rounds, and the median of the
// per-round ratios is printed too (steadier when the machine's speed drifts).
// p50/p99 are measured at a fixed rate of half the service's measured maximum.
// The service on PostgreSQL runs twice side by side: request logging off, and on
// (LOG_REQUESTS=true, one line per request to stdout, as `npm start` runs; stdout goes to a file;
// its STUN listener off, as the first one holds the port).
// The keyed GETs fetch 500 tasks the service itself stored from the POST body (judged, stored
// compact, put back in full when served), 64 keys in turn; each task is fetched many times, so
// after the first round its signature comes from the signer's cache (src/signing.ts) — a
// task's first fetch pays for signing (docs/performance.md has that cost).
// One more POST row, informational: the baseline inserting a body whose results are what the
// service stores for POST_BODY (the judged task, compact), i.e. the bare server's same work on as
// many bytes — it shows how much of the POST gap is the size of what a task is.
// Prints a Markdown table and writes bench-results/http.json. Never asserted in tests.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon'
import postgres from 'postgres'
import { openPostgres, openPglite } from '../../db/client'
import { ensureAccount } from '../../db/accounts'
import { insertKey } from '../../db/keys'
import { upsertPlan } from '../../db/plans'
import { generateApiKey, hashSecret, keyHint } from '../../src/core/keys'
import type { Db } from '../../db/client'

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : dflt
}
const ROUNDS = arg('rounds', 5)
const SECONDS = arg('seconds', 5)
const CONNECTIONS = arg('connections', 32)
const KEYS = arg('keys', 64)
const TASKS = 500
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const bun = join(import.meta.dir, '../../node_modules/.bin/bun')
const random = (n: number) => crypto.getRandomValues(new Uint8Array(n))
const tmp = mkdtempSync(join(tmpdir(), 'antibot-bench-'))

const POST_BODY = JSON.stringify({
  tool: 'bot-detector',
  results: {
    summary: { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 },
    leaks: { webdriver: false, selenium: false, phantomjs: false },
    navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156', platform: 'Linux x86_64', language: 'en-US' },
    screen: { width: 1920, height: 1080, colorDepth: 24 },
    webgl: { vendor: 'Google Inc.', renderer: 'ANGLE (Intel)' },
    canvas: { hash: 'a1b2c3d4' },
    scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' },
  },
})

/** The plan and keys; tasks come from the service itself (seedTasks). */
async function seed(db: Db): Promise<string[]> {
  const plan = await upsertPlan(db, { name: 'bench', monthlyLimit: 2_000_000_000 })
  const account = await ensureAccount(db, 'bench@example.test')
  const keys: string[] = []
  for (let i = 0; i < KEYS; i++) {
    const key = generateApiKey(random)
    const h = keyHint(key)
    await insertKey(db, { accountId: account.id, planId: plan.id, name: `bench-${i}`, keyHash: hashSecret(key), prefix: h.prefix, last4: h.last4 })
    keys.push(key)
  }
  return keys
}

/** Tasks as the service stores them: the benchmark's own POST body, judged and stored by it. */
async function seedTasks(url: string): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < TASKS; i++) {
    const res = await fetch(`${url}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: POST_BODY })
    if (res.status !== 201) throw new Error(`seeding: POST answered ${res.status} ${await res.text()}`)
    ids.push(((await res.json()) as { task_id: string }).task_id)
  }
  return ids
}

/**
 * Starts a server with its stdout going to a file, as a service manager or `npm start > log`
 * would have it (a pipe drained by this process would charge the log's reading to the load
 * generator); waits for the line that says where it listens.
 */
async function spawnServer(cmd: string[], env: Record<string, string>, pattern: RegExp) {
  const out = join(tmp, `stdout-${Math.random().toString(36).slice(2)}.log`)
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdout: Bun.file(out), stderr: 'inherit' })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const text = existsSync(out) ? readFileSync(out, 'utf8') : ''
    const m = pattern.exec(text)
    if (m) {
      serverPid.set(m[1]!, proc.pid)
      return { url: m[1]!, stop: () => proc.kill(), stdout: out }
    }
    if (proc.exitCode !== null) throw new Error(`server exited: ${cmd.join(' ')}\n${text}`)
    await Bun.sleep(50)
  }
  proc.kill()
  throw new Error(`server did not start: ${cmd.join(' ')}\n${existsSync(out) ? readFileSync(out, 'utf8') : ''}`)
}

/** Which process serves a URL, for its CPU time. */
const serverPid = new Map<string, number>()

/** Milliseconds of CPU (user + system, all threads) the process has used; null off Linux. */
function cpuMs(url: string): number | null {
  const pid = serverPid.get(url)
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return null
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/**
 * Milliseconds of CPU used by every PostgreSQL process on this machine (the postmaster, its
 * background workers and every backend: /proc/<pid>/comm is `postgres`); null off Linux. Only
 * the target under load uses the database meanwhile, so the difference over a load is what that
 * load cost PostgreSQL.
 */
function postgresCpuMs(): number | null {
  if (!existsSync('/proc/self/stat')) return null
  let total = 0
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
      total += (Number(fields[11]) + Number(fields[12])) * 10
    } catch {
      // The process ended meanwhile.
    }
  }
  return total
}

/**
 * One load's figures. CPU per request (µs): `cpuUs` of the server process, `pgUs` of PostgreSQL
 * (all its processes), `genUs` of this process, i.e. the load generator; null off Linux.
 */
interface Load { rps: number; p50: number; p99: number; errors: number; unexpected: number; cpuUs: number | null; pgUs: number | null; genUs: number }

/**
 * Run before every load on PostgreSQL: the tasks the POST loads stored are deleted (the 500 the
 * GETs fetch stay) and the tasks and usage tables vacuumed, so every load starts from the same
 * tables. Without it every round was slower than the one before (the baseline's GETs 7,300 →
 * 5,000 req/s, its POSTs 10,600 → 6,700 over one run) as the table grew by ~90,000 rows a round,
 * and whichever server came later in a round paid for the others.
 */
let beforeEachLoad: (() => Promise<unknown>) | null = null

async function load(url: string, kind: 'get' | 'post', data: { keys: string[]; ids: string[] }, opts: { seconds: number; rate?: number; body?: string }): Promise<Load> {
  if (beforeEachLoad) await beforeEachLoad()
  let n = 0
  const cpu0 = cpuMs(url)
  const pg0 = postgresCpuMs()
  const gen0 = process.cpuUsage()
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: opts.seconds,
        ...(opts.rate ? { overallRate: opts.rate } : {}),
        requests: [
          kind === 'get'
            ? {
                method: 'GET',
                setupRequest: (req: AutocannonRequest) => {
                  n++
                  req.path = `/api/antibot/tasks/${data.ids[n % data.ids.length]}`
                  req.headers = { authorization: `Bearer ${data.keys[n % data.keys.length]}` }
                  return req
                },
              }
            : { method: 'POST', path: '/api/antibot/tasks', headers: { 'content-type': 'application/json' }, body: opts.body ?? POST_BODY },
        ],
      },
      (err: Error | null, r: AutocannonResult) => {
        if (err) return reject(err)
        // Every GET must be a 200 (valid keys, existing tasks, a limit that is never reached)
        // and every POST a 201: any other status counts as an error.
        const cpu1 = cpuMs(url)
        const pg1 = postgresCpuMs()
        const gen = process.cpuUsage(gen0)
        const total = r.requests.total || 1
        const cpuUs = cpu0 === null || cpu1 === null || !r.requests.total ? null : ((cpu1 - cpu0) * 1000) / total
        const pgUs = pg0 === null || pg1 === null || !r.requests.total ? null : ((pg1 - pg0) * 1000) / total
        resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, unexpected: r.non2xx, cpuUs, pgUs, genUs: (gen.user + gen.system) / total })
      },
    )
  })
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const medianOrNull = (xs: Array<number | null>) => (xs.some((x) => x === null) ? null : median(xs as number[]))

/**
 * `storedBody`: also POST to the baseline a body whose results are what the service stores for
 * POST_BODY, in each round right after the POSTs — the baseline doing its same work on as many
 * bytes as the service stores (informational: how much of the gap is the size of a task).
 */
async function measure(label: string, targets: Record<string, string>, data: { keys: string[]; ids: string[] }, storedBody?: string) {
  const storedRounds: Load[] = []
  const out: Record<string, Record<string, Load[]>> = {}
  for (const t of Object.keys(targets)) out[t] = { get: [], post: [] }
  for (const t of Object.keys(targets)) {
    await load(targets[t]!, 'get', data, { seconds: 2 })
    await load(targets[t]!, 'post', data, { seconds: 2 })
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? Object.keys(targets).reverse() : Object.keys(targets)
    // The targets' GETs back to back, then their POSTs: each ratio compares runs seconds apart.
    for (const kind of ['get', 'post'] as const) {
      for (const t of order) out[t]![kind]!.push(await load(targets[t]!, kind, data, { seconds: SECONDS }))
    }
    if (storedBody && targets.baseline) storedRounds.push(await load(targets.baseline, 'post', data, { seconds: SECONDS, body: storedBody }))
    console.error(`${label}: round ${round + 1}/${ROUNDS} done`)
  }
  type PerKind = { get: number | null; post: number | null }
  const summary: Record<string, { getRps: number; postRps: number; errors: number; rounds: { get: number[]; post: number[] }; cpuUs: PerKind; pgUs: PerKind; genUs: PerKind }> = {}
  for (const t of Object.keys(targets)) {
    const g = out[t]!.get!
    const p = out[t]!.post!
    summary[t] = {
      getRps: median(g.map((x) => x.rps)),
      postRps: median(p.map((x) => x.rps)),
      errors: [...g, ...p].reduce((s, x) => s + x.errors + x.unexpected, 0),
      rounds: { get: g.map((x) => Math.round(x.rps)), post: p.map((x) => Math.round(x.rps)) },
      // CPU of the server process per request (µs), median over the rounds; null off Linux.
      cpuUs: { get: medianOrNull(g.map((x) => x.cpuUs)), post: medianOrNull(p.map((x) => x.cpuUs)) },
      // PostgreSQL's (all its processes) and the load generator's, the same way.
      pgUs: { get: medianOrNull(g.map((x) => x.pgUs)), post: medianOrNull(p.map((x) => x.pgUs)) },
      genUs: { get: median(g.map((x) => x.genUs)), post: median(p.map((x) => x.genUs)) },
    }
  }
  return { summary, storedRounds }
}

async function latencyAt(targets: Record<string, string>, rates: { get: number; post: number }, data: { keys: string[]; ids: string[] }) {
  const res: Record<string, { get: Load; post: Load }> = {}
  for (const t of Object.keys(targets)) {
    res[t] = { get: await load(targets[t]!, 'get', data, { seconds: SECONDS, rate: rates.get }), post: await load(targets[t]!, 'post', data, { seconds: SECONDS, rate: rates.post }) }
  }
  return res
}

// --- PostgreSQL: fresh database, baseline and service on it ---
const dbName = `antibot_bench_${Date.now().toString(36)}`
const admin = postgres(BASE_URL, { max: 1, onnotice: () => {} })
await admin.unsafe(`create database "${dbName}"`)
const u = new URL(BASE_URL)
u.pathname = `/${dbName}`
const pgUrl = u.toString()
const pg = openPostgres(pgUrl)
await pg.migrate()
const pgKeys = await seed(pg.db)
await pg.close()

const stoppers: Array<() => void> = []
try {
  const baseline = await spawnServer([bun, join(import.meta.dir, 'baseline.ts'), pgUrl], {}, /baseline listening on (\S+)/)
  stoppers.push(baseline.stop)
  const service = await spawnServer([bun, 'src/main.ts'], { DATABASE_URL: pgUrl, SIGNING_KEY_SECRET: 'bench-signing-key-secret-0123456789abcdef', PORT: '0', HOST: '127.0.0.1', LOG_REQUESTS: 'false', DATA_DIR: tmp }, /listening on (http:\/\/[\d.]+:\d+)/)
  stoppers.push(service.stop)
  const logged = await spawnServer([bun, 'src/main.ts'], { DATABASE_URL: pgUrl, SIGNING_KEY_SECRET: 'bench-signing-key-secret-0123456789abcdef', PORT: '0', HOST: '127.0.0.1', STUN_PORT: 'off', LOG_REQUESTS: 'true', DATA_DIR: tmp }, /listening on (http:\/\/[\d.]+:\d+)/)
  stoppers.push(logged.stop)
  const pgData = { keys: pgKeys, ids: await seedTasks(service.url) }
  const cleaner = postgres(pgUrl, { max: 1, onnotice: () => {} })
  beforeEachLoad = async () => {
    await cleaner.unsafe('delete from tasks where not (id = any($1::uuid[]))', [pgData.ids])
    await cleaner.unsafe('vacuum tasks, key_usage')
  }
  const pgTargets = { baseline: baseline.url, service: service.url, logged: logged.url }
  // What the service stores for POST_BODY (the compact jsonb, as text), as the body of the baseline's extra POST row.
  const reader = postgres(pgUrl, { max: 1, onnotice: () => {} })
  const [storedRow] = await reader.unsafe('select results::text as r from tasks where id = $1::uuid', [pgData.ids[0]!])
  await reader.end()
  const storedBody = `{"tool":"bot-detector","results":${storedRow!.r}}`
  const { summary: pgSummary, storedRounds } = await measure('postgres', pgTargets, pgData, storedBody)
  const half = { get: Math.round(pgSummary.service!.getRps / 2), post: Math.round(pgSummary.service!.postRps / 2) }
  const pgLatency = await latencyAt(pgTargets, half, pgData)
  beforeEachLoad = null
  await cleaner.end()
  service.stop()
  logged.stop()
  await Bun.sleep(300)
  const logLines = readFileSync(logged.stdout, 'utf8').split('\n').filter((l) => / (GET|POST) \/api\/antibot\/tasks/.test(l)).length

  // --- PGlite: the service on its embedded database, same baseline row for the ratio ---
  const liteDir = join(tmp, 'lite')
  mkdirSync(join(liteDir, 'pglite'), { recursive: true })
  const lite = await openPglite(join(liteDir, 'pglite'))
  await lite.migrate()
  const liteKeys = await seed(lite.db)
  await lite.close()
  const liteService = await spawnServer([bun, 'src/main.ts'], { PORT: '0', HOST: '127.0.0.1', LOG_REQUESTS: 'false', DATA_DIR: liteDir }, /listening on (http:\/\/[\d.]+:\d+)/)
  stoppers.push(liteService.stop)
  const liteData = { keys: liteKeys, ids: await seedTasks(liteService.url) }
  const { summary: liteSummary } = await measure('pglite', { service: liteService.url }, liteData)
  const liteHalf = { get: Math.round(liteSummary.service!.getRps / 2), post: Math.round(liteSummary.service!.postRps / 2) }
  const liteLatency = await latencyAt({ service: liteService.url }, liteHalf, liteData)

  const b = pgSummary.baseline!
  const s = pgSummary.service!
  const g = pgSummary.logged!
  const l = liteSummary.service!
  const r2 = (x: number) => x.toFixed(2)
  const rows = [
    ['baseline (Bun.serve + postgres.js)', 'PostgreSQL', b.getRps, '1.00', b.postRps, '1.00', pgLatency.baseline!.get, pgLatency.baseline!.post, b.errors],
    ['service, request log off', 'PostgreSQL', s.getRps, r2(s.getRps / b.getRps), s.postRps, r2(s.postRps / b.postRps), pgLatency.service!.get, pgLatency.service!.post, s.errors],
    ['service, request log on (stdout)', 'PostgreSQL', g.getRps, r2(g.getRps / b.getRps), g.postRps, r2(g.postRps / b.postRps), pgLatency.logged!.get, pgLatency.logged!.post, g.errors],
    ['service, request log off', 'PGlite', l.getRps, r2(l.getRps / b.getRps), l.postRps, r2(l.postRps / b.postRps), liteLatency.service!.get, liteLatency.service!.post, l.errors],
  ] as const
  console.log(`\nHTTP benchmark, ${new Date().toISOString().slice(0, 10)}, ${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections, ${KEYS} keys, medians\n`)
  console.log('| server | database | keyed GET req/s | × baseline | POST req/s | × baseline | GET p50/p99 at ½ max | POST p50/p99 at ½ max | errors |')
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const [name, db, g, gr, p, pr, gl, pl, e] of rows) {
    console.log(`| ${name} | ${db} | ${Math.round(g)} | ${gr} | ${Math.round(p)} | ${pr} | ${gl.p50}/${gl.p99} ms | ${pl.p50}/${pl.p99} ms | ${e} |`)
  }
  // The VM's speed drifts between rounds; a ratio within each round is steadier than the ratio of medians.
  const perRound = (x: typeof s, kind: 'get' | 'post') => r2(median(x.rounds[kind].map((v, i) => v / b.rounds[kind][i]!)))
  console.log(`\nmedian of the per-round ratios to the baseline: request log off GET ${perRound(s, 'get')}, POST ${perRound(s, 'post')}; request log on GET ${perRound(g, 'get')}, POST ${perRound(g, 'post')}`)
  const us = (x: number | null) => (x === null ? 'n/a' : Math.round(x).toString())
  const cpuRatio = (x: number | null, base: number | null) => (x === null || base === null ? 'n/a' : r2(base / x))
  console.log('\nCPU time of the server process per request (user + system, all threads; median of the rounds), and the baseline\'s as a fraction of it:\n')
  console.log('| server | GET µs | baseline ÷ this | POST µs | baseline ÷ this |')
  console.log('|---|---|---|---|---|')
  for (const [name, x] of [['baseline', b], ['service, request log off', s], ['service, request log on', g]] as const) {
    console.log(`| ${name} | ${us(x.cpuUs.get)} | ${cpuRatio(x.cpuUs.get, b.cpuUs.get)} | ${us(x.cpuUs.post)} | ${cpuRatio(x.cpuUs.post, b.cpuUs.post)} |`)
  }
  console.log('\nWhere the CPU goes per request (µs; median of the rounds): the server process, PostgreSQL (all its processes), the load generator (this process):\n')
  console.log('| server | GET: server | PostgreSQL | load | POST: server | PostgreSQL | load |')
  console.log('|---|---|---|---|---|---|---|')
  for (const [name, x] of [['baseline', b], ['service, request log off', s], ['service, request log on', g]] as const) {
    console.log(`| ${name} | ${us(x.cpuUs.get)} | ${us(x.pgUs.get)} | ${us(x.genUs.get)} | ${us(x.cpuUs.post)} | ${us(x.pgUs.post)} | ${us(x.genUs.post)} |`)
  }
  const storedPost = median(storedRounds.map((x) => x.rps))
  const storedRatio = (x: typeof s) => r2(median(x.rounds.post.map((v, i) => v / storedRounds[i]!.rps)))
  console.log(`\nthe baseline inserting what the service stores for this body (${Buffer.byteLength(storedRow!.r)} bytes of results instead of ${Buffer.byteLength(JSON.stringify(JSON.parse(POST_BODY).results))}): POST ${Math.round(storedPost)} req/s, ${r2(median(storedRounds.map((x, i) => x.rps / b.rounds.post[i]!)))}× the baseline (per round); CPU ${us(median(storedRounds.map((x) => x.cpuUs ?? 0)))} µs per request; the service's POST is ${storedRatio(s)}× of it with the request log off, ${storedRatio(g)}× with it on`)
  console.log(`\nrequest log of the logged service: ${logLines} lines in its stdout file`)
  console.log(`\nhalf-load rates: PostgreSQL GET ${half.get}/s, POST ${half.post}/s; PGlite GET ${liteHalf.get}/s, POST ${liteHalf.post}/s`)
  mkdirSync('bench-results', { recursive: true })
  writeFileSync('bench-results/http.json', JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, postgres: { summary: pgSummary, latency: pgLatency, half, storedBaseline: { bytes: Buffer.byteLength(storedRow!.r), rounds: storedRounds.map((x) => Math.round(x.rps)) } }, pglite: { summary: liteSummary, latency: liteLatency, half: liteHalf } }, null, 2))
  console.log('wrote bench-results/http.json')
} finally {
  for (const stop of stoppers) stop()
  await new Promise((r) => setTimeout(r, 500))
  await admin.unsafe(`drop database if exists "${dbName}" with (force)`)
  await admin.end()
  rmSync(tmp, { recursive: true, force: true })
}

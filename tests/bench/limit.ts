// The keyed GET against the limit of this machine (issue 61): a static server returning the same
// bytes the service serves for a keyed fetch, measured with the same load generator in the same
// run, rounds interleaved. The static server is Bun.serve with the body in memory: no routing, no
// key, no database — what HTTP alone costs here, for the generator and the server together.
//   npm run bench:limit [-- --rounds 4 --seconds 10 --connections 32,128,512 --tasks 1000000]
//
// - Load generator: wrk (Debian's `wrk`; `apt-get install wrk`), 2 threads, one URL, one key:
//   the one-hot-key GET of issue 61's figures. Without wrk the bench says so and exits 2.
// - Connections: each round loads both servers at every count of `--connections` (32, the
//   issue's figures, then more). A server's limit is the most it serves at any of them: the
//   static answer is bound by CPU from the first, while a keyed fetch waits for the commit that
//   counts it, so it needs more requests in flight to reach its own (Little's law). The bench
//   prints the ratio at each count and the ratio of the two limits.
// - State: the service on its own copy of the HTTP benchmark's template (a million tasks,
//   tests/bench/steady-state.ts), the request log on, with `npm start`'s settings for PostgreSQL; the task fetched
//   is a compact one (~4 KB served), as most are.
// - Exact counting: the key's monthly count is read before and after each service load, and the
//   bench exits 1 when it moved by other than the 200s wrk saw (every successful fetch counted
//   once, none more).
// Prints each round's requests per second and the ratio; never asserted in tests (figures in
// docs/performance.md).

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { arg, argList, cpuMs, npmStartSettings, postgresCpuMs, spawnServer, type Server } from './load'
import { copyTemplate, dropDatabase, ensureTemplate } from './steady-state'
import { uniqueName } from '../support/unique'
import { hashSecret } from '../../src/core/keys'

const ROUNDS = arg('rounds', 4)
const SECONDS = arg('seconds', 10)
const CONNECTION_COUNTS = argList('connections', [32, 128, 512])
if (CONNECTION_COUNTS.some((c) => !Number.isInteger(c) || c < 2)) {
  console.error('--connections takes a comma-separated list of counts of at least 2 (wrk runs two threads)')
  process.exit(2)
}
const TASKS = arg('tasks', 1_000_000)
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const bun = join(import.meta.dir, '../../node_modules/.bin/bun')
const log = (line: string) => console.error(`${new Date().toISOString().slice(11, 19)} ${line}`)

if (Bun.spawnSync(['sh', '-c', 'command -v wrk'], { stdout: 'ignore', stderr: 'ignore' }).exitCode !== 0) {
  console.error('bench:limit needs wrk (apt-get install wrk): the limit is measured with a load generator that is not the bottleneck')
  process.exit(2)
}

interface Wrk {
  /** CPU µs per request of the server's process and of PostgreSQL (service loads). */
  cpu?: { server: number; postgres: number }
  rps: number
  /** The 99th percentile of latency, ms. */
  p99: number
  requests: number
  non2xx: number
  errors: number
}

/** One wrk load: requests/s, requests done, non-2xx answers and socket errors. */
async function wrk(url: string, headers: Record<string, string>, connections: number): Promise<Wrk> {
  const args = ['wrk', '-t2', `-c${connections}`, `-d${SECONDS}s`, '--latency']
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`)
  const p = Bun.spawn([...args, url], { stdout: 'pipe', stderr: 'pipe' })
  const [out] = await Promise.all([new Response(p.stdout).text(), p.exited])
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0)
  const errors = [...out.matchAll(/(connect|read|write|timeout) (\d+)/g)].reduce((n, m) => n + Number(m[2]), 0)
  const p99 = /99%\s+([\d.]+)(us|ms|s)\b/.exec(out)
  const ms = p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : 0
  return { p99: ms, rps: num(/Requests\/sec:\s+([\d.]+)/), requests: num(/(\d+) requests in/), non2xx: num(/Non-2xx or 3xx responses: (\d+)/), errors }
}

const tmp = mkdtempSync(join(tmpdir(), 'antibot-limit-'))
const stoppers: Array<() => void> = []
let dbName: string | undefined
let failed = false
try {
  const template = await ensureTemplate(BASE_URL, TASKS, 64, log)
  dbName = `${template.name}_l_${uniqueName('r').replaceAll('-', '_')}`
  const url = await copyTemplate(BASE_URL, template.name, dbName)
  const service = await spawnServer(
    tmp,
    // BENCH_PROFILE=<dir>: the service writes a CPU profile there (Markdown) when it stops.
    [bun, '--smol', ...(process.env.BENCH_PROFILE ? ['--cpu-prof-md', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), 'src/main.ts'],
    { DATA_DIR: mkdtempSync(join(tmp, 'data-')), DATABASE_URL: url, SIGNING_KEY_SECRET: 'bench-signing-key-secret-0123456789abcdef', PORT: '0', HOST: '127.0.0.1', STUN_PORT: 'off', TLS_PORT: 'off', LOG_REQUESTS: 'true', ...npmStartSettings(true) },
    /listening on (http:\/\/[\d.]+:\d+)/,
    /IP database ready/,
  )
  stoppers.push(service.stop)
  const key = template.keys[0]!
  // A compact task, the kind most fetches read (85 % of the template: a script's spec-shaped
  // body, ~4 KB served): the smallest of the first ids.
  let id = template.ids[0]!
  let size = Number.POSITIVE_INFINITY
  for (const candidate of template.ids.slice(0, 16)) {
    const r = await fetch(`${service.url}/api/antibot/tasks/${candidate}`, { headers: { authorization: `Bearer ${key}` } })
    const text = await r.text()
    if (r.status === 200 && text.length < size) [id, size] = [candidate, text.length]
  }
  const served = await fetch(`${service.url}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  const bytes = new Uint8Array(await served.arrayBuffer())
  const staticServer = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(bytes, { headers: { 'content-type': 'application/json' } }) })
  stoppers.push(() => staticServer.stop(true))
  const staticTarget: Server = { url: `http://127.0.0.1:${staticServer.port}`, pid: process.pid, stdout: '', stop: () => {} }
  log(`fetching task ${id} (${bytes.length} bytes) with one key; static server on ${staticTarget.url}`)

  const sql = postgres(url, { max: 1, onnotice: () => {} })
  // The key's own count (key_usage), which every counted fetch moves beside its account's allowance.
  const counted = async () => Number((await sql`select coalesce(sum(u.count), 0)::bigint as n from key_usage u join api_keys k on k.id = u.key_id where k.key_hash = ${hashSecret(key)}`)[0]!.n)
  const rows: Array<{ round: number; connections: number; static: Wrk; service: Wrk }> = []
  // Warm-up, both.
  await wrk(`${staticTarget.url}/`, {}, CONNECTION_COUNTS[0]!)
  await wrk(`${service.url}/api/antibot/tasks/${id}`, { authorization: `Bearer ${key}` }, CONNECTION_COUNTS[0]!)
  for (let round = 1; round <= ROUNDS; round++) {
    for (const connections of CONNECTION_COUNTS) {
      const order = round % 2 ? ['static', 'service'] : ['service', 'static']
      const r: Partial<Record<'static' | 'service', Wrk>> = {}
      for (const t of order) {
        if (t === 'static') r.static = await wrk(`${staticTarget.url}/`, {}, connections)
        else {
          const before = await counted()
          const cpu0 = [cpuMs(service.pid) ?? 0, postgresCpuMs() ?? 0]
          r.service = await wrk(`${service.url}/api/antibot/tasks/${id}`, { authorization: `Bearer ${key}` }, connections)
          const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, r.service!.requests))
          r.service.cpu = { server: per((cpuMs(service.pid) ?? 0) - cpu0[0]!), postgres: per((postgresCpuMs() ?? 0) - cpu0[1]!) }
          const moved = (await counted()) - before
          const ok = r.service.requests - r.service.non2xx
          // wrk counts the requests it saw answered; one cut off by the end of the load may have
          // been counted by the service and not seen by wrk (at most one per connection).
          if (moved < ok || moved > ok + connections) {
            failed = true
            log(`round ${round}, ${connections} connections: the count moved by ${moved} for ${ok} answered 200s`)
          }
        }
      }
      rows.push({ round, connections, static: r.static!, service: r.service! })
      log(`round ${round}, ${connections} connections: static ${Math.round(r.static!.rps)} req/s, service ${Math.round(r.service!.rps)} req/s`)
    }
  }
  await sql.end()
  const counts = CONNECTION_COUNTS.join(', ')
  console.log(`\nKeyed GET (one key, task of ${bytes.length} bytes) against a static server of the same bytes, wrk -t2 at ${counts} connections, ${ROUNDS} rounds × ${SECONDS} s a load, ${new Date().toISOString().slice(0, 10)}\n`)
  console.log('| round | connections | static req/s | service req/s | service / static | p99 ms (static / service) | service CPU µs per request (service / PostgreSQL) | errors (static/service) |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.round} | ${r.connections} | ${Math.round(r.static.rps)} | ${Math.round(r.service.rps)} | ${(r.service.rps / r.static.rps).toFixed(2)} | ${r.static.p99.toFixed(1)} / ${r.service.p99.toFixed(1)} | ${r.service.cpu?.server} / ${r.service.cpu?.postgres} | ${r.static.errors + r.static.non2xx}/${r.service.errors + r.service.non2xx} |`)
  console.log('')
  for (const connections of CONNECTION_COUNTS) {
    const at = rows.filter((r) => r.connections === connections).map((r) => r.service.rps / r.static.rps)
    console.log(`at ${connections} connections: service / static ${Math.min(...at).toFixed(2)}–${Math.max(...at).toFixed(2)}`)
  }
  // Each round's limits: the most each server served at any connection count in that round.
  const limits = [...new Set(rows.map((r) => r.round))].map((round) => {
    const of = rows.filter((r) => r.round === round)
    const best = (pick: (r: (typeof of)[number]) => Wrk) => of.reduce((a, r) => (pick(r).rps > pick(a).rps ? r : a))
    const s = best((r) => r.static)
    const v = best((r) => r.service)
    return { round, static: s.static.rps, staticAt: s.connections, service: v.service.rps, serviceAt: v.connections }
  })
  for (const l of limits) console.log(`round ${l.round} limits: static ${Math.round(l.static)} req/s (at ${l.staticAt}), service ${Math.round(l.service)} req/s (at ${l.serviceAt}): ${(l.service / l.static).toFixed(2)}`)
  const lowest = Math.min(...limits.map((l) => l.service / l.static))
  console.log(`\nlowest round: the service's limit is ${lowest.toFixed(2)} of the static limit (target ≥ 0.3: ${lowest >= 0.3 ? 'met' : 'not met'})`)
} catch (e) {
  failed = true
  console.error(e)
} finally {
  for (const stop of stoppers.reverse()) stop()
  if (dbName) await dropDatabase(BASE_URL, dbName).catch(() => {})
  rmSync(tmp, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)

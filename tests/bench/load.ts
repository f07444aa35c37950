// The HTTP benchmark's load and what it watches (tests/bench/http.ts): servers started as a
// service manager starts them (stdout to a file), one load of autocannon with the CPU time of the
// server, of PostgreSQL and of the load generator per request, and the server's RSS sampled
// meanwhile.

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon'
import { uniqueName } from '../support/unique'

export interface Server {
  url: string
  pid: number
  stdout: string
  stop(): void
}

/** Starts a server with its stdout going to a file; waits for the line that says where it listens. */
export async function spawnServer(tmp: string, cmd: string[], env: Record<string, string>, pattern: RegExp, ready?: RegExp): Promise<Server> {
  const out = join(tmp, `${uniqueName('stdout')}.log`)
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdout: Bun.file(out), stderr: 'inherit' })
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    const text = existsSync(out) ? readFileSync(out, 'utf8') : ''
    const m = pattern.exec(text)
    if (m && (!ready || ready.test(text))) return { url: m[1]!, pid: proc.pid, stdout: out, stop: () => proc.kill() }
    if (proc.exitCode !== null) throw new Error(`server exited: ${cmd.join(' ')}\n${text}`)
    await Bun.sleep(50)
  }
  proc.kill()
  throw new Error(`server did not start: ${cmd.join(' ')}\n${existsSync(out) ? readFileSync(out, 'utf8') : ''}`)
}

/** Milliseconds of CPU (user + system, all threads) a process has used; null off Linux. */
function cpuMs(pid: number): number | null {
  if (!existsSync(`/proc/${pid}/stat`)) return null
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Resident memory of a process in MB (VmRSS); null off Linux. */
export function rssMb(pid: number): number | null {
  if (!existsSync(`/proc/${pid}/status`)) return null
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Math.round(Number(m[1]) / 1024) : null
}

/** Milliseconds of CPU used by every PostgreSQL process on this machine; null off Linux. */
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

/** One load's figures; CPU per request in µs (null off Linux), RSS peak in MB. */
export interface Load {
  rps: number
  p50: number
  p99: number
  errors: number
  cpuUs: number | null
  pgUs: number | null
  genUs: number
  rssPeakMb: number | null
  /** Requests completed in each second of the load, in order (to tell a slow start from a slow load). */
  perSecond: number[]
}

export type Kind = 'get' | 'post' | 'mixed'

export interface GetSet {
  keys: string[]
  ids: string[]
}

export interface LoadOptions {
  connections: number
  seconds: number
  /** Requests per second in all (a fixed rate, for latency at half load); as fast as it goes without. */
  rate?: number
  postBody: string
}

/**
 * One load against `server`: keyed GETs of `gets` (key and id in turn), POSTs of `postBody`, or
 * both at once (each connection sends four GETs, then a POST). Every GET must answer 200 and
 * every POST 201: anything else, a socket error or a timeout counts as an error.
 */
export function load(server: Server, kind: Kind, gets: GetSet, o: LoadOptions): Promise<Load> {
  let n = 0
  const get: AutocannonRequest = {
    method: 'GET',
    setupRequest: (req) => {
      n++
      req.path = `/api/antibot/tasks/${gets.ids[n % gets.ids.length]}`
      req.headers = { authorization: `Bearer ${gets.keys[n % gets.keys.length]}` }
      return req
    },
  }
  const post: AutocannonRequest = { method: 'POST', path: '/api/antibot/tasks', headers: { 'content-type': 'application/json' }, body: o.postBody }
  const requests = kind === 'get' ? [get] : kind === 'post' ? [post] : [get, get, get, get, post]
  const cpu0 = cpuMs(server.pid)
  const pg0 = postgresCpuMs()
  const gen0 = process.cpuUsage()
  let rssPeak: number | null = rssMb(server.pid)
  const sampler = setInterval(() => {
    const r = rssMb(server.pid)
    if (r !== null) rssPeak = Math.max(rssPeak ?? 0, r)
  }, 250)
  const perSecond: number[] = []
  return new Promise((resolve, reject) => {
    const run = autocannon({ url: server.url, connections: o.connections, duration: o.seconds, ...(o.rate ? { overallRate: o.rate } : {}), requests }, (err: Error | null, r: AutocannonResult) => {
      clearInterval(sampler)
      if (err) return reject(err)
      const cpu1 = cpuMs(server.pid)
      const pg1 = postgresCpuMs()
      const gen = process.cpuUsage(gen0)
      const total = r.requests.total || 1
      resolve({
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors + r.timeouts + r.non2xx,
        cpuUs: cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) * 1000) / total,
        pgUs: pg0 === null || pg1 === null ? null : ((pg1 - pg0) * 1000) / total,
        genUs: (gen.user + gen.system) / total,
        rssPeakMb: rssPeak,
        perSecond,
      })
    })
    run.on('tick', (t) => perSecond.push(t.counter))
  })
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

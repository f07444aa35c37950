// The HTTP benchmark's load and what it watches (tests/bench/http.ts): servers started as a
// service manager starts them (stdout to a file), one load of autocannon with the CPU time of the
// server, of PostgreSQL and of the load generator per request, and the server's RSS sampled
// meanwhile; and the identifying load's requests (identifyingPosts: screen-display signals of
// many screens from many client networks, as issue 48's uniqueness counts see them).

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon'
import { ok } from '../support/signals'
import { uniqueName } from '../support/unique'
import { chromium156, CHROMIUM_156_SERVER } from '../../src/core/tools/screen-display.fixture'

export interface Server {
  url: string
  pid: number
  stdout: string
  stop(): void
}

/** A benchmark's numeric option `--name <n>`, or `dflt` without it. */
export function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : dflt
}

/** `--name a,b,c` as numbers, or `dflt` without it. */
export function argList(name: string, dflt: number[]): number[] {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? (process.argv[i + 1] ?? '').split(',').map(Number) : dflt
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

/**
 * What `npm start` (package.json) sets before it starts the service: the JavaScript heap's bound,
 * and how long freed native memory waits before it goes back (0 on the embedded default, 100 ms
 * with PostgreSQL). The benchmarks start `bun src/main.ts` themselves, with these.
 */
export function npmStartSettings(withDatabaseUrl: boolean): Record<string, string> {
  return { BUN_JSC_gcMaxHeapSize: '33554432', MIMALLOC_PURGE_DELAY: withDatabaseUrl ? '100' : '0' }
}

/** Milliseconds of CPU (user + system, all threads) a process has used; null off Linux. */
export function cpuMs(pid: number): number | null {
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
export function postgresCpuMs(): number | null {
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

export type Kind = 'get' | 'post' | 'mixed' | 'identifying'

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
  /** The identifying load's requests (kind `identifying`): one stream per target, continued from load to load. */
  identifying?: IdentifyingPosts
}

/** Screen sizes (CSS pixels) and their weights: a few common ones, desktop and phone, and a tail of rare ones. */
const SCREENS: Array<[number, number, number]> = [
  [1920, 1080, 230], [1366, 768, 100], [1536, 864, 90], [1440, 900, 50], [1280, 720, 45], [2560, 1440, 40], [1600, 900, 35], [390, 844, 30],
  [1280, 800, 30], [1680, 1050, 25], [393, 873, 25], [360, 800, 25], [414, 896, 20], [412, 915, 20], [375, 667, 15], [1280, 1024, 15],
  [3840, 2160, 15], [1920, 1200, 15], [2560, 1080, 8], [3440, 1440, 8], [1024, 768, 7], [1360, 768, 7], [2880, 1800, 6], [1512, 982, 6],
  [430, 932, 6], [1728, 1117, 5], [428, 926, 5], [820, 1180, 4], [768, 1024, 4], [800, 600, 2], [5120, 1440, 1], [3072, 1920, 1],
]
/** Client networks (IPv4 /24s) of the pool, each with 1-3 hosts. */
const NETWORKS = 20_000
/** The share of requests that repeat an address and screen already sent (a reload). */
const RELOADS = 1 / 3

/** A seeded 32-bit linear congruential generator (Numerical Recipes' constants): a fraction in [0, 1). */
function lcg(seed: number): () => number {
  let x = seed >>> 0
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0
    return x / 2 ** 32
  }
}

/** chromium156()'s signals on a `w`×`h` screen (its available area the same, the window no larger), as the POST body. */
function screenBody(w: number, h: number): string {
  const s = chromium156()
  s.screen = ok({ width: w, height: h, availWidth: w, availHeight: h, colorDepth: 24, pixelDepth: 24, orientation: h > w ? 'portrait-primary' : 'landscape-primary' })
  const innerWidth = Math.min(945, w)
  const innerHeight = Math.min(917, h)
  s.window = ok({ screenX: 10, screenY: 10, innerWidth, outerWidth: innerWidth, innerHeight, outerHeight: Math.min(1060, h), devicePixelRatio: 1 })
  s.visualViewport = ok({ scale: 1, width: innerWidth, height: innerHeight })
  return JSON.stringify({ tool: 'screen-display', results: { signals: s } })
}

export interface IdentifyingPosts {
  /** The next request: its body and its X-Forwarded-For. */
  next(): { body: string; forwardedFor: string }
  /** Requests drawn so far, and how many of them repeat an address and screen drawn before. */
  readonly drawn: number
  readonly reloads: number
}

/**
 * The identifying load's requests, a deterministic stream (the same for every stream of a seed):
 * chromium156()'s screen-display signals with the screen drawn from SCREENS by weight, from an
 * address of a fixed pool of NETWORKS public /24s with 1-3 hosts each. About a third of the
 * requests (RELOADS) repeat an address and screen already drawn; the others draw a pair not
 * drawn before (up to 8 tries, then it is a repeat too). A distinct browser of the uniqueness
 * counts is one address and screen (every other signal is the same), so the stream adds new
 * browsers until each range holds UNIQUENESS_BROWSERS_PER_RANGE, and then only reloads and
 * browsers the flood bound leaves out.
 */
export function identifyingPosts(seed = 48): IdentifyingPosts {
  const rand = lcg(seed)
  // The pool: distinct /24s out of private, shared, loopback, link-local, documentation and multicast space.
  const reserved = new Set([0, 10, 100, 127, 169, 172, 192, 198, 203])
  const seen = new Set<number>()
  const addresses: string[] = []
  const firstHost: number[] = []
  while (firstHost.length < NETWORKS) {
    const a = 1 + Math.floor(rand() * 223)
    const b = Math.floor(rand() * 256)
    const c = Math.floor(rand() * 256)
    if (reserved.has(a) || seen.has((a << 16) | (b << 8) | c)) continue
    seen.add((a << 16) | (b << 8) | c)
    firstHost.push(addresses.length)
    const hosts = 1 + Math.floor(rand() * 3)
    const start = 2 + Math.floor(rand() * 200)
    for (let h = 0; h < hosts; h++) addresses.push(`${a}.${b}.${c}.${start + h * 17}`)
  }
  firstHost.push(addresses.length)
  const bodies = SCREENS.map(([w, h]) => screenBody(w, h))
  const total = SCREENS.reduce((n, [, , weight]) => n + weight, 0)
  const cumulative = SCREENS.map((_, i) => SCREENS.slice(0, i + 1).reduce((n, [, , weight]) => n + weight, 0) / total)
  const drawSize = () => {
    const r = rand()
    const i = cumulative.findIndex((c) => r < c)
    return i < 0 ? SCREENS.length - 1 : i
  }
  const drawAddress = () => {
    const n = Math.floor(rand() * NETWORKS)
    return firstHost[n]! + Math.floor(rand() * (firstHost[n + 1]! - firstHost[n]!))
  }
  // The pairs drawn: a bit per address and screen, and their list for reloads.
  const sent = new Uint32Array(addresses.length)
  const pairs: number[] = []
  let drawn = 0
  let reloads = 0
  return {
    next() {
      drawn++
      let address: number
      let size: number
      if (pairs.length && rand() < RELOADS) {
        const p = pairs[Math.floor(rand() * pairs.length)]!
        address = p >>> 5
        size = p & 31
        reloads++
      } else {
        let tries = 0
        do {
          address = drawAddress()
          size = drawSize()
        } while ((sent[address]! >>> size) & 1 && ++tries < 8)
        if ((sent[address]! >>> size) & 1) reloads++
        else {
          sent[address] = sent[address]! | (1 << size)
          pairs.push((address << 5) | size)
        }
      }
      return { body: bodies[size]!, forwardedFor: addresses[address]! }
    },
    get drawn() {
      return drawn
    },
    get reloads() {
      return reloads
    },
  }
}

/**
 * One load against `server`: keyed GETs of `gets` (key and id in turn), POSTs of `postBody`, or
 * both at once (each connection sends four GETs, then a POST); or identifying POSTs, each with
 * its body and X-Forwarded-For from `identifying`. Every GET must answer 200 and every POST 201:
 * anything else, a socket error or a timeout counts as an error.
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
  const ids = o.identifying
  if (kind === 'identifying' && !ids) throw new Error('the identifying load needs its requests (LoadOptions.identifying)')
  const identifying: AutocannonRequest = {
    method: 'POST',
    path: '/api/antibot/tasks',
    setupRequest: (req) => {
      const r = ids!.next()
      req.body = r.body
      req.headers = { 'content-type': 'application/json', 'user-agent': CHROMIUM_156_SERVER.userAgent, 'x-forwarded-for': r.forwardedFor }
      return req
    },
  }
  const requests = kind === 'get' ? [get] : kind === 'post' ? [post] : kind === 'identifying' ? [identifying] : [get, get, get, get, post]
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

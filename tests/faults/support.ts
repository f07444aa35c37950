// Helpers for the fault and load tests (tests/faults/*.fault.ts, `npm run test:faults`): a
// private PostgreSQL cluster the tests may stop and start (never the machine's shared server),
// a free port, and a closed-loop load generator that records every request.

import { execFile, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

/** Why the private-cluster tests cannot run here, or null when they can. */
export function privateClusterUnavailable(): string | null {
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(PG_BIN, tool))) return `no PostgreSQL binaries at ${PG_BIN} (${tool} missing); set PG_BIN to a PostgreSQL bin directory`
  }
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root but there is no `postgres` OS user to run the cluster as'
  return null
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => ok(port))
    })
  })
}

export interface PrivateCluster {
  url: string
  port: number
  /** pg_ctl stop -m fast: connections are terminated (57P01), new ones refused. */
  stop(): Promise<void>
  /** pg_ctl start -w: resolves once the server accepts connections. */
  start(): Promise<void>
  destroy(): Promise<void>
  log(): string
}

/** PostgreSQL server binaries refuse to run as root, so as root they run as `postgres`. */
function pgCommand(tool: string, args: string[]): [string, string[]] {
  const cmd = join(PG_BIN, tool)
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]
}

/** Asynchronous, so the load generator keeps running while the server stops or starts. */
function pgRun(tool: string, args: string[]): Promise<void> {
  const [cmd, argv] = pgCommand(tool, args)
  return new Promise((ok, fail) =>
    execFile(cmd, argv, { encoding: 'utf8' }, (error, stdout, stderr) =>
      error ? fail(new Error(`${tool} ${args.join(' ')} failed:\n${stdout}\n${stderr}`)) : ok(),
    ),
  )
}

/** initdb a cluster in a temporary directory, trust auth, 127.0.0.1 and a free port only. */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'antibot-pg-'))
  chmodSync(dir, 0o700)
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim())
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, 'data')
  const logFile = join(dir, 'server.log')
  await pgRun('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'])
  const port = await freePort()
  const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=100`
  const start = () => pgRun('pg_ctl', ['-D', data, '-o', opts, '-l', logFile, '-w', '-t', '60', 'start'])
  const stop = () => pgRun('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop'])
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      await stop().catch(() => {}) // may be stopped already
      rmSync(dir, { recursive: true, force: true })
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  }
}

export interface Sample {
  kind: string
  /** ms since the load started */
  start: number
  end: number
  /** 0 when no answer came (network error or our own 10 s abort). */
  status: number
  retryAfter: string | null
  body: string
}

/**
 * Closed-loop load: `concurrency` loops, each sending the request `make(i)` builds and waiting
 * for the answer before the next, until `until()` says stop or `total` requests have been sent.
 */
export async function runLoad(opts: {
  concurrency: number
  total?: number
  until?: () => boolean
  make: (i: number) => { kind: string; url: string; init?: RequestInit }
  t0?: number
  keepBody?: (status: number) => boolean
}): Promise<Sample[]> {
  const samples: Sample[] = []
  const t0 = opts.t0 ?? performance.now()
  let next = 0
  const loop = async () => {
    for (;;) {
      if (opts.until?.() || (opts.total !== undefined && next >= opts.total)) return
      const i = next++
      const { kind, url, init } = opts.make(i)
      const start = performance.now() - t0
      let status = 0
      let retryAfter: string | null = null
      let body = ''
      try {
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
        status = res.status
        retryAfter = res.headers.get('retry-after')
        const text = await res.text()
        body = opts.keepBody?.(status) === false ? '' : text
      } catch (e) {
        body = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
      }
      samples.push({ kind, start, end: performance.now() - t0, status, retryAfter, body })
    }
  }
  await Promise.all(Array.from({ length: opts.concurrency }, loop))
  return samples
}

export function tally(samples: readonly Sample[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const s of samples) out[`${s.kind} ${s.status}`] = (out[`${s.kind} ${s.status}`] ?? 0) + 1
  return out
}

/**
 * A fresh PostgreSQL database for a fault test: on TEST_DATABASE_URL's server when set (a new
 * database, dropped afterwards), else on a private cluster; null when neither is possible.
 */
export async function faultPostgres(): Promise<{ url: string; where: string; destroy(): Promise<void> } | null> {
  if (process.env.TEST_DATABASE_URL) {
    const { openTestDatabase } = await import('../support/db')
    const tdb = await openTestDatabase('postgres')
    // The service runs the migrations itself; this handle only made and will drop the database.
    return { url: tdb.url!, where: 'TEST_DATABASE_URL', destroy: () => tdb.destroy() }
  }
  if (privateClusterUnavailable()) return null
  const cluster = await startPrivateCluster()
  return { url: cluster.url, where: 'a private cluster', destroy: () => cluster.destroy() }
}

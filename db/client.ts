// Opening the database: embedded PGlite (a data directory, or memory) when there is no
// DATABASE_URL, PostgreSQL through postgres.js otherwise. Both give the same Drizzle type, and
// every query function in db/ takes that type, so the same code runs on both.

import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { sql, type SQL } from 'drizzle-orm'
import postgres from 'postgres'
import * as schema from './schema'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export interface Database {
  db: Db
  driver: 'pglite' | 'postgres'
  /** Applies pending migrations; safe to call from several instances at once. */
  migrate(): Promise<void>
  close(): Promise<void>
  /** What the pool is doing now, and the statements that failed so far (read by src/metrics.ts). */
  load(): DbLoad
}

export interface DbLoad {
  /** Connections the pool may open: DB_POOL_SIZE on PostgreSQL, 1 on PGlite (one session). */
  size: number
  /**
   * Statements sent and not answered yet (a transaction counts as one: it holds its
   * connection throughout). Those beyond `size` wait: in the driver's queue, or behind another
   * statement on a connection.
   */
  inFlight: number
  /** Statements that failed, by statementErrorCode. */
  errors: ReadonlyMap<string, number>
}

/**
 * A failed statement's code, as metrics count it: PostgreSQL's SQLSTATE (57014: cancelled by
 * the statement timeout; 53300: too many connections), the driver's code for a connection
 * that failed (postgres.js 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', the socket's 'ECONNREFUSED'),
 * or 'other'. Codes are short upper-case words from a fixed set; nothing else passes.
 */
export function statementErrorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[0-9A-Z_]{2,40}$/.test(code) ? code : 'other'
}

/** Counts statements in flight and failures; a few integer updates per statement. */
function statementLoad(size: number) {
  let inFlight = 0
  const errors = new Map<string, number>()
  return {
    started() {
      inFlight++
    },
    done() {
      inFlight--
    },
    failed(error: unknown) {
      inFlight--
      const code = statementErrorCode(error)
      errors.set(code, (errors.get(code) ?? 0) + 1)
    },
    read: (): DbLoad => ({ size, inFlight, errors }),
  }
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url))

// Held while migrating, so that instances starting together on one PostgreSQL take turns.
const MIGRATION_LOCK = 7_202_611

export interface PostgresOptions {
  /** Pool size per instance. */
  max?: number
  /** Seconds to wait for a connection before failing the query. */
  connectTimeoutSeconds?: number
  /** Milliseconds a statement may run before the server cancels it. */
  statementTimeoutMs?: number
}

export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  const connectTimeoutSeconds = options.connectTimeoutSeconds ?? 5
  const load = statementLoad(options.max ?? 10)
  const makeClient = () =>
    postgres(url, {
      max: options.max ?? 10,
      connect_timeout: connectTimeoutSeconds,
      idle_timeout: 60,
      // postgres.js waits before reconnecting a closed connection, 3^retries / 100 s up to 20 s
      // by default, and a query waiting for that connection is bounded by no timeout. During an
      // outage the retries pile up, so requests hung for 10 s and more and recovery after the
      // database's return took as long (tests/faults/restart.fault.ts). Capped at 0.5 s, a
      // request gets its ECONNREFUSED (a 503) or its answer quickly.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
      onnotice: () => {},
      connection: { statement_timeout: options.statementTimeoutMs ?? 10_000, application_name: 'antibot', ...HOT_PATH_SETTINGS },
    })
  let client = makeClient()
  // postgres.js 3.4.9 can poison a connection for good: when a socket closes while a small
  // write waits for its setImmediate, closed() cancels the timer without clearing it, so no
  // later write on that connection is ever flushed. Every reconnect then sends nothing and ends
  // in CONNECT_TIMEOUT, one query after another, long after the database is back (seen after
  // PostgreSQL restarts; https://github.com/LanternOps/breeze/issues/3225 has the analysis).
  // A CONNECT_TIMEOUT therefore replaces the whole pool, at most once per connect timeout; the
  // old pool finishes what it is running and closes.
  let replacedAt = 0
  const replacePoolAfter = (error: unknown) => {
    if ((error as { code?: unknown } | null)?.code !== 'CONNECT_TIMEOUT') return
    const now = performance.now()
    if (now - replacedAt < connectTimeoutSeconds * 1000) return
    replacedAt = now
    const old = client
    client = makeClient()
    // Drizzle set its own parsers on the first client's options; the new one needs the same.
    Object.assign(client.options.parsers, old.options.parsers)
    Object.assign(client.options.serializers, old.options.serializers)
    void old.end({ timeout: 5 }).catch(() => {})
  }
  /**
   * The query object itself (Drizzle calls .values() on it), with failures observed and the
   * statement counted in flight from the moment it is awaited (postgres.js sends it then).
   */
  const observed = <Q extends PromiseLike<unknown>>(q: Q): Q => {
    const then = q.then.bind(q)
    Object.defineProperty(q, 'then', {
      value: (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) => {
        load.started()
        return then(
          (v: unknown) => {
            load.done()
            return ok ? ok(v) : v
          },
          (e: unknown) => {
            load.failed(e)
            replacePoolAfter(e)
            if (fail) return fail(e)
            throw e
          },
        )
      },
    })
    return q
  }
  /** A statement or transaction awaited at once: counted, failures observed. */
  const counted = <T>(run: () => Promise<T>): Promise<T> => {
    load.started()
    return run().then(
      (v) => {
        load.done()
        return v
      },
      (e: unknown) => {
        load.failed(e)
        replacePoolAfter(e)
        throw e
      },
    )
  }
  // Drizzle runs every statement through postgres.js `unsafe()`, which does not prepare by
  // default, so PostgreSQL would parse and plan the hot statements on every request. Prepared
  // (named, cached per connection) statements are what postgres.js does for its own tagged
  // queries; we ask for the same. Everything goes to the current pool.
  const preparing = new Proxy(client, {
    get(_target, prop) {
      const current = client
      if (prop === 'unsafe') {
        return (query: string, params?: unknown[], opts?: Record<string, unknown>) =>
          observed(current.unsafe(query, params as never, { ...opts, prepare: true }))
      }
      if (prop === RAW_QUERY) {
        // rawRows: awaited at once, so the failure is observed on the promise itself.
        return (query: string, params: unknown[]) => counted(() => current.unsafe(query, params as never, { prepare: true }))
      }
      if (prop === 'begin') {
        return (...args: unknown[]) => counted(() => (current.begin as (...a: unknown[]) => Promise<unknown>)(...args))
      }
      const value = Reflect.get(current, prop, current)
      return typeof value === 'function' ? value.bind(current) : value
    },
  })
  const db = drizzlePostgres(preparing, { schema }) as unknown as Db
  return {
    db,
    driver: 'postgres',
    async migrate() {
      const single = postgres(url, { max: 1, connect_timeout: connectTimeoutSeconds, onnotice: () => {} })
      try {
        await single`select pg_advisory_lock(${MIGRATION_LOCK})`
        await migratePostgres(drizzlePostgres(single), { migrationsFolder: MIGRATIONS_FOLDER })
        await single`select pg_advisory_unlock(${MIGRATION_LOCK})`
      } finally {
        await single.end({ timeout: 5 })
      }
    },
    close: () => client.end({ timeout: 5 }),
    load: load.read,
  }
}

/**
 * Settings of every connection the service opens (PostgreSQL's pool and PGlite's one session).
 * The hot statements (the keyed fetch, alone and grouped, the task insert, the nonce and
 * evidence reads and writes of a page load and a submission) find their rows by primary key or
 * another index, and must do so whatever the planner believes about a table's size: a prepared
 * statement keeps the plan it got when `tasks` was small, and autoanalyze comes at most once a
 * minute (PGlite has no autovacuum at all), so a grouped fetch was once planned as a sequential
 * scan of `tasks` and kept it while the table grew to 70,000 rows (issue 23). With sequential
 * scans disabled the planner takes an index wherever one serves the statement; a statement no
 * index serves still runs (the setting weighs plans, it forbids nothing). db/query-plans.test.ts
 * proves the plans on tables of 100,000 rows, never analyzed or planned while small, on both
 * drivers; without this setting it finds sequential scans in 10 of the 14 statements.
 * JIT compilation is off with it: a plan that still scans (a small table read whole, as the
 * dashboard does) carries the disabled scan's cost penalty, which is far over jit_above_cost, so
 * PostgreSQL compiled such a statement with LLVM on every run (60 ms for a 50-row table). The
 * service's statements are short; JIT never paid for itself here.
 */
export const HOT_PATH_SETTINGS = { enable_seqscan: 'off', jit: 'off' } as const

/**
 * PGlite's memory, chosen for a small container (docs/performance.md, "Memory"). PGlite's
 * default shared_buffers (128 MB) are touched at start and held for good: with them the idle
 * service held 330 MB. 16 MB of buffers hold the hot index pages of a few million tasks and the
 * small tables; the rest comes from the OS's page cache. work_mem 2 MB bounds a sort or hash of
 * the dashboard's queries (one session: one statement runs at a time).
 */
export const PGLITE_SETTINGS: Record<string, string> = { shared_buffers: '16MB', work_mem: '2MB', maintenance_work_mem: '16MB', temp_buffers: '1MB', ...HOT_PATH_SETTINGS }

export function pgliteOptions() {
  const params = [...PGlite.defaultStartParams]
  for (const [name, value] of Object.entries(PGLITE_SETTINGS)) params.push('-c', `${name}=${value}`)
  return { startParams: params }
}

/** The empty cluster a first start unpacks (made by db/pglite-template.ts). */
export const PGLITE_TEMPLATE = fileURLToPath(new URL('./pglite-template.tar.zst', import.meta.url))

/**
 * Creates PGlite's database cluster in `dataDir` from the template, unless it holds one.
 * PGlite's own initdb (a second PGlite instance and the initdb module in one process, the cluster
 * built in memory) peaks at 720–930 MB, which no small container has; unpacking the template
 * that initdb made once (db/pglite-template.ts: 1.6 MB, a 40 MB tar compressed with zstd) costs
 * tens of MB for a fraction of a second (docs/performance.md#memory). It is unpacked beside
 * `dataDir` and renamed into place, so a start killed meanwhile leaves no half-made cluster
 * behind, only a `.partial` directory that the next start replaces.
 */
async function createPgliteCluster(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return
  const fail = (why: string) => new Error(`Cannot create the embedded database in ${dataDir}: ${why}`)
  const present = existsSync(dataDir) ? readdirSync(dataDir) : []
  if (present.length > 0) throw fail(`the directory holds files (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}) but no database (PG_VERSION); move them away`)
  const partial = `${dataDir.replace(/\/+$/, '')}.partial`
  rmSync(partial, { recursive: true, force: true })
  mkdirSync(partial, { recursive: true })
  try {
    await unpackTemplate(partial)
    // The 40 MB tar and the unpacking's buffers (~80 MB for a moment) are garbage now: collected
    // before PGlite opens, not beside it, they are not the first start's peak (issue 61).
    Bun.gc(true)
    if (!existsSync(join(partial, 'PG_VERSION'))) throw new Error(`${PGLITE_TEMPLATE} holds no PG_VERSION`)
    if (existsSync(dataDir)) rmdirSync(dataDir)
    renameSync(partial, dataDir)
  } catch (e) {
    rmSync(partial, { recursive: true, force: true })
    throw fail(`cannot unpack the template ${PGLITE_TEMPLATE}: ${e instanceof Error ? e.message : String(e)}`)
  }
}

async function unpackTemplate(into: string): Promise<void> {
  await new Bun.Archive(Bun.zstdDecompressSync(await Bun.file(PGLITE_TEMPLATE).bytes())).extract(into)
}

/**
 * `dataDir` undefined means in memory (tests); `loadDataDir`, for memory only, starts it from a
 * dump of another's data directory (PGlite's dumpDataDir) instead of running initdb, which takes
 * seconds each time: the tests open a hundred of them (tests/support/db.ts).
 */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database & { dump?(): Promise<Blob> }> {
  if (dataDir) await createPgliteCluster(dataDir)
  const client = dataDir ? new PGlite(dataDir, pgliteOptions()) : new PGlite({ ...pgliteOptions(), ...(loadDataDir ? { loadDataDir } : {}) })
  await client.waitReady
  const load = statementLoad(1)
  countStatements(client, load)
  const db = drizzlePglite(client, { schema }) as unknown as Db
  return {
    db,
    driver: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
    load: load.read,
    ...(dataDir ? {} : { dump: () => client.dumpDataDir('none') as Promise<Blob> }),
  }
}

/**
 * PGlite's entry points (what Drizzle and rawRows call; a transaction's own statements go
 * through its `tx`, not these) counted in flight. PGlite runs one at a time: the rest wait.
 */
function countStatements(client: PGlite, load: ReturnType<typeof statementLoad>): void {
  for (const name of ['query', 'exec', 'transaction'] as const) {
    const run = (client[name] as (...args: unknown[]) => Promise<unknown>).bind(client)
    Object.defineProperty(client, name, {
      value: (...args: unknown[]) => {
        load.started()
        return run(...args).then(
          (v) => {
            load.done()
            return v
          },
          (e: unknown) => {
            load.failed(e)
            throw e
          },
        )
      },
    })
  }
}

/**
 * Rows of a raw statement. postgres.js returns an array, PGlite an object with `rows`;
 * raw statements in db/ cast their columns to types both drivers decode alike (text, int4,
 * float8, bool), so the rows are the same on both.
 */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] }
  return Array.isArray(result) ? result : result.rows
}

/**
 * Rows of a raw statement written with `$1…$n` parameters: the hot paths' form (the keyed fetch,
 * the task insert), whose text is a constant, so nothing is built per request — Drizzle's `sql`
 * template rebuilds the text and the parameter list on every call, about 15–20 µs a statement
 * on this project's machine. The same text runs on both drivers: through the pool's `unsafe`
 * on PostgreSQL (prepared, like every statement here: see openPostgres) and `query` on PGlite.
 * The same casting rule as `rows` applies.
 */
export async function rawRows<T>(db: Db, text: string, params: readonly unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: RawClient }).$client
  // postgres.js's client is a function (a tagged template); PGlite's is an object.
  if (typeof client === 'function') return (await (client as PoolClient)[RAW_QUERY](text, params as unknown[])) as T[]
  return (await (client as PGlite).query<T>(text, params as unknown[])).rows
}

/** What openPostgres's pool answers for rawRows: its current client's prepared `unsafe`. */
const RAW_QUERY = Symbol('antibot raw query')
type PoolClient = { [RAW_QUERY](text: string, params: unknown[]): Promise<unknown[]> }
type RawClient = PoolClient | PGlite

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`)
}

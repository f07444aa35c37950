// The state the HTTP benchmark starts from (tests/bench/http.ts): a PostgreSQL database that
// already holds a million tasks, as a service that has run for a while holds them, made once in
// bulk and kept as a template between runs; each run copies it for the service and for the
// baseline, so both start from the same tables and neither is ever reset.
//
// The tasks are what the service stores (compact, src/core/check-text.ts), in a mix of sizes:
// 85 % compact ones — the spec-shaped bot-detector body a script posts, and every tool's task
// for a client that sent no signals (judged on its headers) — and 15 % full judged bot-detector
// tasks of a person's Chrome and of Playwright's headless Chromium (the checks, sections and
// consistency of a real page), created over the last 30 days. The template is vacuumed and
// analyzed once, as autovacuum would have left it; the copies are not.

import postgres from 'postgres'
import { openPostgres, type Db } from '../../db/client'
import { ensureAccount } from '../../db/accounts'
import { insertKey } from '../../db/keys'
import { upsertPlan } from '../../db/plans'
import { storedResultsJson } from '../../db/tasks'
import { generateApiKey, hashSecret, keyHint } from '../../src/core/keys'
import { assembleResults } from '../../src/core/tools/assemble'
import { chromeServer, CHROME_UA, HEADLESS_UA, humanChrome, judge, playwrightHeadless } from '../../src/core/tools/bot-detector.fixture'
import { TOOL_DEFINITIONS } from '../../src/core/tools/registry'
import type { ToolId } from '../../common/tools'
import { readdirSync } from 'node:fs'
import { MIGRATIONS_FOLDER } from '../../db/client'

/** The spec-shaped body a script posts (src/core/tools/assemble.ts: checksFromSpecScoring). */
export const POST_BODY = JSON.stringify({
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

export interface Sample {
  tool: string
  score: number
  userAgent: string
  results: string
  full: boolean
}

/** One stored form per kind of task; the bulk insert repeats them in the mix above. */
export function samples(): Sample[] {
  const out: Sample[] = []
  const spec = assembleResults('bot-detector', JSON.parse(POST_BODY).results, chromeServer())
  if (!spec.ok) throw new Error(spec.error)
  out.push({ tool: 'bot-detector', score: spec.score, userAgent: CHROME_UA, results: storedResultsJson('bot-detector', spec.results), full: false })
  for (const tool of Object.keys(TOOL_DEFINITIONS) as ToolId[]) {
    const r = assembleResults(tool, {}, chromeServer())
    if (r.ok) out.push({ tool, score: r.score, userAgent: CHROME_UA, results: storedResultsJson(tool, r.results), full: false })
  }
  const person = judge(humanChrome())
  const headless = playwrightHeadless()
  const bot = judge(headless.signals, headless.server)
  out.push({ tool: 'bot-detector', score: person.score, userAgent: CHROME_UA, results: storedResultsJson('bot-detector', person.stored), full: true })
  out.push({ tool: 'bot-detector', score: bot.score, userAgent: HEADLESS_UA, results: storedResultsJson('bot-detector', bot.stored), full: true })
  return out
}

export interface Template {
  name: string
  /** The keys' plain texts (only their hashes are in api_keys). */
  keys: string[]
  /** Task ids the keyed GETs fetch, spread over the table, compact and full. */
  ids: string[]
  tasks: number
  bytes: { compact: number; full: number }
}

export const withDatabase = (url: string, name: string) => {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/** The template's name changes with the migrations and the size, so a new schema makes a new one. */
export function templateName(tasks: number): string {
  return `antibot_bench_t${readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).length}_${tasks}`
}

/** The benchmark's plan (no limit it could reach), its account and `count` keys; returns the keys' plain texts. */
export async function seedKeys(db: Db, count: number): Promise<string[]> {
  const plan = await upsertPlan(db, { name: 'bench', monthlyLimit: 2_000_000_000 })
  const account = await ensureAccount(db, 'bench@example.test')
  const keys: string[] = []
  for (let i = 0; i < count; i++) {
    const key = generateApiKey((n) => crypto.getRandomValues(new Uint8Array(n)))
    const h = keyHint(key)
    await insertKey(db, { accountId: account.id, planId: plan.id, name: `bench-${i}`, keyHash: hashSecret(key), prefix: h.prefix, last4: h.last4 })
    keys.push(key)
  }
  return keys
}

/**
 * The statements that fill a database made by the migrations with `tasks` tasks of the mix above
 * (and bench_samples, the stored forms they repeat), 100,000 rows per statement; `done` says how
 * many are in after it. The same SQL runs on PostgreSQL and on PGlite.
 */
export function bulkStatements(tasks: number): Array<{ text: string; done?: number }> {
  const quote = (v: string) => `'${v.replaceAll("'", "''")}'`
  const all = samples()
  const compact = all.filter((s) => !s.full)
  const full = all.filter((s) => s.full)
  const out: Array<{ text: string; done?: number }> = [{ text: 'create table bench_samples (n int primary key, tool text, score int, user_agent text, results jsonb, full_task boolean)' }]
  // 20 slots: 17 compact (in turn), 3 full.
  for (let n = 0; n < 20; n++) {
    const s = n < 17 ? compact[n % compact.length]! : full[n % full.length]!
    out.push({ text: `insert into bench_samples values (${n}, ${quote(s.tool)}, ${s.score}, ${quote(s.userAgent)}, ${quote(s.results)}::jsonb, ${s.full})` })
  }
  const chunk = 100_000
  for (let from = 1; from <= tasks; from += chunk) {
    const to = Math.min(tasks, from + chunk - 1)
    out.push({
      text: `insert into tasks (id, tool, score, ip_address, user_agent, results, created_at)
        select gen_random_uuid(), s.tool, s.score, '10.' || (g % 250) || '.' || (g / 250 % 250) || '.' || (g / 62500 % 250), s.user_agent, s.results,
               now() - (g % 2592000) * interval '1 second'
        from generate_series(${from}, ${to}) g join bench_samples s on s.n = g % 20`,
      done: to,
    })
  }
  return out
}

/** Makes the template (once; ~2–4 minutes for a million tasks) or finds the one kept from an earlier run. */
export async function ensureTemplate(baseUrl: string, tasks: number, keyCount: number, log: (line: string) => void): Promise<Template> {
  const name = templateName(tasks)
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${name}`
    if (exists) {
      const t = postgres(withDatabase(baseUrl, name), { max: 1, onnotice: () => {} })
      try {
        const [done] = await t`select count(*)::int as n from bench_keys`.catch(() => [{ n: 0 }])
        if (done && done.n >= keyCount) return await readTemplate(t, name, keyCount)
      } finally {
        await t.end()
      }
      await admin.unsafe(`drop database "${name}" with (force)`)
    }
    log(`making the template ${name}: ${tasks.toLocaleString('en')} tasks (kept for later runs)`)
    await admin.unsafe(`create database "${name}"`)
  } finally {
    await admin.end()
  }
  const url = withDatabase(baseUrl, name)
  const db = openPostgres(url)
  await db.migrate()
  const keys = await seedKeys(db.db, keyCount)
  await db.close()
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const began = performance.now()
    for (const statement of bulkStatements(tasks)) {
      await sql.unsafe(statement.text)
      if (statement.done) log(`  ${statement.done.toLocaleString('en')} tasks (${Math.round((performance.now() - began) / 1000)} s)`)
    }
    await sql`create table bench_keys (n int primary key, key text not null)`
    for (const [n, key] of keys.entries()) await sql`insert into bench_keys values (${n}, ${key})`
    await sql`create table bench_ids as select id from tasks tablesample bernoulli (0.5) repeatable (23) order by md5(id::text) limit 2000`
    await sql`vacuum analyze`
    log(`  template ready in ${Math.round((performance.now() - began) / 1000)} s`)
    return await readTemplate(sql, name, keyCount)
  } finally {
    await sql.end()
  }
}

async function readTemplate(sql: postgres.Sql, name: string, keyCount: number): Promise<Template> {
  const keys = (await sql`select key from bench_keys order by n limit ${keyCount}`).map((r) => r.key as string)
  const ids = (await sql`select id::text as id from bench_ids order by id`).map((r) => r.id as string)
  const [count] = await sql`select reltuples::bigint as n from pg_class where relname = 'tasks'`
  const sizes = await sql`select full_task, avg(pg_column_size(results))::int as bytes from bench_samples group by full_task`
  const bytes = { compact: 0, full: 0 }
  for (const s of sizes) bytes[s.full_task ? 'full' : 'compact'] = s.bytes
  return { name, keys, ids, tasks: Number(count!.n), bytes }
}

/** A copy of the template for one server (a file copy: seconds, not a replay of the WAL). */
export async function copyTemplate(baseUrl: string, template: string, name: string): Promise<string> {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
  try {
    await admin.unsafe(`create database "${name}" template "${template}" strategy file_copy`)
  } finally {
    await admin.end()
  }
  return withDatabase(baseUrl, name)
}

/** The same database without the bulk: only the tasks the GETs fetch (for GET at 1 M against GET on an empty table). */
export async function emptyCopy(baseUrl: string, template: string, name: string): Promise<string> {
  const url = await copyTemplate(baseUrl, template, name)
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    await sql`create temporary table keep as select t.* from tasks t join bench_ids b on b.id = t.id`
    await sql`truncate tasks`
    await sql`insert into tasks select * from keep`
    await sql`vacuum analyze tasks`
  } finally {
    await sql.end()
  }
  return url
}

export async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {})
  await admin.end()
}

/** Sequential scans, and analyzes and vacuums (autovacuum's or its stand-in's), on the hot tables of a database, as pg_stat_user_tables has them. */
export interface TableStats {
  seqScans: Record<string, number>
  /** Sequential scans of the uniqueness tables (in seqScans too: hot tables like the others). */
  uniquenessSeqScans: Record<string, number>
  autoanalyze: number
  autovacuum: number
  /** Tasks inserted since the database was made (its copy of the template's are not counted). */
  insertedTasks: number
}

export const HOT_TABLES = ['tasks', 'api_keys', 'plans', 'key_usage', 'plan_usage', 'page_nonces', 'evidence', 'rate_windows']
/**
 * The uniqueness counts' tables (issue 48), which the identifying load writes: vacuumed and
 * analyzed like the hot tables, and a sequential scan of one fails the run like theirs (the
 * hourly maintenance reaches its rows by index too).
 */
export const UNIQUENESS_TABLES = ['uniqueness_browsers', 'uniqueness_counts', 'uniqueness_ranges']

export async function tableStats(url: string): Promise<TableStats> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const rows = await sql`select relname, seq_scan::int as seq, (analyze_count + autoanalyze_count)::int as aa, (vacuum_count + autovacuum_count)::int as av, n_tup_ins::bigint as ins
                           from pg_stat_user_tables where relname = any(${[...HOT_TABLES, ...UNIQUENESS_TABLES]})`
    const out: TableStats = { seqScans: {}, uniquenessSeqScans: {}, autoanalyze: 0, autovacuum: 0, insertedTasks: 0 }
    for (const r of rows) {
      if (UNIQUENESS_TABLES.includes(r.relname)) out.uniquenessSeqScans[r.relname] = r.seq
      out.seqScans[r.relname] = r.seq
      out.autoanalyze += r.aa
      out.autovacuum += r.av
      if (r.relname === 'tasks') out.insertedTasks = Number(r.ins)
    }
    return out
  } finally {
    await sql.end()
  }
}

/** What the uniqueness tables of a database hold: browsers counted, ranges (and those at `perRange`, the flood bound), count rows. */
export async function uniquenessState(url: string, perRange: number): Promise<{ browsers: number; ranges: number; fullRanges: number; counts: number }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const [r] = await sql`select (select count(*)::int from uniqueness_browsers) as browsers, (select count(*)::int from uniqueness_ranges where browsers > 0) as ranges,
                                 (select count(*)::int from uniqueness_ranges where browsers >= ${perRange}) as full_ranges, (select count(*)::int from uniqueness_counts) as counts`
    return { browsers: r!.browsers, ranges: r!.ranges, fullRanges: r!.full_ranges, counts: r!.counts }
  } finally {
    await sql.end()
  }
}

/**
 * What autovacuum does, for a server where it is off (this project's machine runs PostgreSQL
 * with `autovacuum = off`): every `naptimeMs` (autovacuum_naptime's default, a minute), each hot
 * or uniqueness table of each database past autovacuum's default thresholds is vacuumed (dead
 * rows over 50 + 20 % of its rows) or analyzed (rows changed since the last analyze over
 * 50 + 10 %), the way the autovacuum worker would. Where the server's own autovacuum is on, nothing is done: it acts
 * by itself. Returns a stop function and the count of what it did.
 */
export async function autovacuumStandIn(baseUrl: string, urls: string[], log: (line: string) => void, naptimeMs = 60_000): Promise<{ stop(): Promise<void>; runs: { vacuum: number; analyze: number }; serverAutovacuum: boolean }> {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
  const [setting] = await admin`select setting from pg_settings where name = 'autovacuum'`
  await admin.end()
  const runs = { vacuum: 0, analyze: 0 }
  const serverAutovacuum = setting?.setting === 'on'
  if (serverAutovacuum) return { stop: async () => {}, runs, serverAutovacuum }
  log('the server runs with autovacuum = off: the benchmark vacuums and analyzes as autovacuum would, every minute, at its default thresholds')
  const clients = urls.map((u) => postgres(u, { max: 1, onnotice: () => {} }))
  let stopped = false
  let pass: Promise<void> = Promise.resolve()
  const once = async () => {
    for (const sql of clients) {
      const due = await sql`select s.relname, n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) as vacuum, n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyze
                            from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = any(${[...HOT_TABLES, ...UNIQUENESS_TABLES]})`
      for (const t of due) {
        if (stopped) return
        if (t.vacuum) {
          await sql.unsafe(`vacuum (analyze) ${t.relname}`)
          runs.vacuum++
          runs.analyze++
        } else if (t.analyze) {
          await sql.unsafe(`analyze ${t.relname}`)
          runs.analyze++
        }
      }
    }
  }
  const timer = setInterval(() => {
    pass = pass.then(once).catch((e: unknown) => log(`autovacuum stand-in: ${e instanceof Error ? e.message : String(e)}`))
  }, naptimeMs)
  return {
    runs,
    serverAutovacuum,
    async stop() {
      if (stopped) return
      stopped = true
      clearInterval(timer)
      await pass
      await Promise.all(clients.map((c) => c.end()))
    },
  }
}

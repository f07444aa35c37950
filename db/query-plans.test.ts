// The hot paths never scan a table (issue 23): every statement of the keyed GET (alone and
// grouped), the task POST (insert, grouped insert, the nonce's read and use, the identity count,
// the report's claim of its page's own report,
// the per-network limit, the uniqueness counts and the sighting recorded with the task) and of a page load and a listener's filing reaches its rows by index,
// proved with EXPLAIN on each driver, on tables of 100,000 rows in two states the planner gets
// wrong without help:
// - never analyzed (the statistics know nothing);
// - planned while small: each statement's generic plan is made when the tables hold a few rows
//   and analyzed as such, then 100,000 rows arrive, and the same prepared statement is explained
//   again — the plan a long-lived connection keeps while autoanalyze has not come (a grouped fetch
//   kept a sequential scan of `tasks` this way while the table grew to 70,000 rows).
// Custom and generic plans both. The statements are the code's own: the raw texts the hot paths
// run, and what Drizzle sends for the rest, recorded while the real functions run.

import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import type { PGlite } from '@electric-sql/pglite'
import { testDrivers, type DriverName } from '../tests/support/db'
import { HOOK_TIMEOUT_MS, useTestDatabase } from '../tests/support/db-suite'
import { ensureAccount } from './accounts'
import { rows, type Db } from './client'
import { FETCH_TASK_RUN, FETCH_TASK_WITH_KEY, fetchGroup } from './fetch'
import { insertKey } from './keys'
import { claimOwnReport, fileEvidence, INSERT_USING_NONCE, INSERT_USING_NONCE_WITH_SIGHTING, issueNonce, readNonce } from './nonces'
import { upsertPlan } from './plans'
import { hitWindow, recordMiss } from './rate-windows'
import * as schema from './schema'
import { countFingerprintSeen, INSERT_TASK, INSERT_TASK_WITH_SIGHTING, insertTasks } from './tasks'
import { COUNTS_BEFORE, DELETE_EMPTY_RANGES, DELETE_ZERO_COUNTS, PURGE, sightingParams } from './uniqueness'

/** Tables the hot paths touch: none of them may be read by a sequential scan. */
const HOT_TABLES = ['tasks', 'api_keys', 'plans', 'key_usage', 'plan_usage', 'page_nonces', 'evidence', 'rate_windows', 'uniqueness_browsers', 'uniqueness_counts', 'uniqueness_ranges']
const ROWS = 100_000
/**
 * The fills' hooks have no clock of their own (0: none): their time is their work, a few
 * statements of `insert … select … from generate_series` writing ROWS rows into each hot table,
 * which a loaded machine slows but never turns into a hang (a 90 s hook timeout failed the gate
 * under stress-ng, issue 57). What bounds a database that really hangs is the gate's own limit.
 */
const FILL_TIMEOUT_MS = 0
const NOW = new Date('2026-11-15T12:00:00Z')
const TASK = '00000000-0000-4000-8000-00000000c0de'

interface Statement {
  name: string
  text: string
  params: unknown[]
}

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  Plans?: PlanNode[]
}

/** Every node of a plan, with the sub-plans of CTEs and sub-selects. */
function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)]
}

const seqScans = (plan: PlanNode) => nodes(plan).filter((n) => n['Node Type'] === 'Seq Scan' && HOT_TABLES.includes(n['Relation Name'] ?? ''))

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'number' || typeof v === 'bigint') return String(v)
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  const text = v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : JSON.stringify(v)
  return `'${text.replaceAll("'", "''")}'`
}

/** A Drizzle database over the same client that records every statement it sends. */
function recording(db: Db, driver: DriverName): { db: Db; statements: Statement[] } {
  const statements: Statement[] = []
  const client = (db as unknown as { $client: unknown }).$client
  const logger = { logQuery: (text: string, params: unknown[]) => void statements.push({ name: '', text, params }) }
  const rdb = driver === 'pglite' ? drizzlePglite(client as PGlite, { schema, logger }) : drizzlePostgres(client as never, { schema, logger })
  return { db: rdb as unknown as Db, statements }
}

/** The hot statements with parameters that find rows: the raw texts, then the recorded ones. */
async function hotStatements(db: Db, driver: DriverName, keyHash: string, keyId: string): Promise<Statement[]> {
  const month = '2026-11-01'
  const day = 15
  const at = NOW.toISOString()
  const row = (id: string) => [id, 'bot-detector', 50, '198.51.100.7', 'UA', '{"summary":{"score":50}}', at, null]
  const groupParams = (n: number) => [month, day, ...Array.from({ length: n }, (_, i) => [keyHash, TASK, at, at, i % 2 === 1, 1 + (i % 3)]).flat()]
  const out: Statement[] = [
    { name: 'keyed fetch', text: FETCH_TASK_WITH_KEY, params: [keyHash, TASK, month, day, at, false] },
    { name: 'keyed fetch of one run', text: FETCH_TASK_RUN, params: [month, day, keyHash, TASK, at, at, true, 16] },
    { name: 'grouped keyed fetch of 2', text: fetchGroup(2), params: groupParams(2) },
    { name: 'grouped keyed fetch of 64', text: fetchGroup(64), params: groupParams(64) },
    { name: 'task insert', text: INSERT_TASK, params: row(crypto.randomUUID()) },
    { name: 'grouped task insert of 8', text: insertTasks(8), params: Array.from({ length: 8 }, () => row(crypto.randomUUID())).flat() },
  ]
  const rec = recording(db, driver)
  const record = async (name: string, run: () => Promise<unknown>) => {
    const from = rec.statements.length
    await run()
    for (const s of rec.statements.slice(from)) out.push({ ...s, name: `${name}: ${s.text.replace(/\s+/g, ' ').slice(0, 60)}` })
  }
  const nonce = `plans-${crypto.randomUUID()}`
  await record('page load', () => issueNonce(rec.db, { nonce, tool: 'bot-detector', turnSecret: 's', now: NOW, ttlSeconds: 600, clientIp: '198.51.100.7', network: 'net-1', maxUnused: 50 }))
  await record('listener filing', () => fileEvidence(rec.db, { nonce, kind: 'tls', data: { ja4: 'x' }, now: NOW, clientIp: '198.51.100.7' }))
  await record('submission read', () => readNonce(rec.db, { nonce, tool: 'bot-detector', now: NOW, client: '198.51.100.7' }))
  await record('own report', () => claimOwnReport(rec.db, { nonce, tool: 'bot-detector', now: NOW }))
  await record('identity count', () => countFingerprintSeen(rec.db, { tool: 'browser-fingerprint', fingerprint: 'fp-1', excludeIp: '198.51.100.7', now: NOW, windowDays: 30, cap: 50, asOfNonce: nonce }))
  await record('task limit', () => hitWindow(rec.db, { scope: 'task_create', subject: 'net-1', policy: { windowSeconds: 60 }, now: NOW }))
  await record('miss', () => recordMiss(rec.db, { keyId, policy: { max: 1000, windowSeconds: 60 }, now: NOW }))
  // The uniqueness counts before judging, and the task stored with its sighting (a browser of
  // the filled tables, so that every CTE finds rows), with and without a nonce.
  const sighting = sightingParams({ tool: 'screen-display', keys: { browser: 'b-7', range: 'r-7', shard: 7 }, names: ['*', '#', 'screen.size'], values: ['*', 'c-7', 's-7'], seen: NOW, perRange: 4 })
  const newBrowser = sightingParams({ tool: 'screen-display', keys: { browser: 'b-new', range: 'r-9', shard: 1 }, names: ['*', '#', 'screen.size'], values: ['*', 'c-9', 's-9'], seen: NOW, perRange: 4 })
  out.push(
    { name: 'uniqueness counts', text: COUNTS_BEFORE, params: ['screen-display', '*,#,screen.size', '*,c-7,s-7', 'b-7', 'r-7', at] },
    { name: 'task with sighting (seen browser)', text: INSERT_TASK_WITH_SIGHTING, params: [...row(crypto.randomUUID()), ...sighting] },
    { name: 'task with sighting (new browser)', text: INSERT_TASK_WITH_SIGHTING, params: [...row(crypto.randomUUID()), ...newBrowser] },
    { name: 'task with nonce', text: INSERT_USING_NONCE, params: [...row(crypto.randomUUID()), null, nonce] },
    { name: 'task with nonce and sighting', text: INSERT_USING_NONCE_WITH_SIGHTING, params: [...row(crypto.randomUUID()), null, nonce, ...newBrowser] },
    // The hourly purge of the uniqueness figures: it runs beside the hot paths, on the same tables.
    { name: 'uniqueness purge', text: PURGE, params: [at, 1000] },
    { name: 'uniqueness zero counts', text: DELETE_ZERO_COUNTS, params: ['screen-display,screen.size,s-7,7'] },
    { name: 'uniqueness empty ranges', text: DELETE_EMPTY_RANGES, params: [at, 1000] },
  )
  return out.filter((s) => !/^\s*(begin|commit|rollback|select pg_advisory)/i.test(s.text))
}

/**
 * The plans of `statements` as prepared statements of one session (`plan_cache_mode` forcing the
 * kind), made in that session before `between` runs and explained again after it when given.
 */
async function plans(db: Db, statements: Statement[], mode: 'custom' | 'generic', between?: (tx: Db) => Promise<void>): Promise<Array<{ name: string; before: PlanNode; after: PlanNode }>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local plan_cache_mode = force_${mode}_plan`))
    const explain = async (i: number) => {
      const s = statements[i]!
      const args = s.params.length ? `(${s.params.map(literal).join(', ')})` : ''
      const [r] = await rows<{ 'QUERY PLAN': unknown }>(tx, sql.raw(`explain (format json) execute hot_${i}${args}`))
      const json = r!['QUERY PLAN']
      return ((typeof json === 'string' ? JSON.parse(json) : json) as Array<{ Plan: PlanNode }>)[0]!.Plan
    }
    const before: PlanNode[] = []
    for (const [i, s] of statements.entries()) {
      await tx.execute(sql.raw(`prepare hot_${i} as ${s.text}`))
      before.push(await explain(i))
    }
    if (between) await between(tx as unknown as Db)
    const out = []
    for (const [i, s] of statements.entries()) out.push({ name: s.name, before: before[i]!, after: between ? await explain(i) : before[i]! })
    // The session's prepared statements are its own; they go with it, but not before the next test.
    await tx.execute(sql.raw('deallocate all'))
    return out
  }) as Promise<Array<{ name: string; before: PlanNode; after: PlanNode }>>
}

/**
 * Rows in every hot table: `n` tasks, as many nonces and evidence rows, a key per 20 tasks. In
 * one transaction without a statement timeout: each statement writes `n` rows, which takes what
 * it takes on a loaded machine (on PostgreSQL the test connections' 10 s statement_timeout cut
 * the evidence fill off under stress-ng, issue 57).
 */
async function fill(outer: Db, n: number, accountId: string, planId: number, offset = 0): Promise<void> {
  await outer.transaction(async (tx) => {
    await tx.execute(sql.raw('set local statement_timeout = 0'))
    await fillRows(tx, n, accountId, planId, offset)
  })
}

async function fillRows(db: Db, n: number, accountId: string, planId: number, offset: number): Promise<void> {
  const range = `generate_series(${offset + 1}, ${offset + n}) g`
  await db.execute(sql.raw(`insert into tasks (id, tool, score, ip_address, user_agent, results, created_at, fingerprint)
    select gen_random_uuid(), case when g % 10 = 0 then 'browser-fingerprint' else 'bot-detector' end, g % 101, '198.51.100.' || (g % 250), 'UA',
           '{"summary":{"score":50}}'::jsonb, timestamptz '${NOW.toISOString()}' - g * interval '1 second',
           case when g % 10 = 0 then 'fp-' || (g % 5000) end
    from ${range}`))
  await db.execute(sql.raw(`insert into page_nonces (nonce, tool, turn_secret, created_at, expires_at, client_ip, network)
    select 'bulk-' || g, 'bot-detector', 's', timestamptz '${NOW.toISOString()}' - g * interval '1 second', timestamptz '${NOW.toISOString()}' + interval '10 minutes', '198.51.100.7', 'net-' || (g % 5000)
    from ${range}`))
  await db.execute(sql.raw(`insert into evidence (nonce, kind, data, observed_at, client_ip) select 'bulk-' || g, 'tls', '{}'::jsonb, timestamptz '${NOW.toISOString()}', '198.51.100.7' from ${range}`))
  await db.execute(sql.raw(`insert into api_keys (account_id, plan_id, name, prefix, last4, key_hash)
    select '${accountId}'::uuid, ${planId}, 'bulk', 'ab_b', 'bbbb', 'bulk-' || g from generate_series(${offset / 20 + 1}, ${(offset + n) / 20}) g`))
  await db.execute(sql.raw(`insert into key_usage (key_id, month, count, daily) select id, date '2026-10-01', 1, array_fill(0, array[31]) from api_keys where name = 'bulk' on conflict do nothing`))
  // The account's allowance in as many earlier months as there are keys (one account, one plan).
  await db.execute(sql.raw(`insert into plan_usage (account_id, plan_id, month, count)
    select '${accountId}'::uuid, ${planId}, (date '2026-10-01' - g * interval '1 month')::date, 1 from generate_series(${offset / 20 + 1}, ${(offset + n) / 20}) g on conflict do nothing`))
  await db.execute(sql.raw(`insert into rate_windows (scope, subject, count, window_started_at) select 'task_create', 'bulk-' || g, 1, timestamptz '${NOW.toISOString()}' from ${range} on conflict do nothing`))
  await db.execute(sql.raw(`insert into uniqueness_browsers (tool, browser, range, shard, names, vals, last_seen)
    select 'screen-display', 'b-' || g, 'r-' || (g % 5000), g % 8, array['*', '#', 'screen.size'], array['*', 'c-' || (g % 1000), 's-' || (g % 50)], timestamptz '${NOW.toISOString()}' - g * interval '1 second'
    from ${range} on conflict do nothing`))
  await db.execute(sql.raw(`insert into uniqueness_counts (tool, name, value, shard, browsers) select 'screen-display', 'screen.size', 's-' || g, g % 8, 1 from ${range} on conflict do nothing`))
  await db.execute(sql.raw(`insert into uniqueness_ranges (tool, range, browsers, created_at) select 'screen-display', 'r-' || g, 1, timestamptz '${NOW.toISOString()}' from ${range} on conflict do nothing`))
}

async function prepare(db: Db, driver: DriverName, opts: { analyzedSmall: boolean }) {
  // PostgreSQL's autovacuum must not analyze the tables while the test runs (PGlite has none).
  if (driver === 'postgres') for (const t of HOT_TABLES) await db.execute(sql.raw(`alter table ${t} set (autovacuum_enabled = false)`))
  const account = await ensureAccount(db, 'plans@example.test')
  const plan = await upsertPlan(db, { name: 'plans', monthlyLimit: 1_000_000 })
  const keyHash = 'plans-key-hash'
  const keyId = await insertKey(db, { accountId: account.id, planId: plan.id, name: 'plans', keyHash, prefix: 'ab_p', last4: 'pppp' })
  await db.execute(sql.raw(`insert into tasks (id, tool, score, ip_address, user_agent, results, created_at) values ('${TASK}', 'bot-detector', 50, '198.51.100.7', 'UA', '{}', '${NOW.toISOString()}')`))
  if (opts.analyzedSmall) {
    await fill(db, 20, account.id, plan.id)
    await db.execute(sql.raw('analyze'))
  } else {
    await fill(db, ROWS, account.id, plan.id)
  }
  return { keyHash, keyId, burst: (tx: Db) => fill(tx, ROWS, account.id, plan.id, 20) }
}

function expectNoScans(result: Array<{ name: string; before: PlanNode; after: PlanNode }>, minimum: number) {
  expect(result.length).toBeGreaterThanOrEqual(minimum)
  const scans = result.flatMap((r) => [...seqScans(r.before), ...seqScans(r.after)].map((n) => `${r.name}: Seq Scan on ${n['Relation Name']}`))
  expect(scans).toEqual([])
  // The statements that read tasks do so through its primary key.
  const fetch = result.find((r) => r.name === 'grouped keyed fetch of 64')!
  expect(nodes(fetch.after).some((n) => /Index/.test(n['Node Type']) && n['Relation Name'] === 'tasks')).toBe(true)
}

describe.each(testDrivers())('hot statements on %s', (driver) => {
  describe(`never analyzed, ${ROWS.toLocaleString('en')} rows`, () => {
    let db: Db
    let statements: Statement[]
    useTestDatabase(driver, (t) => {
      db = t.db
    })
    beforeAll(async () => {
      const { keyHash, keyId } = await prepare(db, driver, { analyzedSmall: false })
      statements = await hotStatements(db, driver, keyHash, keyId)
    }, FILL_TIMEOUT_MS)

    test('no statement of the keyed GET, the POST, a page load or a listener scans a table: custom plans', async () => {
      expectNoScans(await plans(db, statements, 'custom'), 21)
    })
    test('the same with generic plans (what a prepared statement keeps)', async () => {
      expectNoScans(await plans(db, statements, 'generic'), 21)
    })
  })

  describe(`planned while small, then ${ROWS.toLocaleString('en')} rows arrive`, () => {
    let db: Db
    let statements: Statement[]
    let burst: (tx: Db) => Promise<void>
    useTestDatabase(driver, (t) => {
      db = t.db
    })
    beforeAll(async () => {
      const p = await prepare(db, driver, { analyzedSmall: true })
      burst = p.burst
      statements = await hotStatements(db, driver, p.keyHash, p.keyId)
    }, HOOK_TIMEOUT_MS)

    test('generic plans made on the small tables still use the indexes after the burst', async () => {
      expectNoScans(await plans(db, statements, 'generic', burst), 21)
    }, FILL_TIMEOUT_MS)
  })
})

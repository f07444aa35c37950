// Migrations that move data, on each driver: 0006 moves the failed log-in counts from
// login_throttles into the one fixed-window table (rate_windows) without losing a count or a
// window start; 0009 marks the keys whose miss window shuts them out as it runs; 0010 keeps a
// live nonce's evidence across the upgrade, its old listener records bound to no address; 0012
// makes old spec-shaped bot-detector tasks that claimed to be verified, or carried a client's
// verdict, say what new ones say (issue 34); 0016 sums the keys' counts into each account's allowance
// per plan and month, and leaves only the free plan self-serve (issue 57); 0019 compresses new
// results with LZ4 where the server has it (issue 61).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openTestDatabase, testDrivers, type TestDatabase } from '../tests/support/db'
import { MIGRATIONS_FOLDER, rows } from './client'
import { fileEvidence, readNonce } from './nonces'
import { UNVERIFIED_REASONS } from '../src/core/tools/verified'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> }

async function apply(d: TestDatabase, tag: string) {
  const text = readFileSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), 'utf8')
  for (const statement of text.split('--> statement-breakpoint')) if (statement.trim()) await d.db.execute(sql.raw(statement))
}

/**
 * A test of one migration on a database built up to it: `before` puts data in as the earlier
 * migrations left the schema, then the migration and those after it are applied, and `after` checks.
 */
function migrationTest(driver: Parameters<typeof openTestDatabase>[0], tag: string, title: string, steps: { before(d: TestDatabase): Promise<unknown>; after(d: TestDatabase): Promise<unknown> }) {
  describe(`${tag} (${driver})`, () => {
    let d: TestDatabase
    beforeAll(async () => {
      d = await openTestDatabase(driver, { migrate: false })
    }, HOOK_TIMEOUT_MS)
    afterAll(async () => {
      await d?.destroy()
    }, HOOK_TIMEOUT_MS)

    test(title, async () => {
      const tags = journal.entries.map((e) => e.tag)
      const at = tags.indexOf(tag)
      expect(at).toBeGreaterThan(0)
      for (const t of tags.slice(0, at)) await apply(d, t)
      await steps.before(d)
      for (const t of tags.slice(at)) await apply(d, t)
      await steps.after(d)
    })
  })
}

for (const driver of testDrivers()) {
  migrationTest(driver, '0006_one_rate_window_table', 'keeps every log-in count under the log-in scopes and drops login_throttles', {
    async before(d) {
      await d.db.execute(sql`insert into login_throttles (scope, subject, failures, window_started_at) values
        ('account', 'a1', 5, '2026-11-15T12:00:00Z'), ('address', 'b2', 3, '2026-11-15T12:05:00Z')`)
      await d.db.execute(sql`insert into rate_windows (scope, subject, count, window_started_at) values ('task_miss', 'k', 7, '2026-11-15T12:01:00Z')`)
    },
    async after(d) {
      const found = await rows<{ scope: string; subject: string; count: number; started: string }>(
        d.db,
        sql`select scope, subject, count::int as count, to_char(window_started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as started
            from rate_windows order by scope, subject`,
      )
      expect(found).toEqual([
        { scope: 'login_account', subject: 'a1', count: 5, started: '2026-11-15T12:00:00Z' },
        { scope: 'login_address', subject: 'b2', count: 3, started: '2026-11-15T12:05:00Z' },
        { scope: 'task_miss', subject: 'k', count: 7, started: '2026-11-15T12:01:00Z' },
      ])
      const table = await rows<{ t: string | null }>(d.db, sql`select to_regclass('login_throttles')::text as t`)
      expect(table[0]!.t).toBeNull()
    },
  })

  const started = new Date(Date.now() - 60_000)
  const keys = { full: 'b', under: 'c', ended: 'd', none: 'e' }
  migrationTest(driver, '0009_key_misses_blocked_until', 'a key shut out by its misses stays shut out until its window ends; no other key is', {
    async before(d) {
      await d.db.execute(sql`insert into accounts (id, email) values ('00000000-0000-4000-8000-00000000000a', 'm@example.test')`)
      for (const [name, c] of Object.entries(keys)) {
        await d.db.execute(sql`insert into api_keys (id, account_id, plan_id, name, prefix, last4, key_hash)
          values (${`00000000-0000-4000-8000-00000000000${c}`}::uuid, '00000000-0000-4000-8000-00000000000a', (select id from plans order by id limit 1), ${name}, 'ab_x', 'xxxx', ${name})`)
      }
      const window = (c: string, count: number, startedAt: Date) =>
        d.db.execute(sql`insert into rate_windows (scope, subject, count, window_started_at) values ('task_miss', ${`00000000-0000-4000-8000-00000000000${c}`}, ${count}, ${startedAt.toISOString()}::timestamptz)`)
      await window(keys.full, 100, started)
      await window(keys.under, 99, started)
      await window(keys.ended, 150, new Date(Date.now() - 700_000))
    },
    async after(d) {
      const found = await rows<{ name: string; until_ms: number | null }>(
        d.db,
        sql`select name, (extract(epoch from misses_blocked_until) * 1000)::float8 as until_ms from api_keys order by name`,
      )
      expect(found).toEqual([
        { name: 'ended', until_ms: null },
        { name: 'full', until_ms: started.getTime() + 600_000 },
        { name: 'none', until_ms: null },
        { name: 'under', until_ms: null },
      ])
    },
  })

  // A nonce live across the upgrade: its records were filed before addresses were kept, so its
  // TLS record is nobody's (set aside, with no address), its DNS record stays the page's.
  const pending = 'upgradeupgradeupgradeupgra'
  migrationTest(driver, '0010_evidence_client_address', "keeps the evidence of a live nonce; a record filed without an address binds to no submitter", {
    async before(d) {
      await d.db.execute(sql`insert into page_nonces (nonce, tool, turn_secret, created_at, expires_at) values (${pending}, 'tls-fingerprint', 's', now(), now() + interval '15 minutes')`)
      await d.db.execute(sql`insert into evidence (nonce, kind, data, observed_at) values (${pending}, 'tls', '{"ja4":"t13d1516h2_8daaf6152771_02713d6af862"}'::jsonb, now()), (${pending}, 'dns', '{"name":"x"}'::jsonb, now())`)
    },
    async after(d) {
      const stored = await rows<{ kind: string; client_ip: string | null; away: boolean }>(d.db, sql`select kind, client_ip, away from evidence where nonce = ${pending} order by id`)
      expect(stored).toEqual([
        { kind: 'tls', client_ip: null, away: false },
        { kind: 'dns', client_ip: null, away: false },
      ])
      const read = await readNonce(d.db, { nonce: pending, tool: 'tls-fingerprint', now: new Date(), client: '203.0.113.5' })
      expect(read.evidence.map((e) => e.kind)).toEqual(['dns'])
      expect(read.elsewhere).toEqual([{ kind: 'tls', address: null, observedAt: expect.any(String) }])
      // New records of the nonce (page address unknown) are filed under the full cap, with theirs.
      expect(await fileEvidence(d.db, { nonce: pending, kind: 'tls', data: { ja4: 't13' }, now: new Date(), clientIp: '203.0.113.5' })).toBe('filed')
      expect((await readNonce(d.db, { nonce: pending, tool: 'tls-fingerprint', now: new Date(), client: '203.0.113.5' })).evidence.map((e) => e.kind)).toEqual(['dns', 'tls'])
    },
  })

  const spec = { summary: { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 }, scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' }, checks: [], server: { nonce: 'valid' } }
  const old = {
    // A spec body with a live nonce and the client's verdict, as 45b8db6 stored it.
    attack: { ...spec, verified: true, verdict: 'human' },
    // The same with its nonce alone, and without one but with frameworks the client wrote.
    nonceOnly: { ...spec, verified: true },
    frameworksOnly: { ...spec, verified: false, server: { nonce: 'missing' }, frameworks: ['none'] },
    // Untouched: a spec body that claimed nothing, and the page's body (the service's verdict).
    plain: { ...spec, verified: false, server: { nonce: 'missing' } },
    page: { signals: {}, checks: [], summary: spec.summary, verified: true, verdict: 'bot', frameworks: ['headless'] },
  }
  const ids = Object.fromEntries(Object.keys(old).map((k, i) => [k, `00000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`]))
  migrationTest(driver, '0012_spec_tasks_client_scored', 'old spec-shaped bot-detector tasks no longer claim to be verified or carry the client’s verdict; nothing else changes', {
    async before(d) {
      for (const [k, results] of Object.entries(old)) {
        await d.db.execute(sql`insert into tasks (id, tool, score, ip_address, user_agent, results, created_at) values (${ids[k]!}::uuid, 'bot-detector', 100, '203.0.113.5', 'ua', ${JSON.stringify(results)}::jsonb, now())`)
      }
    },
    async after(d) {
      const got = Object.fromEntries((await rows<{ id: string; results: string }>(d.db, sql`select id::text, results::text from tasks`)).map((r) => [r.id, JSON.parse(r.results) as Record<string, unknown>]))
      const unverified = { code: 'client-scored', reason: UNVERIFIED_REASONS['client-scored'] }
      const { verdict: _v, ...attack } = old.attack
      const { frameworks: _f, ...frameworksOnly } = old.frameworksOnly
      expect(got[ids.attack!]).toEqual({ ...attack, verified: false, unverified, dropped: ['verdict'] })
      expect(got[ids.nonceOnly!]).toEqual({ ...old.nonceOnly, verified: false, unverified })
      expect(got[ids.frameworksOnly!]).toEqual({ ...frameworksOnly, verified: false, unverified, dropped: ['frameworks'] })
      expect(got[ids.plain!]).toEqual(old.plain)
      expect(got[ids.page!]).toEqual(old.page)
    },
  })

  migrationTest(driver, '0016_account_allowance_and_self_serve', 'an account’s counts so far become its allowance on each plan; only free stays self-serve', {
    async before(d) {
      await d.db.execute(sql`insert into accounts (id, email) values ('00000000-0000-4000-8000-0000000000a1', 'u1@example.test'), ('00000000-0000-4000-8000-0000000000a2', 'u2@example.test')`)
      await d.db.execute(sql`insert into plans (name, monthly_limit, self_serve) values ('team', 10, true), ('hidden', 10, false)`)
      const key = (id: string, account: string, plan: string) =>
        d.db.execute(sql`insert into api_keys (id, account_id, plan_id, name, prefix, last4, key_hash)
          values (${id}::uuid, ${account}::uuid, (select id from plans where name = ${plan}), ${id}, 'ab_x', 'xxxx', ${id})`)
      await key('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000a1', 'free')
      await key('00000000-0000-4000-8000-0000000000b2', '00000000-0000-4000-8000-0000000000a1', 'free')
      await key('00000000-0000-4000-8000-0000000000b3', '00000000-0000-4000-8000-0000000000a1', 'pro')
      await key('00000000-0000-4000-8000-0000000000b4', '00000000-0000-4000-8000-0000000000a2', 'free')
      const usage = (key: string, month: string, count: number) =>
        d.db.execute(sql`insert into key_usage (key_id, month, count, daily) values (${key}::uuid, ${month}::date, ${count}, array_fill(0, array[31]))`)
      await usage('00000000-0000-4000-8000-0000000000b1', '2026-11-01', 3)
      await usage('00000000-0000-4000-8000-0000000000b2', '2026-11-01', 4)
      await usage('00000000-0000-4000-8000-0000000000b2', '2026-10-01', 9)
      await usage('00000000-0000-4000-8000-0000000000b3', '2026-11-01', 5)
      await usage('00000000-0000-4000-8000-0000000000b4', '2026-11-01', 1)
    },
    async after(d) {
      const found = await rows<{ email: string; plan: string; month: string; count: number }>(
        d.db,
        sql`select a.email, p.name as plan, to_char(u.month, 'YYYY-MM') as month, u.count::int as count
            from plan_usage u join accounts a on a.id = u.account_id join plans p on p.id = u.plan_id
            order by a.email, p.name, u.month`,
      )
      expect(found).toEqual([
        { email: 'u1@example.test', plan: 'free', month: '2026-10', count: 9 },
        { email: 'u1@example.test', plan: 'free', month: '2026-11', count: 7 },
        { email: 'u1@example.test', plan: 'pro', month: '2026-11', count: 5 },
        { email: 'u2@example.test', plan: 'free', month: '2026-11', count: 1 },
      ])
      // The keys keep their own counts (the dashboard's per-key figures).
      expect((await rows<{ n: number }>(d.db, sql`select sum(count)::int as n from key_usage`))[0]!.n).toBe(22)
      const plans = await rows<{ name: string; self_serve: boolean }>(d.db, sql`select name, self_serve from plans order by name`)
      expect(plans).toEqual([
        { name: 'business', self_serve: false },
        { name: 'free', self_serve: true },
        { name: 'hidden', self_serve: false },
        { name: 'pro', self_serve: false },
        { name: 'team', self_serve: true },
      ])
    },
  })

  // Results large enough to be compressed (past PostgreSQL's 2 KB threshold), and varied.
  const bigResults = (seed: string) => JSON.stringify({ checks: Array.from({ length: 60 }, (_, i) => ({ id: `${seed}-check-${i}`, ok: i % 3 !== 0, note: `finding ${i} of ${seed}` })) })
  const storeTask = (d: TestDatabase, id: string, results: string) =>
    d.db.execute(sql`insert into tasks (id, tool, score, ip_address, user_agent, results, created_at) values (${id}::uuid, 'bot-detector', 90, '198.51.100.9', 'UA', ${results}::jsonb, now())`)
  migrationTest(driver, '0019_results_lz4', 'new results are compressed with LZ4 where the server has it (PostgreSQL), with pglz on PGlite; results stored before read back as they were', {
    async before(d) {
      await storeTask(d, '00000000-0000-4000-8000-00000000c001', bigResults('before'))
    },
    async after(d) {
      await storeTask(d, '00000000-0000-4000-8000-00000000c002', bigResults('after'))
      const found = await rows<{ id: string; same: boolean; method: string | null }>(
        d.db,
        sql`select id::text, results = (case when id = '00000000-0000-4000-8000-00000000c001' then ${bigResults('before')} else ${bigResults('after')} end)::jsonb as same,
                   pg_column_compression(results) as method
            from tasks order by id`,
      )
      const lz4 = (await rows<{ has: boolean }>(d.db, sql`select 'lz4' = any(enumvals) as has from pg_settings where name = 'default_toast_compression'`))[0]!.has
      expect(lz4).toBe(driver === 'postgres')
      expect(found).toEqual([
        { id: '00000000-0000-4000-8000-00000000c001', same: true, method: 'pglz' },
        { id: '00000000-0000-4000-8000-00000000c002', same: true, method: lz4 ? 'lz4' : 'pglz' },
      ])
    },
  })
}

// The contract every query function in db/ keeps, run against each driver (PGlite always,
// PostgreSQL when TEST_DATABASE_URL is set). Each test asserts literal expected values, and
// the last test checks that both drivers produced the very same transcript.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openTestDatabase, testDrivers, type DriverName, type TestDatabase } from '../tests/support/db'
import { ensureAccount, getAccountByEmail } from './accounts'
import { sql } from 'drizzle-orm'
import { ping, rows, type Db } from './client'
import { fetchTaskWithKey } from './fetch'
import { getKey, getMonthUsage, insertKey, updateKey } from './keys'
import { getPlanByName, listPlans, upsertPlan } from './plans'
import { insertTaskUsingNonce, issueNonce } from './nonces'
import { countFingerprintSeen, countTasks, getTask, insertTask, taskJson } from './tasks'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0

const transcripts = new Map<DriverName, unknown[]>()

/** Ids and timestamps differ per run; everything else must be the same on every driver. */
function record(driver: DriverName, label: string, value: unknown) {
  const list = transcripts.get(driver) ?? []
  list.push([label, value])
  transcripts.set(driver, list)
}

const NESTED_RESULTS = {
  summary: { total: 3, passed: 2, failed: 1, warnings: 0, score: 40 },
  deep: { a: { b: { c: { d: [1, [2, [3, { e: null }]]] } } } },
  unicode: { emoji: '😀🇩🇪', cjk: '漢字', rtl: 'مرحبا', combining: 'é', escapes: 'quote " backslash \\ nl \n tab \t ctl \u001f', key: { 'ключ ü': 'ß' } },
  numbers: { maxSafe: 9007199254740991, minSafe: -9007199254740991, big: 12345678901234567000, float: 0.1, tiny: 5e-324, exp: 1e21, neg: -0.5, zero: 0 },
  empty: { obj: {}, arr: [], str: '' },
  flags: [true, false, null],
}

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`

describe.each(testDrivers())('db contract on %s', (driver) => {
  let tdb: TestDatabase
  let db: Db

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    db = tdb.db
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  test('ping answers', async () => {
    await ping(db)
  })

  describe('plans', () => {
    test('the seeded plans are listed by limit', async () => {
      const plans = await listPlans(db)
      expect(plans.map((p) => [p.name, p.monthlyLimit])).toEqual([
        ['free', 1000],
        ['pro', 50000],
        ['business', 1000000],
      ])
      record(driver, 'seeded plans', plans.map((p) => [p.name, p.monthlyLimit]))
    })

    test('getPlanByName finds a plan by exact name and gives null otherwise', async () => {
      expect(await getPlanByName(db, 'pro')).toMatchObject({ name: 'pro', monthlyLimit: 50000 })
      expect(await getPlanByName(db, 'PRO')).toBeNull()
      expect(await getPlanByName(db, 'nope')).toBeNull()
    })

    test('upsertPlan creates a plan, then changes the limit of the same plan', async () => {
      const created = await upsertPlan(db, { name: 'contract-plan', monthlyLimit: 7 })
      expect(created).toMatchObject({ name: 'contract-plan', monthlyLimit: 7 })
      expect(typeof created.id).toBe('number')
      const updated = await upsertPlan(db, { name: 'contract-plan', monthlyLimit: 9 })
      expect(updated).toEqual({ id: created.id, name: 'contract-plan', monthlyLimit: 9, selfServe: false })
      expect(await getPlanByName(db, 'contract-plan')).toEqual(updated)
      record(driver, 'upsert plan', [created.name, created.monthlyLimit, updated.monthlyLimit])
    })

    test('a negative limit is refused by the database', async () => {
      await expect(upsertPlan(db, { name: 'negative', monthlyLimit: -1 })).rejects.toThrow()
      expect(await getPlanByName(db, 'negative')).toBeNull()
    })
  })

  describe('accounts', () => {
    test('ensureAccount creates an account once, matching emails case-insensitively', async () => {
      const a = await ensureAccount(db, '  Alice@Example.TEST ')
      expect(a.email).toBe('alice@example.test')
      const again = await ensureAccount(db, 'alice@example.test')
      expect(again).toEqual(a)
      expect(await getAccountByEmail(db, 'ALICE@example.test')).toEqual(a)
      expect(await getAccountByEmail(db, 'bob@example.test')).toBeNull()
      record(driver, 'account', a.email)
    })
  })

  describe('keys', () => {
    test('insertKey and getKey round-trip a key with its plan, account and defaults', async () => {
      const account = await ensureAccount(db, 'keys@example.test')
      const plan = (await getPlanByName(db, 'free'))!
      const id = await insertKey(db, { accountId: account.id, planId: plan.id, name: 'ci', keyHash: 'h'.repeat(64), prefix: 'ab_Abcd', last4: 'wxyz' })
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      const key = await getKey(db, id)
      expect(key).toEqual({
        id,
        accountId: account.id,
        email: 'keys@example.test',
        name: 'ci',
        prefix: 'ab_Abcd',
        last4: 'wxyz',
        plan: 'free',
        monthlyLimit: 1000,
        status: 'active',
        expiresAt: null,
        createdAt: expect.any(Date),
      })
      record(driver, 'key', { ...key, id: '-', accountId: '-', createdAt: '-' })
    })

    test('getKey gives null for an unknown id', async () => {
      expect(await getKey(db, uuid(999))).toBeNull()
    })

    test('a key hash can be stored only once', async () => {
      const account = await ensureAccount(db, 'dup@example.test')
      const plan = (await getPlanByName(db, 'free'))!
      const row = { accountId: account.id, planId: plan.id, name: 'x', keyHash: 'd'.repeat(64), prefix: 'ab_x', last4: 'xxxx' }
      await insertKey(db, row)
      await expect(insertKey(db, row)).rejects.toThrow()
    })

    test('updateKey changes status, expiry and plan, and reports a missing key', async () => {
      const account = await ensureAccount(db, 'update@example.test')
      const free = (await getPlanByName(db, 'free'))!
      const pro = (await getPlanByName(db, 'pro'))!
      const id = await insertKey(db, { accountId: account.id, planId: free.id, name: 'u', keyHash: 'u'.repeat(64), prefix: 'ab_u', last4: 'uuuu' })
      const expiry = new Date('2027-03-04T05:06:07.089Z')
      expect(await updateKey(db, id, { status: 'inactive', expiresAt: expiry, planId: pro.id })).toBe(true)
      expect(await getKey(db, id)).toMatchObject({ status: 'inactive', expiresAt: expiry, plan: 'pro', monthlyLimit: 50000 })
      expect(await updateKey(db, id, { expiresAt: null, status: 'active' })).toBe(true)
      expect(await getKey(db, id)).toMatchObject({ status: 'active', expiresAt: null, plan: 'pro' })
      expect(await updateKey(db, id, {})).toBe(true)
      expect(await updateKey(db, uuid(998), { status: 'inactive' })).toBe(false)
      expect(await updateKey(db, uuid(998), {})).toBe(false)
    })
  })

  describe('tasks', () => {
    test('insertTask and getTask round-trip every field; results as jsonb text', async () => {
      const before = await countTasks(db)
      await insertTask(db, {
        id: uuid(1),
        tool: 'bot-detector',
        score: 40,
        ipAddress: '2001:db8::1',
        userAgent: 'Mozilla/5.0 “quoted” ü',
        results: NESTED_RESULTS,
        createdAt: new Date('2026-01-02T03:04:05.999Z'),
      })
      expect(await countTasks(db)).toBe(before + 1)
      const t = (await getTask(db, uuid(1)))!
      expect(t).toEqual({
        task_id: uuid(1),
        tool: 'bot-detector',
        score: 40,
        ip_address: '2001:db8::1',
        user_agent: 'Mozilla/5.0 “quoted” ü',
        results: expect.any(String),
        created_at: '2026-01-02T03:04:05+00:00',
      })
      expect(JSON.parse(t.results)).toEqual(NESTED_RESULTS)
      record(driver, 'task', t)
    })

    test('large and exotic numbers come back as the same JavaScript numbers', async () => {
      const t = (await getTask(db, uuid(1)))!
      const n = (JSON.parse(t.results) as typeof NESTED_RESULTS).numbers
      expect(n.maxSafe).toBe(Number.MAX_SAFE_INTEGER)
      expect(n.big).toBe(12345678901234567000)
      expect(n.tiny).toBe(5e-324)
      expect(n.exp).toBe(1e21)
    })

    test('taskJson gives exactly the seven Task fields as valid JSON', async () => {
      const t = (await getTask(db, uuid(1)))!
      const parsed = JSON.parse(taskJson(t)) as Record<string, unknown>
      expect(Object.keys(parsed)).toEqual(['task_id', 'tool', 'score', 'ip_address', 'user_agent', 'results', 'created_at'])
      expect(parsed).toEqual({ ...t, results: NESTED_RESULTS })
    })

    test('created_at is written in UTC whatever the instant, midnight and year ends included', async () => {
      const cases: Array<[number, string, string]> = [
        [2, '2026-12-31T23:59:59.999Z', '2026-12-31T23:59:59+00:00'],
        [3, '2027-01-01T00:00:00.000Z', '2027-01-01T00:00:00+00:00'],
        [4, '2028-02-29T12:00:00.500Z', '2028-02-29T12:00:00+00:00'],
      ]
      for (const [n, iso, expected] of cases) {
        await insertTask(db, { id: uuid(n), tool: 'ip-leak', score: 0, ipAddress: 'unknown', userAgent: '', results: {}, createdAt: new Date(iso) })
        expect((await getTask(db, uuid(n)))!.created_at).toBe(expected)
      }
    })

    test('getTask gives null for an unknown id', async () => {
      expect(await getTask(db, uuid(404))).toBeNull()
    })

    test('a task id is stored only once', async () => {
      const before = await countTasks(db)
      await expect(
        insertTask(db, { id: uuid(1), tool: 'ip-leak', score: 1, ipAddress: 'x', userAgent: 'y', results: {}, createdAt: new Date() }),
      ).rejects.toThrow()
      expect(await countTasks(db)).toBe(before)
    })

    test('a score outside 0..100 is refused by the database', async () => {
      const before = await countTasks(db)
      await expect(
        insertTask(db, { id: uuid(50), tool: 'ip-leak', score: 101, ipAddress: 'x', userAgent: 'y', results: {}, createdAt: new Date() }),
      ).rejects.toThrow()
      expect(await countTasks(db)).toBe(before)
    })
  })

  describe('fetchTaskWithKey and getMonthUsage', () => {
    const NOW = new Date('2026-11-15T12:00:00Z')
    let free: number

    async function key(opts: { hash: string; limit?: number; status?: 'active' | 'inactive'; expiresAt?: Date | null }) {
      const account = await ensureAccount(db, `fetch-${opts.hash}@example.test`)
      const planId = opts.limit === undefined ? free : (await upsertPlan(db, { name: `fetch-${opts.limit}`, monthlyLimit: opts.limit })).id
      return insertKey(db, {
        accountId: account.id,
        planId,
        name: 'f',
        keyHash: opts.hash,
        prefix: 'ab_f',
        last4: 'ffff',
        status: opts.status ?? 'active',
        expiresAt: opts.expiresAt ?? null,
      })
    }

    beforeAll(async () => {
      free = (await getPlanByName(db, 'free'))!.id
      await insertTask(db, { id: uuid(100), tool: 'bot-detector', score: 77, ipAddress: '198.51.100.7', userAgent: 'UA', results: { summary: { score: 77 } }, createdAt: new Date('2026-11-01T00:00:00Z') })
    }, HOOK_TIMEOUT_MS)

    test('an unknown key observes nothing and counts nothing', async () => {
      expect(await fetchTaskWithKey(db, { keyHash: 'nope', taskId: uuid(100), now: NOW })).toEqual({ key: null, task: null, usedAfter: null })
    })

    test('a usable key and an existing task: the task, and the count goes up by one', async () => {
      const id = await key({ hash: 'fetch-ok', limit: 3 })
      const first = await fetchTaskWithKey(db, { keyHash: 'fetch-ok', taskId: uuid(100), now: NOW })
      expect(first).toEqual({
        key: { id, status: 'active', expiresAt: null, monthlyLimit: 3, usedBefore: 0, missesBlockedUntil: null },
        task: { task_id: uuid(100), tool: 'bot-detector', score: 77, ip_address: '198.51.100.7', user_agent: 'UA', results: '{"summary": {"score": 77}}', results_size: expect.any(Number), created_at: '2026-11-01T00:00:00+00:00' },
        usedAfter: 1,
      })
      // Told that the caller keeps the body: the same task without its results, still counted.
      const omitted = await fetchTaskWithKey(db, { keyHash: 'fetch-ok', taskId: uuid(100), now: NOW, omitResults: true })
      expect(omitted.task).toEqual({ ...first.task!, results: null })
      expect(omitted.usedAfter).toBe(2)
      expect(first.task!.results_size).toBeGreaterThan(0)
      const second = await fetchTaskWithKey(db, { keyHash: 'fetch-ok', taskId: uuid(100), now: NOW })
      expect(second.key?.usedBefore).toBe(2)
      expect(second.usedAfter).toBe(3)
      record(driver, 'fetch ok', [{ ...first, key: { ...first.key, id: '-' } }, second.usedAfter])
    })

    test('no increment once the limit is reached', async () => {
      await key({ hash: 'fetch-limit', limit: 1 })
      expect((await fetchTaskWithKey(db, { keyHash: 'fetch-limit', taskId: uuid(100), now: NOW })).usedAfter).toBe(1)
      const at = await fetchTaskWithKey(db, { keyHash: 'fetch-limit', taskId: uuid(100), now: NOW })
      expect(at.usedAfter).toBeNull()
      expect(at.key?.usedBefore).toBe(1)
      expect(at.task?.task_id).toBe(uuid(100))
    })

    test('no increment for a missing task or a task id that is not given', async () => {
      const id = await key({ hash: 'fetch-missing', limit: 5 })
      const missing = await fetchTaskWithKey(db, { keyHash: 'fetch-missing', taskId: uuid(404), now: NOW })
      expect(missing).toMatchObject({ task: null, usedAfter: null, key: { id, usedBefore: 0 } })
      const none = await fetchTaskWithKey(db, { keyHash: 'fetch-missing', taskId: null, now: NOW })
      expect(none).toMatchObject({ task: null, usedAfter: null, key: { id, usedBefore: 0 } })
      expect(await getMonthUsage(db, id, '2026-11-01')).toEqual({ count: 0, daily: [], lastUsedAt: null })
    })

    test('no increment for an inactive key, an expired key, or an expiry equal to now', async () => {
      const inactive = await key({ hash: 'fetch-inactive', status: 'inactive' })
      const expired = await key({ hash: 'fetch-expired', expiresAt: new Date('2026-11-15T11:59:59Z') })
      const expiringNow = await key({ hash: 'fetch-now', expiresAt: NOW })
      for (const [hash, id] of [['fetch-inactive', inactive], ['fetch-expired', expired], ['fetch-now', expiringNow]] as const) {
        const obs = await fetchTaskWithKey(db, { keyHash: hash, taskId: uuid(100), now: NOW })
        expect(obs.usedAfter).toBeNull()
        expect(obs.task?.task_id).toBe(uuid(100))
        expect((await getMonthUsage(db, id, '2026-11-01')).count).toBe(0)
      }
      const obs = await fetchTaskWithKey(db, { keyHash: 'fetch-now', taskId: uuid(100), now: NOW })
      expect(obs.key).toMatchObject({ status: 'active', expiresAt: NOW })
      expect((await fetchTaskWithKey(db, { keyHash: 'fetch-inactive', taskId: null, now: NOW })).key?.status).toBe('inactive')
    })

    test('a zero limit never counts', async () => {
      const id = await key({ hash: 'fetch-zero', limit: 0 })
      const obs = await fetchTaskWithKey(db, { keyHash: 'fetch-zero', taskId: uuid(100), now: NOW })
      expect(obs).toMatchObject({ usedAfter: null, key: { monthlyLimit: 0, usedBefore: 0 } })
      expect((await getMonthUsage(db, id, '2026-11-01')).count).toBe(0)
    })

    test('the daily counts land on the right day index, on the first and last day of a month', async () => {
      const id = await key({ hash: 'fetch-daily', limit: 100 })
      const at = (iso: string) => fetchTaskWithKey(db, { keyHash: 'fetch-daily', taskId: uuid(100), now: new Date(iso) })
      await at('2026-12-01T00:00:00Z')
      await at('2026-12-01T23:59:59Z')
      await at('2026-12-15T08:00:00Z')
      await at('2026-12-31T23:59:59Z')
      const usage = await getMonthUsage(db, id, '2026-12-01')
      const daily = Array<number>(31).fill(0)
      daily[0] = 2
      daily[14] = 1
      daily[30] = 1
      expect(usage).toEqual({ count: 4, daily, lastUsedAt: new Date('2026-12-31T23:59:59Z') })
      record(driver, 'december usage', usage)
    })

    test('the first fetch of a month may fall on its last day', async () => {
      const id = await key({ hash: 'fetch-lastday', limit: 100 })
      await fetchTaskWithKey(db, { keyHash: 'fetch-lastday', taskId: uuid(100), now: new Date('2028-02-29T10:00:00Z') })
      const usage = await getMonthUsage(db, id, '2028-02-01')
      expect(usage.count).toBe(1)
      expect(usage.daily.length).toBe(31)
      expect(usage.daily.indexOf(1)).toBe(28)
      expect(usage.daily.reduce((a, b) => a + b, 0)).toBe(1)
    })

    test('each UTC month has its own count: a new month starts from zero', async () => {
      const id = await key({ hash: 'fetch-months', limit: 1 })
      const at = (iso: string) => fetchTaskWithKey(db, { keyHash: 'fetch-months', taskId: uuid(100), now: new Date(iso) })
      expect((await at('2027-01-31T23:59:59Z')).usedAfter).toBe(1)
      expect((await at('2027-01-31T23:59:59Z')).usedAfter).toBeNull()
      const feb = await at('2027-02-01T00:00:00Z')
      expect(feb.usedAfter).toBe(1)
      expect(feb.key?.usedBefore).toBe(0)
      expect((await getMonthUsage(db, id, '2027-01-01')).count).toBe(1)
      expect((await getMonthUsage(db, id, '2027-02-01')).count).toBe(1)
    })

    test('a lowered plan limit stops counting at the old count', async () => {
      const account = await ensureAccount(db, 'fetch-lowered@example.test')
      const plan = await upsertPlan(db, { name: 'fetch-lowered', monthlyLimit: 5 })
      const id = await insertKey(db, { accountId: account.id, planId: plan.id, name: 'f', keyHash: 'fetch-lowered', prefix: 'ab_f', last4: 'ffff' })
      for (let i = 0; i < 3; i++) await fetchTaskWithKey(db, { keyHash: 'fetch-lowered', taskId: uuid(100), now: NOW })
      await upsertPlan(db, { name: 'fetch-lowered', monthlyLimit: 2 })
      const obs = await fetchTaskWithKey(db, { keyHash: 'fetch-lowered', taskId: uuid(100), now: NOW })
      expect(obs).toMatchObject({ usedAfter: null, key: { monthlyLimit: 2, usedBefore: 3 } })
      expect((await getMonthUsage(db, id, '2026-11-01')).count).toBe(3)
    })
  })

  describe('countFingerprintSeen', () => {
    const NOW = new Date('2026-11-15T12:00:00Z')
    const at = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000)
    const FP = 'c0ffee0000000001'
    const BF = 'browser-fingerprint'
    const count = (over: Partial<Parameters<typeof countFingerprintSeen>[1]> = {}) =>
      countFingerprintSeen(db, { tool: BF, fingerprint: FP, excludeIp: '192.0.2.1', now: NOW, windowDays: 90, cap: 1000, ...over })
    const storedFingerprint = async (id: string) =>
      (await rows<{ fingerprint: string | null }>(db, sql`select fingerprint from tasks where id = ${id}::uuid`))[0]?.fingerprint

    beforeAll(async () => {
      const task = (n: number, ipAddress: string, hours: number, over: { tool?: string; fingerprint?: string | null } = {}) =>
        insertTask(db, { id: uuid(n), tool: over.tool ?? BF, score: 90, ipAddress, userAgent: 'UA', results: {}, createdAt: at(hours), fingerprint: over.fingerprint === undefined ? FP : over.fingerprint })
      await task(200, '192.0.2.1', -24)
      await task(201, '192.0.2.1', -48)
      await task(202, '198.51.100.2', -72)
      await task(203, '2001:db8::3', -89 * 24)
      await task(204, '198.51.100.4', -91 * 24) // outside 90 days
      await task(205, '198.51.100.5', 1) // after now
      await task(206, '198.51.100.6', -1, { tool: 'canvas-fingerprint' })
      await task(207, '198.51.100.7', -1, { fingerprint: 'c0ffee0000000002' })
      await task(208, '198.51.100.8', -1, { fingerprint: null })
    }, HOOK_TIMEOUT_MS)

    test('insertTask stores the fingerprint, null when none is given', async () => {
      expect(await storedFingerprint(uuid(200))).toBe(FP)
      expect(await storedFingerprint(uuid(208))).toBeNull()
      await insertTask(db, { id: uuid(209), tool: 'ip-leak', score: 1, ipAddress: 'x', userAgent: 'y', results: {}, createdAt: NOW })
      expect(await storedFingerprint(uuid(209))).toBeNull()
    })

    test('counts the tool’s tasks with the fingerprint in the window up to now, and their other addresses', async () => {
      const r = await count()
      expect(r).toEqual({ tasks: 4, addresses: 2 })
      expect(await count({ excludeIp: '198.51.100.2' })).toEqual({ tasks: 4, addresses: 2 })
      expect(await count({ excludeIp: '203.0.113.99' })).toEqual({ tasks: 4, addresses: 3 })
      record(driver, 'fingerprint seen', r)
    })

    test('an unknown fingerprint, or another tool’s, is seen nowhere', async () => {
      expect(await count({ fingerprint: 'ffffffffffffffff' })).toEqual({ tasks: 0, addresses: 0 })
      expect(await count({ tool: 'audio-fingerprint' })).toEqual({ tasks: 0, addresses: 0 })
    })

    test('is bounded by the window and by the cap, addresses counted one by one, not among the newest tasks', async () => {
      expect(await count({ windowDays: 2 })).toEqual({ tasks: 1, addresses: 0 })
      expect(await count({ windowDays: 3, excludeIp: 'none' })).toEqual({ tasks: 2, addresses: 1 })
      expect(await count({ cap: 2, excludeIp: '198.51.100.2' })).toEqual({ tasks: 2, addresses: 1 })
      // The three newest tasks hold two addresses (192.0.2.1 twice): the count still finds the
      // three addresses of the window, the submitter's own left out (issue 57).
      expect(await count({ cap: 3 })).toEqual({ tasks: 3, addresses: 2 })
    })

    test('insertTaskUsingNonce stores the fingerprint; asOfNonce counts as that submission saw it', async () => {
      const nonce = 'contractfingerprintnonce22'
      await issueNonce(db, { nonce, tool: BF, turnSecret: 's', now: at(-0.5), ttlSeconds: 3600 })
      const own = { id: uuid(210), tool: BF, score: 90, ipAddress: '203.0.113.10', userAgent: 'UA', results: {}, createdAt: at(-0.25), fingerprint: FP }
      expect(await insertTaskUsingNonce(db, own, nonce)).toBe(true)
      expect(await storedFingerprint(uuid(210))).toBe(FP)
      // Stored after the nonce's task: the report must not count it.
      await insertTask(db, { ...own, id: uuid(211), ipAddress: '203.0.113.11', createdAt: at(-0.1) })
      const after = await count({ excludeIp: '203.0.113.10' })
      const asOf = await count({ excludeIp: '203.0.113.10', asOfNonce: nonce })
      expect(after).toEqual({ tasks: 6, addresses: 4 })
      expect(asOf).toEqual({ tasks: 4, addresses: 3 })
      expect(await count({ excludeIp: '203.0.113.10', asOfNonce: 'unknownnonceunknownnonce22' })).toEqual(after)
      record(driver, 'fingerprint seen as of a nonce', [after, asOf])
    })
  })
})

describe('db contract across drivers', () => {
  test.if(testDrivers().length > 1)('every driver produced the same transcript', () => {
    const [a, b] = testDrivers().map((d) => transcripts.get(d))
    expect(a?.length).toBeGreaterThan(0)
    expect(b).toEqual(a!)
  })
})

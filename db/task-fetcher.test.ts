// taskFetcher (db/fetch.ts), on each driver: keyed fetches made while another runs are answered
// by one statement with the very outcomes fetchTaskWithKey gives them one by one — for every
// kind of key (usable, at or over its limit, near it with and without a usage row, inactive, expired, with no units, shut out
// by misses, unknown) and task (existing, missing, no id) — and the same counts; fetches of
// another UTC day wait for a group of their own; and under concurrency, from two fetchers as
// from two instances, a key's limit is counted exactly.

import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { testDrivers } from '../tests/support/db'
import { HOOK_TIMEOUT_MS, useTestDatabase } from '../tests/support/db-suite'
import { ensureAccount } from './accounts'
import { openPostgres, type Db } from './client'
import { fetchTaskWithKey, runsOf, taskFetcher, type FetchArgs } from './fetch'
import { getMonthUsage, insertKey } from './keys'
import { upsertPlan } from './plans'
import { insertTask } from './tasks'
import type { TestDatabase } from '../tests/support/db'

const NOW = new Date('2026-11-15T12:00:00Z')
const TASK = '00000000-0000-4000-8000-00000000aaaa'
const MISSING = '00000000-0000-4000-8000-00000000bbbb'

/** The kinds of key the outcomes depend on; each twin (a, b) gets its own copy. */
const KINDS = {
  ok: { limit: 1000 },
  tight: { limit: 3 },
  roomy: { limit: 12 },
  // Their state changes 5 ms after NOW: within a run of requests made over 10 ms.
  expiresSoon: { limit: 1000, expiresAt: new Date(NOW.getTime() + 5) },
  unblocksSoon: { limit: 1000, blockedUntil: new Date(NOW.getTime() + 5) },
  near: { limit: 5, used: 3 },
  over: { limit: 2, used: 3 },
  full: { limit: 4, used: 4 },
  inactive: { limit: 1000, status: 'inactive' as const },
  expired: { limit: 1000, expiresAt: new Date(NOW.getTime() - 1000) },
  expiringNow: { limit: 1000, expiresAt: NOW },
  zero: { limit: 0 },
  blocked: { limit: 1000, blockedUntil: new Date(NOW.getTime() + 60_000) },
  unblocked: { limit: 1000, blockedUntil: NOW },
}
type Kind = keyof typeof KINDS

describe.each(testDrivers())('taskFetcher on %s', (driver) => {
  let db: Db
  let tdb: TestDatabase
  useTestDatabase(driver, (t) => {
    tdb = t
    db = t.db
  })
  const ids = new Map<string, string>()
  const keyIds = new Map<string, string>()
  const hash = (twin: string, kind: string) => `fetcher-${twin}-${kind}`

  beforeAll(async () => {
    await insertTask(db, { id: TASK, tool: 'bot-detector', score: 77, ipAddress: '198.51.100.7', userAgent: 'UA', results: { summary: { score: 77 } }, createdAt: new Date('2026-11-01T00:00:00Z') })
    for (const twin of ['a', 'b', 'c', 'd']) {
      for (const [kind, k] of Object.entries(KINDS) as Array<[Kind, (typeof KINDS)[Kind]]>) {
        // An account per key: an account's keys on one plan share its allowance (plan_usage).
        const account = await ensureAccount(db, `fetcher-${twin}-${kind}@example.test`)
        const plan = await upsertPlan(db, { name: `fetcher-${k.limit}`, monthlyLimit: k.limit })
        const id = await insertKey(db, {
          accountId: account.id,
          planId: plan.id,
          name: kind,
          keyHash: hash(twin, kind),
          prefix: 'ab_f',
          last4: 'ffff',
          status: 'status' in k ? k.status : 'active',
          expiresAt: 'expiresAt' in k ? k.expiresAt : null,
        })
        ids.set(id, kind)
        keyIds.set(hash(twin, kind), id)
        if ('used' in k) {
          await db.execute(sql`insert into key_usage (key_id, month, count, daily, last_used_at) values (${id}::uuid, '2026-11-01', ${k.used}, array_fill(0, array[31]), ${NOW.toISOString()}::timestamptz)`)
          await db.execute(sql`insert into plan_usage (account_id, plan_id, month, count) values (${account.id}::uuid, ${plan.id}, '2026-11-01', ${k.used})`)
        }
        if ('blockedUntil' in k) await db.execute(sql`update api_keys set misses_blocked_until = ${k.blockedUntil.toISOString()}::timestamptz where id = ${id}::uuid`)
      }
    }
  }, HOOK_TIMEOUT_MS)

  /** Every kind of key with every kind of task id, several times over, interleaved. */
  const requests = (twin: string): FetchArgs[] => {
    const list: FetchArgs[] = []
    for (let round = 0; round < 5; round++) {
      for (const kind of [...Object.keys(KINDS), 'unknown']) {
        // Every other round as from an instance that keeps the task's body (results left out).
        for (const taskId of round === 2 ? [MISSING, null, TASK] : [TASK]) list.push({ keyHash: hash(twin, kind), taskId, now: NOW, omitResults: round % 2 === 1 })
      }
    }
    return list
  }
  /** Key ids differ between the twins; the kind stands for them. */
  const named = (o: Awaited<ReturnType<typeof fetchTaskWithKey>>) => (o.key ? { ...o, key: { ...o.key, id: ids.get(o.key.id) } } : o)

  test('a group answers each fetch as fetchTaskWithKey does one by one, and counts the same', async () => {
    const groups: number[] = []
    const fetcher = taskFetcher(db, { maxInFlight: 1, onGroup: (size) => groups.push(size) })
    const grouped = await Promise.all(requests('a').map((r) => fetcher(r)))
    const oneByOne = []
    for (const r of requests('b')) oneByOne.push(await fetchTaskWithKey(db, r))
    // The first alone, then everything that waited for it (up to 64 at a time).
    expect(groups[0]).toBe(1)
    expect(groups.length).toBeGreaterThan(1)
    expect(groups.slice(1).every((g) => g > 1)).toBe(true)
    expect(grouped.map(named)).toEqual(oneByOne.map(named))
    // Both kinds of answer were compared: with the results, and without them.
    expect(grouped.some((o) => o.task?.results === null)).toBe(true)
    expect(grouped.some((o) => typeof o.task?.results === 'string')).toBe(true)
    // The cases the comparison rests on did happen: counted fetches, the last units of a tight
    // key (a group that does not fit falls back to one by one), and refusals.
    const used = (kind: string) => grouped.filter((_o, i) => requests('a')[i]!.keyHash === hash('a', kind)).map((o) => o.usedAfter)
    expect(used('ok').filter((u) => u !== null)).toEqual([1, 2, 3, 4, 5])
    // tight's third round asks for a missing task and no id before the existing one.
    expect(used('tight')).toEqual([1, 2, null, null, 3, null, null])
    expect(used('near')).toEqual([4, 5, null, null, null, null, null])
    for (const kind of ['over', 'full', 'inactive', 'expired', 'expiringNow', 'zero', 'blocked']) expect(used(kind).every((u) => u === null)).toBe(true)
    expect(used('unblocked').filter((u) => u !== null)).toEqual([1, 2, 3, 4, 5])
    for (const kind of Object.keys(KINDS)) {
      const [a, b] = await Promise.all(['a', 'b'].map((twin) => getMonthUsage(db, keyIds.get(hash(twin, kind))!, '2026-11-01')))
      expect({ kind, count: a!.count, daily: a!.daily }).toEqual({ kind, count: b!.count, daily: b!.daily })
    }
  })

  test('alike fetches one after another are read once and counted as one by one, a run past the limit included', async () => {
    // After the test above: roomy has 7 of its 12 units left, tight and near none.
    const alike = (twin: string): FetchArgs[] => {
      const list: FetchArgs[] = []
      for (const [kind, taskId, times] of [['ok', TASK, 4], ['roomy', TASK, 4], ['ok', TASK, 2], ['roomy', TASK, 5], ['tight', TASK, 3], ['inactive', TASK, 3], ['unknown', TASK, 2], ['ok', MISSING, 3], ['ok', null, 2]] as const) {
        for (let i = 0; i < times; i++) list.push({ keyHash: hash(twin, kind), taskId, now: NOW, omitResults: true })
      }
      // Runs over 10 ms, across the 5th, where these keys expire or come out of their block;
      // then ok's over the same 10 ms, which all count.
      for (const kind of ['expiresSoon', 'unblocksSoon', 'ok']) {
        for (let ms = 0; ms < 10; ms++) list.push({ keyHash: hash(twin, kind), taskId: TASK, now: new Date(NOW.getTime() + ms), omitResults: true })
      }
      return list
    }
    const groups: number[] = []
    const fetcher = taskFetcher(db, { maxInFlight: 1, onGroup: (size) => groups.push(size) })
    const grouped = await Promise.all(alike('a').map((r) => fetcher(r)))
    const oneByOne = []
    for (const r of alike('b')) oneByOne.push(await fetchTaskWithKey(db, r))
    expect(groups).toEqual([1, alike('a').length - 1])
    expect(grouped.map(named)).toEqual(oneByOne.map(named))
    const used = (kind: string) => grouped.filter((_o, i) => alike('a')[i]!.keyHash === hash('a', kind)).map((o) => o.usedAfter)
    expect(used('ok').slice(0, 6)).toEqual([6, 7, 8, 9, 10, 11])
    expect(used('ok').slice(-10)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, 21])
    // The first test counted 5 through each (unblocksSoon none: it was blocked at NOW).
    expect(used('expiresSoon')).toEqual([6, 7, 8, 9, 10, null, null, null, null, null])
    expect(used('unblocksSoon')).toEqual([null, null, null, null, null, 1, 2, 3, 4, 5])
    // Nine asked of seven units: the allowance falls back to one by one, which counts exactly seven.
    expect(used('roomy')).toEqual([6, 7, 8, 9, 10, 11, 12, null, null])
    expect(grouped.filter((o) => o.key?.usedBefore === 12 && ids.get(o.key.id) === 'roomy').length).toBe(2)
    for (const kind of ['ok', 'roomy', 'tight', 'expiresSoon', 'unblocksSoon']) {
      const [a, b] = await Promise.all(['a', 'b'].map((twin) => getMonthUsage(db, keyIds.get(hash(twin, kind))!, '2026-11-01')))
      expect({ kind, count: a!.count, daily: a!.daily }).toEqual({ kind, count: b!.count, daily: b!.daily })
    }
  })

  test('a group that is one run (FETCH_TASK_RUN) answers and counts as one by one, for every kind of key and task', async () => {
    // Twins c and d are fresh: each run on c is a group of its own (behind a fetch of an unknown
    // key, which counts nothing); d's are fetched one by one. Runs past the limit, at it, across
    // a key's expiry or the end of its block, and of missing tasks and no id.
    const runs: Array<[string, string | null, number, number]> = [['ok', TASK, 6, 0], ['roomy', TASK, 9, 0], ['roomy', TASK, 9, 0], ['roomy', TASK, 2, 0], ['tight', TASK, 4, 0], ['near', TASK, 2, 0], ['near', TASK, 3, 0], ['over', TASK, 3, 0], ['full', TASK, 2, 0], ['inactive', TASK, 3, 0], ['expired', TASK, 2, 0], ['zero', TASK, 2, 0], ['blocked', TASK, 2, 0], ['unblocked', TASK, 2, 0], ['unknown', TASK, 2, 0], ['ok', MISSING, 3, 0], ['ok', null, 2, 0], ['expiresSoon', TASK, 10, 1], ['unblocksSoon', TASK, 10, 1], ['ok', TASK, 10, 1]]
    const run = (twin: string, [kind, taskId, times, step]: (typeof runs)[number]): FetchArgs[] =>
      Array.from({ length: times }, (_v, i) => ({ keyHash: hash(twin, kind), taskId, now: new Date(NOW.getTime() + i * step), omitResults: true }))
    const groups: number[] = []
    const fetcher = taskFetcher(db, { maxInFlight: 1, onGroup: (size) => groups.push(size) })
    const grouped = []
    const oneByOne = []
    for (const spec of runs) {
      const [, ...answers] = await Promise.all([fetcher({ keyHash: hash('c', 'unknown'), taskId: TASK, now: NOW }), ...run('c', spec).map((r) => fetcher(r))])
      grouped.push(...answers)
      for (const r of run('d', spec)) oneByOne.push(await fetchTaskWithKey(db, r))
    }
    expect(groups).toEqual(runs.flatMap(([, , times]) => [1, times]))
    expect(grouped.map(named)).toEqual(oneByOne.map(named))
    // roomy: nine fit of twelve, then three of nine (one by one), then none.
    expect(grouped.filter((o) => o.key && ids.get(o.key.id) === 'roomy').map((o) => o.usedAfter)).toEqual([...Array.from({ length: 12 }, (_v, i) => i + 1), null, null, null, null, null, null, null, null])
    for (const kind of Object.keys(KINDS)) {
      const [c, d] = await Promise.all(['c', 'd'].map((twin) => getMonthUsage(db, keyIds.get(hash(twin, kind))!, '2026-11-01')))
      expect({ kind, count: c?.count, daily: c?.daily }).toEqual({ kind, count: d?.count, daily: d?.daily })
    }
  })

  test('runsOf: alike fetches (key, task and form, whatever their times) one after another make one run', () => {
    const at = (ms: number) => new Date(NOW.getTime() + ms)
    const f = (keyHash: string, taskId: string | null, ms = 0, omitResults?: boolean): FetchArgs => ({ keyHash, taskId, now: at(ms), omitResults })
    expect(runsOf([f('k', TASK), f('k', TASK), f('k', TASK, 0, false), f('k', TASK, 0, true), f('k', TASK, 1, true), f('j', TASK, 1, true), f('j', null, 1, true), f('j', null, 1, true), f('k', TASK)])).toEqual([
      { first: 0, m: 3 },
      { first: 3, m: 2 },
      { first: 5, m: 1 },
      { first: 6, m: 2 },
      { first: 8, m: 1 },
    ])
    expect(runsOf([])).toEqual([])
  })

  test('fetches of another UTC day wait for a group of their own', async () => {
    const groups: number[] = []
    const fetcher = taskFetcher(db, { maxInFlight: 1, onGroup: (size) => groups.push(size) })
    const tomorrow = new Date(NOW.getTime() + 86_400_000)
    const list = [NOW, NOW, tomorrow, NOW, tomorrow, NOW].map((now) => ({ keyHash: hash('a', 'ok'), taskId: TASK, now }))
    const out = await Promise.all(list.map((r) => fetcher(r)))
    // The first alone; then the three of its day that waited, then the two of the next day.
    expect(groups).toEqual([1, 3, 2])
    expect(out.every((o) => o.usedAfter !== null)).toBe(true)
  })

  test('two keys of one account on one plan share its allowance: concurrent grouped fetches through both, from two fetchers, count the limit exactly (issue 57)', async () => {
    const account = await ensureAccount(db, 'fetcher-shared@example.test')
    const plan = await upsertPlan(db, { name: 'fetcher-shared-30', monthlyLimit: 30 })
    const keyIds = await Promise.all(['x', 'y'].map((k) => insertKey(db, { accountId: account.id, planId: plan.id, name: k, keyHash: `fetcher-shared-${k}`, prefix: 'ab_s', last4: 'ssss' })))
    const other = driver === 'postgres' ? openPostgres(tdb.url!, { max: 4 }) : null
    try {
      const fetchers = [taskFetcher(db), taskFetcher(other?.db ?? db)]
      const out = await Promise.all(Array.from({ length: 120 }, (_, i) => fetchers[i % 2]!({ keyHash: `fetcher-shared-${(i >> 1) % 2 ? 'x' : 'y'}`, taskId: TASK, now: NOW })))
      const counted = out.map((o) => o.usedAfter).filter((u): u is number => u !== null)
      expect(counted.sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
      const own = await Promise.all(keyIds.map((id) => getMonthUsage(db, id, '2026-11-01')))
      expect(own[0]!.count + own[1]!.count).toBe(30)
      expect(own.every((u) => u.count > 0)).toBe(true)
    } finally {
      await other?.close()
    }
  })

  test('concurrent fetches from two fetchers (as from two instances) count a limit exactly', async () => {
    const account = await ensureAccount(db, 'fetcher-race@example.test')
    const plan = await upsertPlan(db, { name: 'fetcher-race-50', monthlyLimit: 50 })
    const keyId = await insertKey(db, { accountId: account.id, planId: plan.id, name: 'race', keyHash: 'fetcher-race', prefix: 'ab_r', last4: 'rrrr' })
    // On PostgreSQL the second fetcher has its own pool, as another instance would.
    const other = driver === 'postgres' ? openPostgres(tdb.url!, { max: 4 }) : null
    try {
      const fetchers = [taskFetcher(db), taskFetcher(other?.db ?? db)]
      const out = await Promise.all(Array.from({ length: 160 }, (_, i) => fetchers[i % 2]!({ keyHash: 'fetcher-race', taskId: TASK, now: NOW })))
      const counted = out.map((o) => o.usedAfter).filter((u): u is number => u !== null)
      expect(counted.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
      expect((await getMonthUsage(db, keyId, '2026-11-01')).count).toBe(50)
    } finally {
      await other?.close()
    }
  })
})

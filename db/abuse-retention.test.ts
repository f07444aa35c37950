// The abuse-limit windows, the miss block the keyed fetch reads, and the retention purge,
// on each driver (PGlite always, PostgreSQL when TEST_DATABASE_URL is set).

import { beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { testDrivers } from '../tests/support/db'
import { HOOK_TIMEOUT_MS, useTestDatabase } from '../tests/support/db-suite'
import { afterHit, type WindowState } from '../src/core/fixed-window'
import { decideFetch } from '../src/core/quota'
import { ensureAccount } from './accounts'
import { rows, type Db } from './client'
import { fetchTaskWithKey } from './fetch'
import { getMonthUsage, insertKey } from './keys'
import { getPlanByName } from './plans'
import { getWindow, hitWindow, recordMiss } from './rate-windows'
import { pruneWindows, purgeTaskBatch, purgeTasksBefore } from './retention'
import { countTasks, getTask, insertTask } from './tasks'

const T0 = new Date('2026-11-15T12:00:00Z')
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000)
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`

describe.each(testDrivers())('abuse windows and retention on %s', (driver) => {
  let db: Db
  useTestDatabase(driver, (t) => (db = t.db))

  describe('hitWindow', () => {
    const policy = { max: 3, windowSeconds: 60 }

    test('does what afterHit says, hit by hit, across a window boundary', async () => {
      let expected: WindowState | null = null
      for (const s of [0, 1, 30, 59.9, 60, 61, 200]) {
        expected = afterHit(policy, expected, at(s))
        expect(await hitWindow(db, { scope: 'task_create', subject: 'mirror', policy, now: at(s) })).toEqual(expected)
      }
      expect(await getWindow(db, { scope: 'task_create', subject: 'mirror' })).toEqual(expected)
    })

    test('scopes and subjects are counted apart', async () => {
      await hitWindow(db, { scope: 'task_create', subject: 'apart', policy, now: T0 })
      expect((await hitWindow(db, { scope: 'task_miss', subject: 'apart', policy, now: T0 })).count).toBe(1)
      expect((await hitWindow(db, { scope: 'task_create', subject: 'apart-2', policy, now: T0 })).count).toBe(1)
    })

    test('concurrent hits are each counted once', async () => {
      const results = await Promise.all(Array.from({ length: 40 }, () => hitWindow(db, { scope: 'task_create', subject: 'race', policy, now: T0 })))
      expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    })

    test('pruneWindows drops the windows that started before the cut-off', async () => {
      await hitWindow(db, { scope: 'task_create', subject: 'old', policy, now: new Date('2020-01-01T00:00:00Z') })
      await hitWindow(db, { scope: 'task_create', subject: 'new', policy, now: new Date('2030-01-01T00:00:00Z') })
      expect(await pruneWindows(db, new Date('2025-01-01T00:00:00Z'))).toBe(1)
      expect(await getWindow(db, { scope: 'task_create', subject: 'old' })).toBeNull()
      expect(await getWindow(db, { scope: 'task_create', subject: 'new' })).not.toBeNull()
    })
  })

  describe('the miss block read by fetchTaskWithKey', () => {
    const missPolicy = { max: 2, windowSeconds: 60 }
    let keyId: string

    beforeAll(async () => {
      const account = await ensureAccount(db, 'miss@example.test')
      const plan = (await getPlanByName(db, 'free'))!
      keyId = await insertKey(db, { accountId: account.id, planId: plan.id, name: 'm', keyHash: 'miss-key', prefix: 'ab_m', last4: 'mmmm' })
      await insertTask(db, { id: uuid(1), tool: 'bot-detector', score: 50, ipAddress: '198.51.100.7', userAgent: 'UA', results: {}, createdAt: T0 })
    }, HOOK_TIMEOUT_MS)

    const fetchAt = (seconds: number, taskId: string | null) => fetchTaskWithKey(db, { keyHash: 'miss-key', taskId, now: at(seconds) })

    test('a key under its misses is counted, and not blocked', async () => {
      expect(await recordMiss(db, { keyId, policy: missPolicy, now: at(0) })).toEqual({ count: 1, windowStartedAt: at(0) })
      const obs = await fetchAt(1, uuid(1))
      expect(obs.usedAfter).toBe(1)
      expect(obs.key?.missesBlockedUntil).toBeNull()
      expect(decideFetch(obs, at(1))).toMatchObject({ ok: true })
    })

    test('the miss that fills the window blocks the key until the window ends: not counted meanwhile, counted again after', async () => {
      expect(await recordMiss(db, { keyId, policy: missPolicy, now: at(2) })).toEqual({ count: 2, windowStartedAt: at(0) })
      const blocked = await fetchAt(3, uuid(1))
      expect(blocked.usedAfter).toBeNull()
      expect(blocked.task?.task_id).toBe(uuid(1))
      expect(blocked.key?.missesBlockedUntil).toEqual(at(60))
      expect(decideFetch(blocked, at(3))).toMatchObject({ ok: false, code: 'too_many_misses', retryAfterSeconds: 57 })
      expect((await getMonthUsage(db, keyId, '2026-11-01')).count).toBe(1)
      const later = await fetchAt(60, uuid(1))
      expect(later.usedAfter).toBe(2)
      expect(decideFetch(later, at(60))).toMatchObject({ ok: true })
    })

    test('a new window blocks again only when it fills, until its own end', async () => {
      expect(await recordMiss(db, { keyId, policy: missPolicy, now: at(61) })).toEqual({ count: 1, windowStartedAt: at(61) })
      expect((await fetchAt(62, uuid(1))).key?.missesBlockedUntil).toEqual(at(60))
      await recordMiss(db, { keyId, policy: missPolicy, now: at(70) })
      expect((await fetchAt(71, uuid(1))).key?.missesBlockedUntil).toEqual(at(121))
      expect((await fetchAt(71, uuid(1))).usedAfter).toBeNull()
    })
  })

  describe('retention purge', () => {
    async function seed(prefix: number, n: number, createdAt: Date) {
      for (let i = 0; i < n; i++) {
        await insertTask(db, { id: uuid(prefix + i), tool: 'bot-detector', score: 1, ipAddress: '192.0.2.1', userAgent: 'UA', results: {}, createdAt })
      }
    }

    test('deletes tasks created before the cut-off, in batches, and nothing newer', async () => {
      await db.execute(sql`delete from tasks`)
      await seed(0x1000, 25, new Date('2026-01-01T00:00:00Z'))
      await seed(0x2000, 5, new Date('2026-06-01T00:00:00Z'))
      expect(await purgeTaskBatch(db, new Date('2026-03-01T00:00:00Z'), 10)).toBe(10)
      expect(await countTasks(db)).toBe(20)
      let pauses = 0
      const purged = await purgeTasksBefore(db, new Date('2026-03-01T00:00:00Z'), { batchSize: 10, pause: async () => void pauses++ })
      expect(purged).toBe(15)
      expect(pauses).toBe(1)
      expect(await countTasks(db)).toBe(5)
      expect(await getTask(db, uuid(0x2000))).not.toBeNull()
      expect(await purgeTasksBefore(db, new Date('2026-03-01T00:00:00Z'))).toBe(0)
    })

    test('a task exactly at the cut-off is kept', async () => {
      await seed(0x3000, 1, new Date('2026-07-01T00:00:00Z'))
      // The five from June go; the one created at the cut-off stays.
      expect(await purgeTasksBefore(db, new Date('2026-07-01T00:00:00Z'))).toBe(5)
      expect(await getTask(db, uuid(0x3000))).not.toBeNull()
    })

    test('purges running at once delete every old task exactly once', async () => {
      await db.execute(sql`delete from tasks`)
      await seed(0x4000, 60, new Date('2025-01-01T00:00:00Z'))
      const counts = await Promise.all([1, 2, 3].map(() => purgeTasksBefore(db, new Date('2026-01-01T00:00:00Z'), { batchSize: 7 })))
      // Each run may stop early on rows another run holds; a last run finds what is left.
      const rest = await purgeTasksBefore(db, new Date('2026-01-01T00:00:00Z'), { batchSize: 7 })
      expect(counts.reduce((a, b) => a + b, 0) + rest).toBe(60)
      const [left] = await rows<{ n: number }>(db, sql`select count(*)::int as n from tasks`)
      expect(left!.n).toBe(0)
    })
  })
})

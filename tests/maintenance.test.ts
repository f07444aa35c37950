// The in-service schedule of src/maintenance.ts: the retention purge and the pruning of ended
// abuse-limit windows, on every test driver.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { getWindow, hitWindow } from '../db/rate-windows'
import { countTasks, getTask, insertTask } from '../db/tasks'
import { issueNonce, recordEvidence } from '../db/nonces'
import { runMaintenance, startMaintenance } from '../src/maintenance'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const NOW = new Date('2026-11-15T12:00:00Z')
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000)
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`

describe.each(testDrivers())('maintenance on %s', (driver) => {
  let tdb: TestDatabase

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  async function seed() {
    await tdb.db.execute(sql`delete from tasks`)
    const ages = [100, 31, 30.5, 29, 1]
    for (const [i, age] of ages.entries()) {
      await insertTask(tdb.db, { id: uuid(i), tool: 'bot-detector', score: 1, ipAddress: '192.0.2.1', userAgent: 'UA', results: {}, createdAt: daysAgo(age) })
    }
  }

  test('with a retention of 30 days, deletes exactly the tasks older than 30 days', async () => {
    await seed()
    const run = await runMaintenance({ db: tdb.db, clock: () => NOW, retentionDays: 30, longestWindowSeconds: 600, batchSize: 2 })
    expect(run.tasksPurged).toBe(3)
    expect(await countTasks(tdb.db)).toBe(2)
    expect(await getTask(tdb.db, uuid(3))).not.toBeNull()
  })

  test('without a retention, keeps every task', async () => {
    await seed()
    expect((await runMaintenance({ db: tdb.db, clock: () => NOW, retentionDays: undefined, longestWindowSeconds: 600 })).tasksPurged).toBe(0)
    expect(await countTasks(tdb.db)).toBe(5)
  })

  test('drops abuse-limit windows that have ended, keeps the current ones', async () => {
    const policy = { windowSeconds: 600 }
    await hitWindow(tdb.db, { scope: 'task_miss', subject: 'ended', policy, now: new Date(NOW.getTime() - 601_000) })
    await hitWindow(tdb.db, { scope: 'task_miss', subject: 'current', policy, now: new Date(NOW.getTime() - 599_000) })
    const run = await runMaintenance({ db: tdb.db, clock: () => NOW, retentionDays: undefined, longestWindowSeconds: 600 })
    expect(run.windowsPruned).toBe(1)
    expect(await getWindow(tdb.db, { scope: 'task_miss', subject: 'ended' })).toBeNull()
    expect(await getWindow(tdb.db, { scope: 'task_miss', subject: 'current' })).not.toBeNull()
  })

  test('deletes a used page nonce (and its evidence) a day after it expired, a never-used one once it expired, keeps live ones', async () => {
    await tdb.db.execute(sql`delete from page_nonces`)
    const issue = (nonce: string, at: Date) => issueNonce(tdb.db, { nonce, tool: 'dns-leak', turnSecret: 's', now: at, ttlSeconds: 900 })
    const use = (nonce: string, at: Date) => tdb.db.execute(sql`update page_nonces set used_at = ${at.toISOString()}::timestamptz where nonce = ${nonce}`)
    await issue('usedoldusedoldusedoldusedo', daysAgo(2))
    await use('usedoldusedoldusedoldusedo', daysAgo(2))
    await issue('usednewusednewusednewusedn', daysAgo(0.5))
    expect(await recordEvidence(tdb.db, { nonce: 'usednewusednewusednewusedn', kind: 'dns', data: {}, now: daysAgo(0.5) })).toBe(true)
    await use('usednewusednewusednewusedn', daysAgo(0.5))
    // Never used: expired 20 minutes ago (gone), and live for 10 more minutes (kept).
    await issue('unusedgoneunusedgoneunused', new Date(NOW.getTime() - 35 * 60_000))
    expect(await recordEvidence(tdb.db, { nonce: 'unusedgoneunusedgoneunused', kind: 'dns', data: {}, now: new Date(NOW.getTime() - 34 * 60_000) })).toBe(true)
    await issue('unusedliveunusedliveunused', new Date(NOW.getTime() - 5 * 60_000))
    const run = await runMaintenance({ db: tdb.db, clock: () => NOW, retentionDays: undefined, longestWindowSeconds: 600 })
    expect(run.noncesPurged).toBe(2)
    const left = (await tdb.db.execute(sql`select nonce from page_nonces order by nonce`)) as unknown
    const rows = Array.isArray(left) ? left : (left as { rows: unknown[] }).rows
    expect(rows).toEqual([{ nonce: 'unusedliveunusedliveunused' }, { nonce: 'usednewusednewusednewusedn' }])
    const evidence = (await tdb.db.execute(sql`select nonce from evidence`)) as unknown
    expect(Array.isArray(evidence) ? evidence : (evidence as { rows: unknown[] }).rows).toEqual([{ nonce: 'usednewusednewusednewusedn' }])
  })

  test('the schedule runs the purge by itself, logs it, survives a failed run, and stops', async () => {
    await seed()
    const lines: string[] = []
    let calls = 0
    const clock = () => {
      // The first run fails as if the database were away; later runs succeed.
      if (calls++ === 0) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
      return NOW
    }
    const m = startMaintenance({ db: tdb.db, clock, retentionDays: 30, longestWindowSeconds: 600, firstDelayMs: 0, intervalMs: 20, log: (l) => lines.push(l) })
    for (let i = 0; i < 200 && (await countTasks(tdb.db)) !== 2; i++) await new Promise((r) => setTimeout(r, 25))
    await m.stop()
    expect(await countTasks(tdb.db)).toBe(2)
    expect(lines[0]).toBe('maintenance failed (will retry): connect ECONNREFUSED')
    expect(lines).toContain('retention: deleted 3 task(s) older than 30 day(s)')
    const after = calls
    await new Promise((r) => setTimeout(r, 80))
    expect(calls).toBe(after)
  })
})

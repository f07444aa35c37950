// Database.load(): statements in flight and failed statements by code, on both drivers, as
// the metrics read them (src/metrics.ts: antibot_db_pool_in_use, _waiting, _statement_errors_total).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { openTestDatabase, testDrivers, type TestDatabase } from '../tests/support/db'
import { rawRows, statementErrorCode } from './client'

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await Bun.sleep(2)
  if (!ok()) throw new Error(`never came: ${what}`)
}

describe('statementErrorCode', () => {
  test("SQLSTATEs and drivers' connection codes pass; anything else is 'other'", () => {
    const withCode = (code: unknown) => Object.assign(new Error('x'), { code })
    for (const code of ['22012', '57014', 'CONNECT_TIMEOUT', 'ECONNREFUSED']) expect(statementErrorCode(withCode(code))).toBe(code)
    for (const e of [withCode('user@example.com'), withCode('x'.repeat(41)), withCode(42), new Error('no code'), null, undefined]) expect(statementErrorCode(e)).toBe('other')
  })
})

for (const driver of testDrivers()) {
  describe(`Database.load on ${driver}`, () => {
    let d: TestDatabase
    beforeAll(async () => {
      d = await openTestDatabase(driver)
    })
    afterAll(async () => d?.destroy())

    test('the pool size is the configured one (PGlite: one session)', () => {
      expect(d.load().size).toBe(driver === 'pglite' ? 1 : 10)
    })

    test('nothing in flight at rest, also after statements that failed', async () => {
      await d.db.execute(sql`select 1`)
      await rawRows(d.db, 'select 1 as one', [])
      await d.db.execute(sql`select 1/0`).catch(() => {})
      expect(d.load().inFlight).toBe(0)
    })

    test('a transaction and the statements waiting behind its lock are in flight until they end', async () => {
      let release = () => {}
      const held = new Promise<void>((r) => (release = r))
      let locked = () => {}
      const lockTaken = new Promise<void>((r) => (locked = r))
      const tx = d.db.transaction(async (t) => {
        await t.execute(sql`select pg_advisory_xact_lock(7301)`)
        locked()
        await held
      })
      await lockTaken
      // On PGlite these wait for its one session; on PostgreSQL, for the lock.
      const waiting = [Promise.resolve(d.db.execute(sql`select pg_advisory_xact_lock(7301)`)), rawRows(d.db, 'select pg_advisory_xact_lock(7301)', [])]
      await until('three in flight', () => d.load().inFlight === 3)
      release()
      await Promise.all([tx, ...waiting])
      expect(d.load().inFlight).toBe(0)
    })

    test('failed statements are counted by their SQLSTATE, through Drizzle and rawRows', async () => {
      const before = (code: string) => d.load().errors.get(code) ?? 0
      const zero = before('22012')
      const missing = before('42P01')
      await expect(Promise.resolve(d.db.execute(sql`select 1/0`))).rejects.toThrow()
      await expect(rawRows(d.db, 'select 1/0', [])).rejects.toThrow()
      await expect(rawRows(d.db, 'select * from no_such_table', [])).rejects.toThrow()
      expect(d.load().errors.get('22012')).toBe(zero + 2)
      expect(d.load().errors.get('42P01')).toBe(missing + 1)
      expect(d.load().inFlight).toBe(0)
    })
  })
}

// Plan visibility (self-serve or operator-only), the per-account key cap, and the operator's
// account-and-key create as one transaction, on every test driver. The cap is checked under
// concurrency: on PostgreSQL also from two connection pools (two app instances) at once.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openTestDatabase, testDrivers, type TestDatabase } from '../tests/support/db'
import { countAccountKeys, createAccountKey } from './account-keys'
import { ensureAccount, getAccountByEmail } from './accounts'
import { openPostgres, type Db } from './client'
import { insertKey, insertKeyForEmail, type NewKey } from './keys'
import { getPlanByName, getSelfServePlan, listPlans, listSelfServePlans, upsertPlan } from './plans'
import { uniqueName } from '../tests/support/unique'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const unique = (tag: string) => uniqueName(tag)
const range = (k: number) => Array.from({ length: k }, (_, i) => i)

describe.each(testDrivers())('plans and keys on %s', (driver) => {
  let tdb: TestDatabase
  let db: Db
  let free: number

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    db = tdb.db
    free = (await getPlanByName(db, 'free'))!.id
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  const newKey = (accountId: string): NewKey => ({ accountId, planId: free, name: 'k', keyHash: unique('hash'), prefix: 'ab_abcd', last4: 'wxyz' })

  describe('plan visibility', () => {
    test('of the seeded plans only free is self-serve; a plan an operator adds is not unless asked', async () => {
      const seeded = await listPlans(db)
      expect(seeded.filter((p) => ['free', 'pro', 'business'].includes(p.name)).map((p) => [p.name, p.selfServe])).toEqual([
        ['free', true],
        ['pro', false],
        ['business', false],
      ])
      const hidden = await upsertPlan(db, { name: unique('internal'), monthlyLimit: 2_000_000_000 })
      expect(hidden.selfServe).toBe(false)
      const open = await upsertPlan(db, { name: unique('open'), monthlyLimit: 5, selfServe: true })
      expect(open.selfServe).toBe(true)
      const names = (await listSelfServePlans(db)).map((p) => p.name)
      expect(names).toContain(open.name)
      expect(names).not.toContain(hidden.name)
      expect((await listPlans(db)).map((p) => p.name)).toContain(hidden.name)
      expect(await getSelfServePlan(db, hidden.name)).toBeNull()
      expect(await getSelfServePlan(db, open.name)).toEqual(open)
    })

    test('changing a limit without saying keeps the visibility; saying changes it', async () => {
      const name = unique('team')
      await upsertPlan(db, { name, monthlyLimit: 10, selfServe: true })
      expect(await upsertPlan(db, { name, monthlyLimit: 20 })).toMatchObject({ monthlyLimit: 20, selfServe: true })
      expect(await upsertPlan(db, { name, monthlyLimit: 20, selfServe: false })).toMatchObject({ monthlyLimit: 20, selfServe: false })
      expect(await upsertPlan(db, { name, monthlyLimit: 30 })).toMatchObject({ monthlyLimit: 30, selfServe: false })
    })
  })

  describe('the key cap', () => {
    test('creates up to the cap, then refuses with the count and stores nothing', async () => {
      const account = await ensureAccount(db, `${unique('cap')}@example.test`)
      for (const _ of range(3)) expect(await createAccountKey(db, newKey(account.id), 3)).toEqual({ ok: true, id: expect.any(String) as string })
      expect(await countAccountKeys(db, account.id)).toBe(3)
      expect(await createAccountKey(db, newKey(account.id), 3)).toEqual({ ok: false, reason: 'at_cap', count: 3 })
      expect(await countAccountKeys(db, account.id)).toBe(3)
    })

    test('counts keys made any way (an operator’s too), and only this account’s', async () => {
      const account = await ensureAccount(db, `${unique('mixed')}@example.test`)
      const other = await ensureAccount(db, `${unique('other')}@example.test`)
      await insertKey(db, newKey(account.id))
      await insertKey(db, newKey(account.id))
      await insertKey(db, newKey(other.id))
      expect(await createAccountKey(db, newKey(account.id), 2)).toEqual({ ok: false, reason: 'at_cap', count: 2 })
      expect((await createAccountKey(db, newKey(other.id), 2)).ok).toBe(true)
    })

    test('20 concurrent creates with room for 5: exactly 5 keys', async () => {
      const account = await ensureAccount(db, `${unique('race')}@example.test`)
      const results = await Promise.all(range(20).map(() => createAccountKey(db, newKey(account.id), 5)))
      expect(results.filter((r) => r.ok)).toHaveLength(5)
      expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.count)).toEqual(range(15).map(() => 5))
      expect(await countAccountKeys(db, account.id)).toBe(5)
    })

    test('two concurrent creates at the cap minus one: exactly one succeeds', async () => {
      for (const round of range(5)) {
        const account = await ensureAccount(db, `${unique(`edge${round}`)}@example.test`)
        for (const _ of range(2)) await insertKey(db, newKey(account.id))
        const results = await Promise.all([createAccountKey(db, newKey(account.id), 3), createAccountKey(db, newKey(account.id), 3)])
        expect(results.filter((r) => r.ok)).toHaveLength(1)
        expect(await countAccountKeys(db, account.id)).toBe(3)
      }
    })

    // PGlite is one process's database: two instances on it cannot exist.
    if (driver === 'postgres') {
      test('two instances (two connection pools) racing for one account: the cap holds', async () => {
        const second = openPostgres(tdb.url!, { max: 10 })
        try {
          const account = await ensureAccount(db, `${unique('pools')}@example.test`)
          const dbs = [db, second.db]
          const results = await Promise.all(range(30).map((i) => createAccountKey(dbs[i % 2]!, newKey(account.id), 4)))
          expect(results.filter((r) => r.ok)).toHaveLength(4)
          expect(await countAccountKeys(db, account.id)).toBe(4)
        } finally {
          await second.close()
        }
      })
    }
  })

  describe("the operator's create", () => {
    test('makes the account and the key together, and reuses an existing account', async () => {
      const email = `${unique('op')}@example.test`
      const made = await insertKeyForEmail(db, email.toUpperCase(), { planId: free, name: 'k', keyHash: unique('hash'), prefix: 'ab_abcd', last4: 'wxyz' })
      expect(made.account.email).toBe(email)
      const again = await insertKeyForEmail(db, email, { planId: free, name: 'k2', keyHash: unique('hash'), prefix: 'ab_abcd', last4: 'wxyz' })
      expect(again.account.id).toBe(made.account.id)
      expect(await countAccountKeys(db, made.account.id)).toBe(2)
    })

    test('a key that cannot be stored leaves no account behind', async () => {
      const taken = unique('hash')
      await insertKeyForEmail(db, `${unique('first')}@example.test`, { planId: free, name: 'k', keyHash: taken, prefix: 'ab_abcd', last4: 'wxyz' })
      const email = `${unique('second')}@example.test`
      // The same hash again violates api_keys.key_hash's unique constraint after the account insert.
      await expect(insertKeyForEmail(db, email, { planId: free, name: 'k', keyHash: taken, prefix: 'ab_abcd', last4: 'wxyz' })).rejects.toThrow()
      expect(await getAccountByEmail(db, email)).toBeNull()
    })
  })
})

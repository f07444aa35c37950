// The query functions behind sign-up, log-in, sessions, throttling and the dashboard, run
// against each driver (PGlite always, PostgreSQL when TEST_DATABASE_URL is set).

import { describe, expect, test } from 'bun:test'
import { testDrivers } from '../tests/support/db'
import { useTestDatabase } from '../tests/support/db-suite'
import { afterHit, type WindowPolicy, type WindowState } from '../src/core/fixed-window'
import { createAccountWithPassword, ensureAccount, getLoginAccount } from './accounts'
import { deleteAccountKey, getAccountKey, rotateAccountKey, setAccountKeyExpiry, setAccountKeyStatus } from './account-keys'
import { sql } from 'drizzle-orm'
import { rows, type Db } from './client'
import { readDashboard } from './dashboard'
import { fetchTaskWithKey } from './fetch'
import { getKey, insertKey } from './keys'
import { clearWindow, hitWindow, readWindows } from './rate-windows'
import { pruneWindows } from './retention'
import { getPlanByName } from './plans'
import { createSession, deleteSession, extendSession, getSession } from './sessions'
import { insertTask } from './tasks'
import { uniqueName } from '../tests/support/unique'

const T0 = new Date('2026-11-15T12:00:00Z')
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000)
const unique = (tag: string) => uniqueName(tag)

describe.each(testDrivers())('account and dashboard queries on %s', (driver) => {
  let db: Db
  useTestDatabase(driver, (t) => (db = t.db))

  async function keyFor(accountId: string, name = 'k', hash = unique('hash')) {
    const plan = (await getPlanByName(db, 'free'))!
    return insertKey(db, { accountId, planId: plan.id, name, keyHash: hash, prefix: 'ab_abcd', last4: 'wxyz' })
  }

  describe('accounts', () => {
    test('an email gets one account; the second sign-up gets null', async () => {
      const email = `${unique('a')}@example.test`
      const first = await createAccountWithPassword(db, { email: email.toUpperCase(), passwordHash: 'h1' })
      expect(first?.email).toBe(email)
      expect(await createAccountWithPassword(db, { email, passwordHash: 'h2' })).toBeNull()
      expect(await getLoginAccount(db, ` ${email.toUpperCase()} `)).toEqual({ id: first!.id, email, passwordHash: 'h1' })
    })

    test('an account an operator made cannot be claimed by signing up', async () => {
      const email = `${unique('op')}@example.test`
      const account = await ensureAccount(db, email)
      expect(await createAccountWithPassword(db, { email, passwordHash: 'h' })).toBeNull()
      expect(await getLoginAccount(db, email)).toEqual({ id: account.id, email, passwordHash: null })
    })

    test('an unknown email has no log-in account', async () => {
      expect(await getLoginAccount(db, 'nobody@example.test')).toBeNull()
    })
  })

  describe('sessions', () => {
    test('are found by hash until they expire', async () => {
      const account = await ensureAccount(db, `${unique('s')}@example.test`)
      const tokenHash = unique('session')
      await createSession(db, { tokenHash, accountId: account.id, expiresAt: at(60), now: T0 })
      expect(await getSession(db, { tokenHash, now: at(59) })).toEqual({ accountId: account.id, email: account.email, expiresAt: at(60) })
      expect(await getSession(db, { tokenHash, now: at(60) })).toBeNull()
      expect(await getSession(db, { tokenHash: 'other', now: T0 })).toBeNull()
    })

    test('can be extended and deleted', async () => {
      const account = await ensureAccount(db, `${unique('s')}@example.test`)
      const tokenHash = unique('session')
      await createSession(db, { tokenHash, accountId: account.id, expiresAt: at(60), now: T0 })
      await extendSession(db, { tokenHash, expiresAt: at(600) })
      expect((await getSession(db, { tokenHash, now: at(300) }))?.expiresAt).toEqual(at(600))
      await deleteSession(db, tokenHash)
      expect(await getSession(db, { tokenHash, now: T0 })).toBeNull()
    })

    test('a new session clears the account’s expired ones', async () => {
      const account = await ensureAccount(db, `${unique('s')}@example.test`)
      await createSession(db, { tokenHash: unique('old'), accountId: account.id, expiresAt: at(10), now: T0 })
      const live = unique('live')
      await createSession(db, { tokenHash: live, accountId: account.id, expiresAt: at(1000), now: T0 })
      await createSession(db, { tokenHash: unique('new'), accountId: account.id, expiresAt: at(2000), now: at(20) })
      const left = await rows<{ n: number }>(db, sql`select count(*)::int as n from sessions where account_id = ${account.id}::uuid`)
      expect(left[0]!.n).toBe(2)
      expect(await getSession(db, { tokenHash: live, now: at(20) })).not.toBeNull()
    })
  })

  describe('login throttles', () => {
    const policy: WindowPolicy = { max: 3, windowSeconds: 60 }

    test('count failures exactly as afterHit() says, windows included', async () => {
      const subject = { scope: 'login_account' as const, subject: unique('t') }
      let expected: WindowState | null = null
      for (const s of [0, 1, 30, 59.999, 60, 61, 200]) {
        const now = at(s)
        expected = afterHit(policy, expected, now)
        expect(await hitWindow(db, { ...subject, policy, now })).toEqual(expected)
      }
      const read = await readWindows(db, [subject])
      expect(read.get(`login_account:${subject.subject}`)).toEqual(expected!)
    })

    test('concurrent failures are all counted', async () => {
      const subject = { scope: 'login_address' as const, subject: unique('race') }
      const big = { max: 100, windowSeconds: 600 }
      await Promise.all(Array.from({ length: 20 }, () => hitWindow(db, { ...subject, policy: big, now: T0 })))
      expect((await readWindows(db, [subject])).get(`login_address:${subject.subject}`)?.count).toBe(20)
    })

    test('scopes are separate, and cleared or pruned subjects are gone', async () => {
      const account = { scope: 'login_account' as const, subject: unique('same') }
      const address = { scope: 'login_address' as const, subject: account.subject }
      await hitWindow(db, { ...account, policy, now: T0 })
      await hitWindow(db, { ...account, policy, now: T0 })
      await hitWindow(db, { ...address, policy, now: at(500) })
      const both = await readWindows(db, [account, address])
      expect(both.get(`login_account:${account.subject}`)?.count).toBe(2)
      expect(both.get(`login_address:${address.subject}`)?.count).toBe(1)
      await clearWindow(db, account)
      await pruneWindows(db, at(400))
      expect((await readWindows(db, [account, address])).size).toBe(1)
      await pruneWindows(db, at(501))
      expect((await readWindows(db, [account, address])).size).toBe(0)
      expect((await readWindows(db, [])).size).toBe(0)
    })
  })

  describe('keys scoped to their account', () => {
    test('the owner can change status, expiry and secret, and delete', async () => {
      const owner = await ensureAccount(db, `${unique('owner')}@example.test`)
      const keyId = await keyFor(owner.id, 'mine')
      const k = { accountId: owner.id, keyId }
      expect(await getAccountKey(db, k)).toEqual({ id: keyId, name: 'mine' })
      expect(await setAccountKeyStatus(db, { ...k, status: 'inactive' })).toEqual({ id: keyId, name: 'mine' })
      expect(await setAccountKeyExpiry(db, { ...k, expiresAt: at(3600) })).not.toBeNull()
      expect(await rotateAccountKey(db, { ...k, keyHash: unique('rotated'), prefix: 'ab_new1', last4: 'NEW4' })).not.toBeNull()
      const record = (await getKey(db, keyId))!
      expect([record.status, record.expiresAt, record.prefix, record.last4]).toEqual(['inactive', at(3600), 'ab_new1', 'NEW4'])
      expect(await deleteAccountKey(db, k)).toEqual({ id: keyId, name: 'mine' })
      expect(await getKey(db, keyId)).toBeNull()
    })

    test('another account reads and changes nothing', async () => {
      const owner = await ensureAccount(db, `${unique('owner')}@example.test`)
      const other = await ensureAccount(db, `${unique('other')}@example.test`)
      const hash = unique('keep')
      const keyId = await keyFor(owner.id, 'theirs', hash)
      const k = { accountId: other.id, keyId }
      expect(await getAccountKey(db, k)).toBeNull()
      expect(await setAccountKeyStatus(db, { ...k, status: 'inactive' })).toBeNull()
      expect(await setAccountKeyExpiry(db, { ...k, expiresAt: T0 })).toBeNull()
      expect(await rotateAccountKey(db, { ...k, keyHash: unique('stolen'), prefix: 'ab_xxxx', last4: 'xxxx' })).toBeNull()
      expect(await deleteAccountKey(db, k)).toBeNull()
      const record = (await getKey(db, keyId))!
      expect([record.status, record.expiresAt, record.prefix]).toEqual(['active', null, 'ab_abcd'])
      expect((await fetchTaskWithKey(db, { keyHash: hash, taskId: null, now: T0 })).key?.id).toBe(keyId)
    })
  })

  describe('readDashboard', () => {
    test('lists the account’s keys with this month’s usage, daily counts and last use', async () => {
      const account = await ensureAccount(db, `${unique('dash')}@example.test`)
      const other = await ensureAccount(db, `${unique('dash-other')}@example.test`)
      const usedHash = unique('used')
      const used = await keyFor(account.id, 'used', usedHash)
      const idle = await keyFor(account.id, 'idle')
      await keyFor(other.id, 'not mine')
      const taskId = '00000000-0000-4000-8000-00000000d45b'
      await insertTask(db, { id: taskId, tool: 'bot-detector', score: 100, ipAddress: '192.0.2.1', userAgent: 'test', results: {}, createdAt: T0 })
      await fetchTaskWithKey(db, { keyHash: usedHash, taskId, now: new Date('2026-10-31T23:00:00Z') })
      await fetchTaskWithKey(db, { keyHash: usedHash, taskId, now: new Date('2026-11-02T10:00:00Z') })
      await fetchTaskWithKey(db, { keyHash: usedHash, taskId, now: new Date('2026-11-02T11:00:00Z') })
      await fetchTaskWithKey(db, { keyHash: usedHash, taskId, now: new Date('2026-11-15T09:30:00Z') })

      const d = await readDashboard(db, { accountId: account.id, month: '2026-11-01' })
      // Only the free plan is self-serve (issue 57): the others are the operator's to assign.
      expect(d.plans.map((p) => [p.name, p.monthlyLimit])).toEqual([['free', 1000]])
      expect(d.keys.map((k) => k.name).sort()).toEqual(['idle', 'used'])
      const u = d.keys.find((k) => k.id === used)!
      expect(u).toMatchObject({ plan: 'free', monthlyLimit: 1000, status: 'active', expiresAt: null, used: 3, planUsed: 3, prefix: 'ab_abcd', last4: 'wxyz' })
      expect(u.daily.slice(0, 16)).toEqual([0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0])
      expect(u.lastUsedAt).toEqual(new Date('2026-11-15T09:30:00Z'))
      const i = d.keys.find((k) => k.id === idle)!
      // The idle key fetched nothing, but the account's free allowance it draws on is used by 3.
      expect(i).toMatchObject({ used: 0, planUsed: 3, daily: [], lastUsedAt: null })

      const october = await readDashboard(db, { accountId: account.id, month: '2026-10-01' })
      expect(october.keys.find((k) => k.id === used)).toMatchObject({ used: 1, lastUsedAt: new Date('2026-11-15T09:30:00Z') })
    })

    test('an account without keys gets the plans and an empty list', async () => {
      const account = await ensureAccount(db, `${unique('empty')}@example.test`)
      const d = await readDashboard(db, { accountId: account.id, month: '2026-11-01' })
      expect(d.keys).toEqual([])
      expect(d.plans.length).toBeGreaterThan(0)
    })
  })
})

// The account forms' throttles under concurrency and from several addresses, on every test
// driver (PostgreSQL when TEST_DATABASE_URL is set, where concurrent requests really do race,
// and also across two app instances with their own connection pools).
//
// - Log-in: N simultaneous attempts get at most the documented number judged (10 per address,
//   50 per account in 15 minutes), because each is counted before its password is checked, in
//   one statement (src/auth/login.ts, db/rate-windows.ts hitGatedWindows).
// - One address cannot lock an account: its refused attempts are not counted against it, so
//   the owner logs in from another address; five addresses at their limit can (documented).
// - Sign-up: 10 per address an hour, counted before the password is hashed.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { openPostgres, rows, type Db } from '../db/client'
import { createAccountWithPassword } from '../db/accounts'
import { logIn, throttleSubjects, type LoginResult } from '../src/auth/login'
import { hashPassword } from '../src/auth/password'
import { LOGIN_THROTTLE, SIGNUP_THROTTLE } from '../src/core/throttle'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { WebClient } from './support/web-client'
import { uniqueEmail, uniqueName } from './support/unique'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const TEST_TIMEOUT_MS = 60_000
const PASSWORD = 'correct horse battery'
const T0 = new Date('2026-11-15T12:00:00Z')
const email = (tag: string) => uniqueEmail(tag)
const range = (k: number) => Array.from({ length: k }, (_, i) => i)
/** A distinct documentation address per call (198.18.0.0/15, the benchmarking range). */
const addressOf = (i: number) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`

function tally(statuses: Array<number | string>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1
  return out
}
const outcome = (r: LoginResult) => (r.ok ? 'ok' : r.code)

describe.each(testDrivers())('account throttles on %s', (driver) => {
  let tdb: TestDatabase
  let db: Db
  /** A second pool on the same PostgreSQL database: another app instance. PGlite has none. */
  let second: Db | null = null
  let closeSecond: (() => Promise<void>) | null = null

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    db = tdb.db
    if (driver === 'postgres') {
      const other = openPostgres(tdb.url!, { max: 10 })
      second = other.db
      closeSecond = () => other.close()
    }
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await closeSecond?.()
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)
  // Every test starts with no counts (in-process requests all share the address 'unknown').
  beforeEach(async () => {
    await db.execute(sql`delete from rate_windows where scope in ('login_account', 'login_address')`)
  })

  /** The databases the work is spread over: both pools on PostgreSQL. */
  const pools = () => (second ? [db, second] : [db])

  async function account(): Promise<string> {
    const address = email('owner')
    await createAccountWithPassword(db, { email: address, passwordHash: await hashPassword(PASSWORD) })
    return address
  }

  const count = async (scope: string, subject: string) =>
    (await rows<{ count: number }>(db, sql`select count::int as count from rate_windows where scope = ${scope} and subject = ${subject}`))[0]?.count ?? 0

  test(
    '30 simultaneous wrong-password log-ins for one account, each with its own form: exactly 10 judged, 20 refused',
    async () => {
      const victim = await account()
      const apps = await Promise.all(pools().map(async (p) => (await buildTestApp(p)).app))
      // Each attacker has its own form cookie and token, fetched before the burst.
      const clients = await Promise.all(
        range(30).map(async (i) => {
          const c = new WebClient(apps[i % apps.length]!)
          await c.get('/login')
          return c
        }),
      )
      const statuses = await Promise.all(clients.map(async (c, i) => (await c.post('/login', { email: victim, password: `wrong ${i}` })).status))
      expect(tally(statuses)).toEqual({ 422: LOGIN_THROTTLE.address.max, 429: 30 - LOGIN_THROTTLE.address.max })
      const subjects = throttleSubjects(victim, 'unknown')
      expect(await count('login_address', subjects.address.subject)).toBe(30)
      // Only the attempts the address let through were counted against the account.
      expect(await count('login_account', subjects.account.subject)).toBe(LOGIN_THROTTLE.address.max)
      // Refused even with the right password, until the window ends.
      const late = new WebClient(apps[0]!)
      expect((await late.logIn(victim, PASSWORD)).status).toBe(429)
    },
    TEST_TIMEOUT_MS,
  )

  test(
    '80 simultaneous wrong-password log-ins for one account from 80 addresses: exactly 50 judged, 30 refused',
    async () => {
      const victim = await account()
      const ps = pools()
      const results = await Promise.all(
        range(80).map((i) => logIn(ps[i % ps.length]!, { email: victim, password: `wrong ${i}`, address: addressOf(i), now: T0 })),
      )
      expect(tally(results.map(outcome))).toEqual({ invalid: LOGIN_THROTTLE.account.max, throttled: 80 - LOGIN_THROTTLE.account.max })
      for (const r of results) if (!r.ok && r.code === 'throttled') expect(r.retryAfterSeconds).toBe(LOGIN_THROTTLE.account.windowSeconds)
      expect(await count('login_account', throttleSubjects(victim, '').account.subject)).toBe(80)
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'simultaneous right-password log-ins from one address are each judged once and each forgiven',
    async () => {
      const owner = await account()
      const ps = pools()
      const results = await Promise.all(range(8).map((i) => logIn(ps[i % ps.length]!, { email: owner, password: PASSWORD, address: addressOf(0), now: T0 })))
      expect(tally(results.map(outcome))).toEqual({ ok: 8 })
      expect(await count('login_address', throttleSubjects(owner, addressOf(0)).address.subject)).toBe(0)
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'one address guessing cannot lock the owner out: its refused attempts are not counted against the account',
    async () => {
      const owner = await account()
      const attacker = addressOf(1)
      const results: LoginResult[] = []
      for (let i = 0; i < 40; i++) results.push(await logIn(db, { email: owner, password: `guess ${i}`, address: attacker, now: T0 }))
      expect(tally(results.map(outcome))).toEqual({ invalid: LOGIN_THROTTLE.address.max, throttled: 40 - LOGIN_THROTTLE.address.max })
      expect(await count('login_account', throttleSubjects(owner, attacker).account.subject)).toBe(LOGIN_THROTTLE.address.max)
      expect(outcome(await logIn(db, { email: owner, password: PASSWORD, address: addressOf(2), now: T0 }))).toBe('ok')
      // The owner's success clears the account count; the attacker's address stays locked.
      expect(await count('login_account', throttleSubjects(owner, attacker).account.subject)).toBe(0)
      expect(outcome(await logIn(db, { email: owner, password: PASSWORD, address: attacker, now: T0 }))).toBe('throttled')
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'an own account cannot buy guesses: a success takes back only its own count',
    async () => {
      const own = await account()
      const victim = await account()
      const address = addressOf(3)
      const guesses: string[] = []
      const mine: string[] = []
      for (let i = 0; i < 15; i++) {
        mine.push(outcome(await logIn(db, { email: own, password: PASSWORD, address, now: T0 })))
        guesses.push(outcome(await logIn(db, { email: victim, password: `guess ${i}`, address, now: T0 })))
      }
      expect(tally(guesses)).toEqual({ invalid: LOGIN_THROTTLE.address.max, throttled: 15 - LOGIN_THROTTLE.address.max })
      expect(mine.slice(0, LOGIN_THROTTLE.address.max)).toEqual(range(LOGIN_THROTTLE.address.max).map(() => 'ok'))
      expect(mine.slice(LOGIN_THROTTLE.address.max)).toEqual(range(15 - LOGIN_THROTTLE.address.max).map(() => 'throttled'))
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'five addresses at their limit do lock the account, the owner included, for 15 minutes',
    async () => {
      const owner = await account()
      const perAddress = LOGIN_THROTTLE.address.max
      const addresses = LOGIN_THROTTLE.account.max / perAddress
      expect(addresses).toBe(5)
      for (let a = 0; a < addresses; a++) {
        for (let i = 0; i < perAddress; i++) expect(outcome(await logIn(db, { email: owner, password: `guess ${i}`, address: addressOf(10 + a), now: T0 }))).toBe('invalid')
      }
      const refused = await logIn(db, { email: owner, password: PASSWORD, address: addressOf(20), now: new Date(T0.getTime() + 60_000) })
      expect(refused).toEqual({ ok: false, code: 'throttled', retryAfterSeconds: 14 * 60 })
      expect(outcome(await logIn(db, { email: owner, password: PASSWORD, address: addressOf(20), now: new Date(T0.getTime() + 15 * 60_000) }))).toBe('ok')
    },
    TEST_TIMEOUT_MS,
  )

  test(
    'an unknown email is counted at the account exactly like a known one',
    async () => {
      const known = await account()
      const unknown = email('nobody')
      for (const who of [known, unknown]) {
        const results: string[] = []
        for (let i = 0; i <= LOGIN_THROTTLE.account.max; i++) results.push(outcome(await logIn(db, { email: who, password: 'guess', address: addressOf(100 + i), now: T0 })))
        expect(tally(results)).toEqual({ invalid: LOGIN_THROTTLE.account.max, throttled: 1 })
      }
    },
    TEST_TIMEOUT_MS,
  )

  test(
    '30 simultaneous sign-ups from one address: exactly 10 accepted and stored, 20 refused with nothing stored',
    async () => {
      const apps = await Promise.all(pools().map(async (p) => (await buildTestApp(p)).app))
      const clients = await Promise.all(
        range(30).map(async (i) => {
          const c = new WebClient(apps[i % apps.length]!)
          await c.get('/signup')
          return c
        }),
      )
      const tag = uniqueName('burst')
      const statuses = await Promise.all(clients.map(async (c, i) => (await c.post('/signup', { email: `${tag}-${i}@example.test`, password: PASSWORD })).status))
      expect(tally(statuses)).toEqual({ 200: SIGNUP_THROTTLE.max, 429: 30 - SIGNUP_THROTTLE.max })
      const stored = await rows<{ email: string; password_hash: string }>(db, sql`select email, password_hash from accounts where email like ${`${tag}-%`}`)
      expect(stored).toHaveLength(SIGNUP_THROTTLE.max)
      const accepted = new Set(statuses.flatMap((s, i) => (s === 200 ? [`${tag}-${i}@example.test`] : [])))
      for (const row of stored) {
        expect(accepted.has(row.email)).toBe(true)
        expect(row.password_hash).toStartWith('$argon2id$')
      }
    },
    TEST_TIMEOUT_MS,
  )
})

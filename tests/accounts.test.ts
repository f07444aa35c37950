// Sign-up, log-in, logout and sessions over HTTP through app.handle(), on every test driver:
// argon2id at rest, sessions stored as hashes, cookies with the right attributes, log-in
// errors that do not reveal whether an email exists, and throttling kept in the database.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { ensureAccount } from '../db/accounts'
import { rows, type Db } from '../db/client'
import { hashSecret } from '../src/core/keys'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { WebClient } from './support/web-client'

const HOOK_TIMEOUT_MS = 60_000
const PASSWORD = 'correct horse battery'
let n = 0
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.test`

describe.each(testDrivers())('accounts over HTTP on %s', (driver) => {
  let tdb: TestDatabase
  let db: Db

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    db = tdb.db
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)
  // Requests made through app.handle() have no socket, so they all come from the address
  // 'unknown': without this, the failures of one test would count against the next.
  beforeEach(async () => {
    await db.execute(sql`delete from rate_windows where scope = 'login_address'`)
  })

  const client = async () => new WebClient((await buildTestApp(db)).app)

  describe('sign-up', () => {
    test('the page has a labelled form and sets the form cookie the CSRF token comes from', async () => {
      const c = await client()
      const res = await c.get('/signup')
      expect(res.status).toBe(200)
      expect(c.html).toContain('<label for="email">Email</label>')
      expect(c.html).toContain('<label for="password">Password</label>')
      expect(c.html).toMatch(/<button type="submit">Sign up<\/button>/)
      expect(c.cookies.has('antibot_form')).toBe(true)
      expect(c.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(res.headers.get('set-cookie')).toContain('HttpOnly')
    })

    test('creates the account, stores an argon2id hash and starts a session', async () => {
      const c = await client()
      const address = email('new')
      await c.get('/signup')
      const res = await c.post('/signup', { email: address.toUpperCase(), password: PASSWORD })
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/dashboard')
      const [account] = await rows<{ password_hash: string }>(db, sql`select password_hash from accounts where email = ${address}`)
      expect(account!.password_hash).toStartWith('$argon2id$')
      expect(account!.password_hash).not.toContain(PASSWORD)
      const dash = await c.get('/dashboard')
      expect(dash.status).toBe(200)
      expect(c.html).toContain(`Signed in as <strong>${address}</strong>`)
    })

    test('the session cookie is HttpOnly, SameSite=Lax, lasts 14 days, and the form cookie is dropped', async () => {
      const c = await client()
      await c.get('/signup')
      const res = await c.post('/signup', { email: email('cookie'), password: PASSWORD })
      const cookies = res.headers.getSetCookie()
      const session = cookies.find((x) => x.startsWith('antibot_session='))!
      expect(session).toMatch(/^antibot_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/)
      expect(session).not.toContain('Secure')
      expect(cookies.find((x) => x.startsWith('antibot_form='))).toContain('Max-Age=0')
    })

    test('the session cookie is Secure when the request came over HTTPS', async () => {
      const c = new WebClient((await buildTestApp(db)).app, 'https://antibot.example')
      await c.get('/signup')
      const res = await c.post('/signup', { email: email('tls'), password: PASSWORD })
      expect(res.status).toBe(303)
      expect(res.headers.getSetCookie().find((x) => x.startsWith('antibot_session='))).toContain('; Secure')
    })

    test('stores only the SHA-256 of the session token', async () => {
      const c = await client()
      await c.signUp(email('hash'))
      const token = c.cookies.get('antibot_session')!
      const found = await rows<{ token_hash: string }>(db, sql`select token_hash from sessions where token_hash = ${hashSecret(token)} or token_hash = ${token}`)
      expect(found).toEqual([{ token_hash: hashSecret(token) }])
    })

    test('names what is wrong with the input and keeps the email', async () => {
      const c = await client()
      await c.get('/signup')
      const res = await c.post('/signup', { email: 'ada@example.test', password: 'short' })
      expect(res.status).toBe(422)
      expect(c.html).toContain('Choose a password of at least 8 characters.')
      expect(c.html).toContain('value="ada@example.test"')
      expect(c.html).toContain('aria-invalid="true"')
    })

    test('refuses an email that already has an account', async () => {
      const address = email('twice')
      await (await client()).signUp(address)
      const c = await client()
      await c.get('/signup')
      const res = await c.post('/signup', { email: address, password: 'another password' })
      expect(res.status).toBe(409)
      expect(c.html).toContain('Cannot sign up: an account with this email already exists. Log in instead.')
      expect(c.cookies.has('antibot_session')).toBe(false)
    })

    test('cannot take over an account an operator created without a password', async () => {
      const address = email('operator')
      await ensureAccount(db, address)
      const c = await client()
      await c.get('/signup')
      expect((await c.post('/signup', { email: address, password: PASSWORD })).status).toBe(409)
      expect((await c.logIn(address, PASSWORD)).status).toBe(422)
    })

    test('a signed-in visitor is sent on to the dashboard', async () => {
      const c = await client()
      await c.signUp(email('again'))
      const res = await c.get('/signup')
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/dashboard')
    })
  })

  describe('log-in', () => {
    test('with the right password starts a new session', async () => {
      const address = email('login')
      const first = await client()
      await first.signUp(address)
      const c = await client()
      const res = await c.logIn(address)
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/dashboard')
      expect(c.cookies.get('antibot_session')).not.toBe(first.cookies.get('antibot_session'))
      expect((await c.get('/dashboard')).status).toBe(200)
    })

    test('the email is not case-sensitive', async () => {
      const address = email('case')
      await (await client()).signUp(address)
      expect((await (await client()).logIn(address.toUpperCase())).status).toBe(303)
    })

    test('a wrong password and an unknown email get the very same answer', async () => {
      const address = email('known')
      await (await client()).signUp(address)
      const unknown = email('unknown')
      const a = await client()
      const wrong = await a.logIn(address, 'wrong password')
      const b = await client()
      const missing = await b.logIn(unknown, 'wrong password')
      expect(wrong.status).toBe(422)
      expect(missing.status).toBe(422)
      expect(a.html).toContain('Cannot log in: the email or password is not correct.')
      const normalize = (html: string, address: string, token: string | null) => html.replaceAll(address, 'EMAIL').replaceAll(token ?? '-', 'TOKEN')
      expect(normalize(a.html, address, a.csrf)).toBe(normalize(b.html, unknown, b.csrf))
      expect([...wrong.headers.keys()].sort()).toEqual([...missing.headers.keys()].sort())
      expect(a.cookies.has('antibot_session')).toBe(false)
    })

    test('empty fields are named', async () => {
      const c = await client()
      await c.get('/login')
      expect((await c.post('/login', { email: '', password: '' })).status).toBe(422)
      expect(c.html).toContain('Enter your email address.')
      expect(c.html).toContain('Enter your password.')
    })
  })

  describe('throttling', () => {
    test('five wrong passwords lock the account for 15 minutes, even against the right password', async () => {
      const address = email('locked')
      await (await client()).signUp(address)
      const { app, clock } = await buildTestApp(db)
      const c = new WebClient(app)
      for (let i = 0; i < 5; i++) expect((await c.logIn(address, `wrong ${i}`)).status).toBe(422)
      const locked = await c.logIn(address, PASSWORD)
      expect(locked.status).toBe(429)
      expect(locked.headers.get('retry-after')).toBe('900')
      expect(c.html).toContain('too many failed attempts for this account or from this address. Try again in 15 minutes.')
      clock.set(new Date(clock().getTime() + 15 * 60_000))
      expect((await c.logIn(address, PASSWORD)).status).toBe(303)
    })

    test('an unknown email is throttled exactly like a known one', async () => {
      const { app } = await buildTestApp(db)
      const c = new WebClient(app)
      const unknown = email('nobody')
      for (let i = 0; i < 5; i++) expect((await c.logIn(unknown, `wrong ${i}`)).status).toBe(422)
      expect((await c.logIn(unknown, 'wrong again')).status).toBe(429)
    })

    test('a successful log-in clears the account count', async () => {
      const address = email('clears')
      await (await client()).signUp(address)
      const c = await client()
      for (let i = 0; i < 4; i++) await c.logIn(address, `wrong ${i}`)
      expect((await c.logIn(address)).status).toBe(303)
      const other = await client()
      for (let i = 0; i < 4; i++) expect((await other.logIn(address, `wrong ${i}`)).status).toBe(422)
      expect((await other.logIn(address)).status).toBe(303)
    })

    test('twenty failures from one address lock that address for every account', async () => {
      // A fresh database: in-process requests all come from the address 'unknown'.
      const own = await openTestDatabase(driver)
      try {
        const { app, clock } = await buildTestApp(own.db)
        const victim = email('victim')
        await new WebClient(app).signUp(victim)
        const c = new WebClient(app)
        for (let i = 0; i < 20; i++) expect((await c.logIn(email(`spray${i}`), 'guess')).status).toBe(422)
        expect((await c.logIn(victim, PASSWORD)).status).toBe(429)
        clock.set(new Date(clock().getTime() + 15 * 60_000))
        expect((await c.logIn(victim, PASSWORD)).status).toBe(303)
      } finally {
        await own.destroy()
      }
    }, 60_000)

    test('the counts live in the database: another app instance sees them', async () => {
      const address = email('shared')
      await (await client()).signUp(address)
      const one = new WebClient((await buildTestApp(db)).app)
      const two = new WebClient((await buildTestApp(db)).app)
      for (let i = 0; i < 3; i++) await one.logIn(address, `wrong ${i}`)
      for (let i = 0; i < 2; i++) await two.logIn(address, `wrong ${i}`)
      expect((await one.logIn(address)).status).toBe(429)
      const [row] = await rows<{ failures: number }>(
        db,
        sql`select count::int as failures from rate_windows where scope = 'login_account' and subject = ${hashSecret(`account:${address}`)}`,
      )
      expect(row!.failures).toBe(5)
    })

    test('what people typed is not stored in the throttle table', async () => {
      const address = email('private')
      await (await client()).logIn(address, 'wrong')
      const found = await rows<{ n: number }>(db, sql`select count(*)::int as n from rate_windows where subject like ${`%${address}%`}`)
      expect(found[0]!.n).toBe(0)
    })
  })

  describe('sessions and logout', () => {
    test('logout deletes the session: the old cookie no longer opens the dashboard', async () => {
      const c = await client()
      await c.signUp(email('logout'))
      const token = c.cookies.get('antibot_session')!
      await c.get('/dashboard')
      const res = await c.post('/logout')
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/login')
      expect(res.headers.getSetCookie().find((x) => x.startsWith('antibot_session='))).toContain('Max-Age=0')
      const left = await rows<{ n: number }>(db, sql`select count(*)::int as n from sessions where token_hash = ${hashSecret(token)}`)
      expect(left[0]!.n).toBe(0)
      const replay = new WebClient(c.app)
      replay.cookies.set('antibot_session', token)
      const again = await replay.get('/dashboard')
      expect(again.status).toBe(303)
      expect(again.headers.get('location')).toBe('/login')
    })

    test('the dashboard sends visitors without a session to /login', async () => {
      const res = await (await client()).get('/dashboard')
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/login')
    })

    test('an htmx request without a session is sent to /login with HX-Location', async () => {
      const res = await (await client()).get('/dashboard', { 'hx-request': 'true' })
      expect(res.status).toBe(200)
      expect(res.headers.get('hx-location')).toBe('/login')
    })

    test('a junk session cookie is treated as none', async () => {
      const c = await client()
      c.cookies.set('antibot_session', 'not-a-token')
      expect((await c.get('/dashboard')).status).toBe(303)
    })

    test('a session ends after 14 days without use', async () => {
      const { app, clock } = await buildTestApp(db)
      const c = new WebClient(app)
      await c.signUp(email('expires'))
      clock.set(new Date(clock().getTime() + 14 * 86_400_000))
      expect((await c.get('/dashboard')).status).toBe(303)
    })

    test('a session in use is renewed once less than half of it is left', async () => {
      const { app, clock } = await buildTestApp(db)
      const c = new WebClient(app)
      await c.signUp(email('renew'))
      clock.set(new Date(clock().getTime() + 6 * 86_400_000))
      expect((await c.get('/dashboard')).headers.getSetCookie()).toEqual([])
      clock.set(new Date(clock().getTime() + 2 * 86_400_000))
      const renewed = await c.get('/dashboard')
      expect(renewed.headers.getSetCookie().find((x) => x.startsWith('antibot_session='))).toContain('Max-Age=1209600')
      clock.set(new Date(clock().getTime() + 13 * 86_400_000))
      expect((await c.get('/dashboard')).status).toBe(200)
    })

    test('logging in again ends the session the browser had', async () => {
      const address = email('switch')
      const c = await client()
      await c.signUp(address)
      const before = c.cookies.get('antibot_session')!
      await c.post('/logout')
      c.cookies.set('antibot_session', before)
      await c.get('/login')
      await c.post('/login', { email: address, password: PASSWORD })
      const old = await rows<{ n: number }>(db, sql`select count(*)::int as n from sessions where token_hash = ${hashSecret(before)}`)
      expect(old[0]!.n).toBe(0)
    })
  })

  describe('forged requests', () => {
    test('a log-in from another site is refused before anything is checked', async () => {
      const address = email('csrf-login')
      await (await client()).signUp(address)
      const c = await client()
      await c.get('/login')
      const res = await c.post('/login', { email: address, password: PASSWORD }, { origin: 'http://evil.example' })
      expect(res.status).toBe(403)
      expect(c.html).toContain('Cannot log in: the request did not come from a page of this site.')
      expect(c.cookies.has('antibot_session')).toBe(false)
    })

    test('a log-in without the form token, or without the form cookie, is refused', async () => {
      const address = email('token-login')
      await (await client()).signUp(address)
      const c = await client()
      await c.get('/login')
      expect((await c.post('/login', { email: address, password: PASSWORD }, { csrf: null })).status).toBe(403)
      expect(c.html).toContain('Cannot log in: the form’s security token is missing or out of date.')
      const token = c.csrf
      c.cookies.delete('antibot_form')
      expect((await c.post('/login', { email: address, password: PASSWORD }, { csrf: token })).status).toBe(403)
    })

    test('a sign-up from another site is refused', async () => {
      const c = await client()
      await c.get('/signup')
      expect((await c.post('/signup', { email: email('evil'), password: PASSWORD }, { origin: 'http://evil.example' })).status).toBe(403)
    })

    test('a logout from another site is refused and the session lives on', async () => {
      const c = await client()
      await c.signUp(email('csrf-logout'))
      expect((await c.post('/logout', {}, { origin: 'http://evil.example' })).status).toBe(403)
      expect((await c.post('/logout', {}, { csrf: null })).status).toBe(403)
      expect((await c.get('/dashboard')).status).toBe(200)
    })
  })
})

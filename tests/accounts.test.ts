// Sign-up, log-in, logout and sessions over HTTP through app.handle(), on every test driver:
// argon2id at rest, sessions stored as hashes, cookies with the right attributes, sign-up
// answers and log-in errors that do not reveal whether an email exists, bad input named, and
// throttling kept in the database. Throttling under concurrency and from several addresses:
// tests/account-throttle.test.ts; random input: tests/account-fuzz.test.ts.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { ensureAccount } from '../db/accounts'
import { rows, type Db } from '../db/client'
import { hashSecret } from '../src/core/keys'
import { SIGNED_UP } from '../src/http/signup'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { WebClient } from './support/web-client'
import { uniqueEmail } from './support/unique'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const PASSWORD = 'correct horse battery'
const email = (tag: string) => uniqueEmail(tag)

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
  // 'unknown': without this, the failures and sign-ups of one test would count against the next.
  beforeEach(async () => {
    await db.execute(sql`delete from rate_windows where scope in ('login_address', 'signup_address')`)
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

    test('creates the account with an argon2id hash and answers with the log-in page; logging in starts a session', async () => {
      const c = await client()
      const address = email('new')
      await c.get('/signup')
      const res = await c.post('/signup', { email: address.toUpperCase(), password: PASSWORD })
      expect(res.status).toBe(200)
      expect(c.html).toContain('<form method="post" action="/login"')
      expect(c.html).toContain(`value="${address}"`)
      expect(c.html).toContain(SIGNED_UP)
      expect(c.cookies.has('antibot_session')).toBe(false)
      const [account] = await rows<{ password_hash: string }>(db, sql`select password_hash from accounts where email = ${address}`)
      expect(account!.password_hash).toStartWith('$argon2id$')
      expect(account!.password_hash).not.toContain(PASSWORD)
      // The token on the answer is good for the log-in form: the form cookie is the same.
      const login = await c.post('/login', { email: address, password: PASSWORD })
      expect(login.status).toBe(303)
      expect(login.headers.get('location')).toBe('/dashboard')
      const dash = await c.get('/dashboard')
      expect(dash.status).toBe(200)
      expect(c.html).toContain(`Signed in as <strong>${address}</strong>`)
    })

    test('the session cookie is HttpOnly, SameSite=Lax, lasts 14 days, and the form cookie is dropped', async () => {
      const c = await client()
      const res = await c.signUp(email('cookie'))
      const cookies = res.headers.getSetCookie()
      const session = cookies.find((x) => x.startsWith('antibot_session='))!
      expect(session).toMatch(/^antibot_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/)
      expect(session).not.toContain('Secure')
      expect(cookies.find((x) => x.startsWith('antibot_form='))).toContain('Max-Age=0')
    })

    test('the session cookie is a Secure __Host- cookie when the request came over HTTPS', async () => {
      const c = new WebClient((await buildTestApp(db)).app, 'https://antibot.example')
      const res = await c.signUp(email('tls'))
      expect(res.status).toBe(303)
      expect(res.headers.getSetCookie().find((x) => x.startsWith('__Host-antibot_session='))).toMatch(/^__Host-antibot_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; Secure; SameSite=Lax$/)
      expect(res.headers.getSetCookie().some((x) => x.startsWith('antibot_session='))).toBe(false)
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

    test('refuses a common password (12345678, password) with a clear message: no account, no log-in with it', async () => {
      for (const password of ['12345678', 'password', 'Password1']) {
        const address = email('common')
        const c = await client()
        await c.get('/signup')
        const res = await c.post('/signup', { email: address, password })
        expect(res.status).toBe(422)
        expect(c.html).toContain('Choose another password: this one is among the most common passwords')
        expect(c.html).toContain(`value="${address}"`)
        expect((await rows(db, sql`select 1 from accounts where email = ${address}`)).length).toBe(0)
        expect((await c.logIn(address, password)).status).toBe(422)
      }
    })

    /** A sign-up's answer with the email and the form token taken out. */
    async function signUpAnswer(address: string, password: string) {
      const c = await client()
      await c.get('/signup')
      const res = await c.post('/signup', { email: address, password })
      return {
        status: res.status,
        // The length differs with the email's; the body is compared below without it.
        headers: [...res.headers].filter(([k]) => k !== 'date' && k !== 'content-length'),
        html: c.html.replaceAll(address, 'EMAIL').replaceAll(c.csrf ?? '-', 'TOKEN'),
        session: c.cookies.has('antibot_session'),
      }
    }
    const passwordHash = async (address: string) =>
      (await rows<{ password_hash: string | null }>(db, sql`select password_hash from accounts where email = ${address}`))[0]?.password_hash

    test('an email that already has an account gets the very same answer as a new one, and the account is left as it was', async () => {
      const taken = email('twice')
      await (await client()).signUp(taken)
      const before = await passwordHash(taken)
      const fresh = email('fresh')
      const existing = await signUpAnswer(taken, 'another password')
      const created = await signUpAnswer(fresh, 'another password')
      expect(existing).toEqual(created)
      expect(existing.status).toBe(200)
      expect(existing.session).toBe(false)
      expect(await passwordHash(taken)).toBe(before!)
      expect(await passwordHash(fresh)).toStartWith('$argon2id$')
      expect((await (await client()).logIn(taken, 'another password')).status).toBe(422)
      expect((await (await client()).logIn(taken, PASSWORD)).status).toBe(303)
    })

    test('cannot take over an account an operator created without a password, nor tell it exists', async () => {
      const address = email('operator')
      await ensureAccount(db, address)
      const other = email('not-operator')
      expect(await signUpAnswer(address, PASSWORD)).toEqual(await signUpAnswer(other, PASSWORD))
      expect(await passwordHash(address)).toBeNull()
      expect((await (await client()).logIn(address, PASSWORD)).status).toBe(422)
    })

    test('ten sign-ups from one address an hour; the eleventh is refused before anything is hashed or stored', async () => {
      const { app, clock } = await buildTestApp(db)
      const c = new WebClient(app)
      await c.get('/signup')
      for (let i = 0; i < 10; i++) expect((await c.post('/signup', { email: email(`burst${i}`), password: PASSWORD })).status).toBe(200)
      await c.get('/signup')
      const refused = email('burst-over')
      const res = await c.post('/signup', { email: refused, password: PASSWORD })
      expect(res.status).toBe(429)
      expect(res.headers.get('retry-after')).toBe('3600')
      expect(c.html).toContain('Cannot sign up: too many sign-ups from this address. Try again in 60 minutes.')
      expect(c.html).toContain(`value="${refused}"`)
      expect(await passwordHash(refused)).toBeUndefined()
      clock.set(new Date(clock().getTime() + 3600_000))
      expect((await c.post('/signup', { email: refused, password: PASSWORD })).status).toBe(200)
      expect(await passwordHash(refused)).toStartWith('$argon2id$')
    })

    test('a form that does not pass its checks is not counted against the address', async () => {
      const c = await client()
      await c.get('/signup')
      for (let i = 0; i < 12; i++) expect((await c.post('/signup', { email: 'not an email', password: PASSWORD })).status).toBe(422)
      expect((await c.post('/signup', { email: email('after-typos'), password: PASSWORD })).status).toBe(200)
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

  describe('bad input is a 4xx naming the field, and nothing is stored or counted', () => {
    /** Posts a raw urlencoded body (so it can hold any percent-escape) with the form's token. */
    async function postRaw(c: WebClient, path: '/login' | '/signup', fields: string) {
      const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
      const body = `${fields}&_csrf=${c.csrf}`
      const res = await c.app.handle(
        new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost', cookie }, body }),
      )
      return { status: res.status, html: await res.text() }
    }
    const accountCount = async () => (await rows<{ n: number }>(db, sql`select count(*)::int as n from accounts`))[0]!.n
    const windowCount = async () => (await rows<{ n: number }>(db, sql`select count(*)::int as n from rate_windows where scope like 'login_%' or scope = 'signup_address'`))[0]!.n

    const EMAILS: Array<[string, string]> = [
      ['a NUL', 'a%00b%40x.y'],
      ['a NUL after the @', 'ab%40x%00.y'],
      ['a line break', 'ab%40x.y%0Aevil'],
      ['a tab', 'a%09b%40x.y'],
      ['DEL', 'a%7Fb%40x.y'],
      ['a C1 control', 'a%C2%85b%40x.y'],
      ['a line separator', 'a%E2%80%A8b%40x.y'],
      ['a byte that is not UTF-8', 'a%FFb%40x.y'],
      ['a truncated UTF-8 sequence', 'ab%40x.y%C3'],
      ['an encoded surrogate', 'a%ED%A0%80b%40x.y'],
      ['an overlong NUL', 'a%C0%80b%40x.y'],
      ['255 characters', `${'a'.repeat(249)}%40x.com`],
    ]

    for (const [what, value] of EMAILS) {
      test(`an email with ${what}: 422 at log-in and at sign-up, named as the email`, async () => {
        const accounts = await accountCount()
        const windows = await windowCount()
        for (const path of ['/login', '/signup'] as const) {
          const c = await client()
          await c.get(path)
          const res = await postRaw(c, path, `email=${value}&password=${encodeURIComponent(PASSWORD)}`)
          expect(res.status).toBe(422)
          expect(res.html).toContain('id="email-error"')
          expect(res.html).toContain('Enter an email address such as name@example.com')
        }
        expect(await accountCount()).toBe(accounts)
        expect(await windowCount()).toBe(windows)
      })
    }

    const PASSWORDS: Array<[string, string]> = [
      ['a NUL', 'correct%00horse'],
      ['a line break', 'correct%0Ahorse'],
      ['a C1 control', 'correct%C2%9Bhorse'],
      ['a byte that is not UTF-8', 'correct%FFhorse'],
      ['an encoded surrogate', 'correct%ED%B0%80horse'],
    ]
    for (const [what, value] of PASSWORDS) {
      test(`a sign-up password with ${what}: 422 named as the password, nothing stored`, async () => {
        const c = await client()
        await c.get('/signup')
        const address = email('badpass')
        const res = await postRaw(c, '/signup', `email=${encodeURIComponent(address)}&password=${value}`)
        expect(res.status).toBe(422)
        expect(res.html).toContain('id="password-error"')
        expect(res.html).toContain('Choose a password without control characters')
        expect(await rows(db, sql`select 1 from accounts where email = ${address}`)).toEqual([])
      })
    }

    test('a log-in password with a NUL or an unreadable byte is just a wrong password', async () => {
      const address = email('nulpass')
      await (await client()).signUp(address)
      for (const value of ['correct%00horse', 'correct%FFhorse']) {
        const c = await client()
        await c.get('/login')
        const res = await postRaw(c, '/login', `email=${encodeURIComponent(address)}&password=${value}`)
        expect(res.status).toBe(422)
        expect(res.html).toContain('Cannot log in: the email or password is not correct.')
      }
    })

    test('over-long passwords are named, and a form over 16 KiB is refused whole', async () => {
      const c = await client()
      await c.get('/signup')
      let res = await postRaw(c, '/signup', `email=${encodeURIComponent(email('long'))}&password=${'x'.repeat(257)}`)
      expect(res.status).toBe(422)
      expect(res.html).toContain('Choose a password of at most 256 characters.')
      await c.get('/login')
      res = await postRaw(c, '/login', `email=${encodeURIComponent(email('long'))}&password=${'x'.repeat(257)}`)
      expect(res.status).toBe(422)
      expect(res.html).toContain('A password has at most 256 characters.')
      res = await postRaw(c, '/login', `email=${encodeURIComponent(email('huge'))}&password=${'x'.repeat(17_000)}`)
      expect(res.status).toBe(413)
    })
  })

  describe('throttling', () => {
    // In-process requests all come from one address, so these tests meet the address limit
    // (10 in 15 minutes); the account limit and several addresses: tests/account-throttle.test.ts.
    test('ten failures from one address lock it for 15 minutes, even against the right password', async () => {
      const address = email('locked')
      await (await client()).signUp(address)
      const { app, clock } = await buildTestApp(db)
      const c = new WebClient(app)
      for (let i = 0; i < 10; i++) expect((await c.logIn(address, `wrong ${i}`)).status).toBe(422)
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
      for (let i = 0; i < 10; i++) expect((await c.logIn(unknown, `wrong ${i}`)).status).toBe(422)
      expect((await c.logIn(unknown, 'wrong again')).status).toBe(429)
    })

    test('a successful log-in takes back only its own count at the address, and clears the account\'s', async () => {
      const address = email('clears')
      await (await client()).signUp(address)
      const c = await client()
      for (let i = 0; i < 9; i++) expect((await c.logIn(address, `wrong ${i}`)).status).toBe(422)
      expect((await c.logIn(address)).status).toBe(303)
      const counts = await rows<{ scope: string; count: number }>(
        db,
        sql`select scope, count::int as count from rate_windows where subject in (${hashSecret(`account:${address}`)}, ${hashSecret('address:unknown')}) order by scope`,
      )
      expect(counts).toEqual([{ scope: 'login_address', count: 9 }])
      const other = await client()
      expect((await other.logIn(address, 'wrong again')).status).toBe(422)
      expect((await other.logIn(address)).status).toBe(429)
    })

    test('ten failures from one address lock that address for every account', async () => {
      // A fresh database: in-process requests all come from the address 'unknown'.
      const own = await openTestDatabase(driver)
      try {
        const { app, clock } = await buildTestApp(own.db)
        const victim = email('victim')
        await new WebClient(app).signUp(victim)
        const c = new WebClient(app)
        for (let i = 0; i < 10; i++) expect((await c.logIn(email(`spray${i}`), 'guess')).status).toBe(422)
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
      for (let i = 0; i < 6; i++) await one.logIn(address, `wrong ${i}`)
      for (let i = 0; i < 4; i++) await two.logIn(address, `wrong ${i}`)
      expect((await one.logIn(address)).status).toBe(429)
      const [row] = await rows<{ failures: number }>(
        db,
        sql`select count::int as failures from rate_windows where scope = 'login_account' and subject = ${hashSecret(`account:${address}`)}`,
      )
      // The eleventh attempt was refused at the address, so the account does not count it.
      expect(row!.failures).toBe(10)
    })

    test('what people typed is not stored in the throttle table', async () => {
      const address = email('private')
      await (await client()).logIn(address, 'wrong')
      const c = await client()
      await c.get('/signup')
      await c.post('/signup', { email: address, password: PASSWORD })
      const found = await rows<{ n: number }>(db, sql`select count(*)::int as n from rate_windows where subject like ${`%${address}%`} or subject like '%unknown%'`)
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

// Transport hardening of the account pages and every HTTPS response, on every test driver:
// - Strict-Transport-Security on responses to HTTPS requests (the HTTPS listener's, or a trusted
//   TLS-terminating proxy's X-Forwarded-Proto: https), as HSTS_MAX_AGE says; never over plain
//   HTTP (src/http/hsts.ts);
// - over HTTPS the session and form cookies are `__Host-` cookies and the flash cookie a
//   `__Secure-` one; a cookie of the plain-HTTP names (which anyone on the plain port, or a
//   sibling subdomain, can plant) is never taken for the HTTPS session or form secret
//   (src/http/web-session.ts cookieName).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { execFile } from 'node:child_process'
import { sql } from 'drizzle-orm'
import { rows, type Db } from '../db/client'
import { parseTrustedProxies } from '../src/core/ip'
import { csrfTokenFor } from '../src/core/csrf'
import { hashSecret } from '../src/core/keys'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { startServer } from './support/server'
import { WebClient } from './support/web-client'
import { uniqueEmail } from './support/unique'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const PASSWORD = 'correct horse battery'
const email = (tag: string) => uniqueEmail(tag)
const HTTPS = 'https://antibot.example'
const HTTP = 'http://antibot.example'

describe.each(testDrivers())('transport security on %s', (driver) => {
  let tdb: TestDatabase
  let db: Db

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    db = tdb.db
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  describe('Strict-Transport-Security', () => {
    test('is on every response to an HTTPS request: pages, the API, assets, errors', async () => {
      const { app } = await buildTestApp(db, { hstsMaxAge: 31_536_000 })
      for (const [path, init] of [
        ['/', {}],
        ['/tools/http-headers', {}],
        ['/login', {}],
        ['/api/antibot/tasks/00000000-0000-4000-8000-000000000001', {}],
        ['/api/antibot/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tool":"http-headers","results":{}}' }],
        ['/openapi.json', {}],
        ['/no/such/page', {}],
      ] as const) {
        const res = await app.handle(new Request(HTTPS + path, init as RequestInit))
        expect([path, res.headers.get('strict-transport-security')]).toEqual([path, 'max-age=31536000'])
      }
      const asset = /(?:src|href)="(\/assets\/[^"]+)"/.exec(await (await app.handle(new Request(`${HTTPS}/`))).text())?.[1]
      expect(asset).toBeDefined()
      const res = await app.handle(new Request(HTTPS + asset!))
      expect(res.status).toBe(200)
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000')
    })

    test('is never sent over plain HTTP, nor when HSTS is off', async () => {
      const on = (await buildTestApp(db, { hstsMaxAge: 31_536_000 })).app
      const off = (await buildTestApp(db)).app
      expect((await on.handle(new Request(`${HTTP}/`))).headers.get('strict-transport-security')).toBeNull()
      expect((await off.handle(new Request(`${HTTPS}/`))).headers.get('strict-transport-security')).toBeNull()
    })

    test('behind a trusted TLS-terminating proxy, follows its X-Forwarded-Proto; anyone else\'s is ignored', async () => {
      const behind = (await buildTestApp(db, { hstsMaxAge: 600, trustedProxies: parseTrustedProxies('127.0.0.1') })).app
      const direct = (await buildTestApp(db, { hstsMaxAge: 600 })).app
      const sts = async (app: typeof behind, proto: string) => {
        app.listen({ port: 0, hostname: '127.0.0.1' })
        try {
          return (await fetch(`http://127.0.0.1:${app.server!.port}/`, { headers: { 'x-forwarded-proto': proto } })).headers.get('strict-transport-security')
        } finally {
          await app.stop()
        }
      }
      expect(await sts(behind, 'https')).toBe('max-age=600')
      expect(await sts(direct, 'https')).toBeNull()
    })
  })

  describe('cookies over HTTPS', () => {
    test('the form cookie is __Host-, the session cookie __Host-, the flash cookie __Secure-: Secure, no Domain', async () => {
      const c = new WebClient((await buildTestApp(db)).app, HTTPS)
      const page = await c.get('/signup')
      const form = page.headers.getSetCookie()
      expect(form).toHaveLength(1)
      expect(form[0]).toMatch(/^__Host-antibot_form=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
      const login = await c.signUp(email('host'))
      const set = login.headers.getSetCookie()
      expect(set.find((x) => x.startsWith('__Host-antibot_session='))).toMatch(/; Path=\/; Max-Age=1209600; HttpOnly; Secure; SameSite=Lax$/)
      expect(set.find((x) => x.startsWith('__Host-antibot_form='))).toContain('Max-Age=0')
      for (const cookie of set) expect(cookie).not.toMatch(/Domain=/i)
      await c.get('/dashboard')
      const created = await c.post('/dashboard/keys', { name: 'k', plan: 'free', expires: '' })
      expect(created.status).toBe(303)
      const flash = created.headers.getSetCookie().find((x) => x.startsWith('__Secure-antibot_flash='))
      expect(flash).toMatch(/; Path=\/dashboard; Max-Age=300; HttpOnly; Secure; SameSite=Lax$/)
      await c.follow(created)
      expect(c.html).toMatch(/id="new-key-secret">\s*ab_/)
      const out = await c.post('/logout')
      expect(out.headers.getSetCookie().find((x) => x.startsWith('__Host-antibot_session='))).toContain('Max-Age=0')
    })

    test('a session cookie of the plain-HTTP name, with a valid token, does not open the HTTPS dashboard', async () => {
      const overHttp = new WebClient((await buildTestApp(db)).app, HTTP)
      await overHttp.signUp(email('planted'))
      const token = overHttp.cookies.get('antibot_session')!
      expect((await rows(db, sql`select 1 from sessions where token_hash = ${hashSecret(token)}`)).length).toBe(1)
      // The same browser (or whoever planted the cookie over plain HTTP) now asks over HTTPS.
      const https = new WebClient(overHttp.app, HTTPS)
      https.cookies.set('antibot_session', token)
      const res = await https.get('/dashboard')
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/login')
      // Plain HTTP keeps working with its own cookie.
      expect((await overHttp.get('/dashboard')).status).toBe(200)
    })

    test("a form secret planted under the plain-HTTP name cannot log a browser in over HTTPS (log-in CSRF)", async () => {
      const attacker = email('attacker')
      await new WebClient((await buildTestApp(db)).app, HTTP).signUp(attacker)
      const victim = new WebClient((await buildTestApp(db)).app, HTTPS)
      const planted = 'A'.repeat(43)
      victim.cookies.set('antibot_form', planted)
      const res = await victim.post('/login', { email: attacker, password: PASSWORD }, { csrf: csrfTokenFor(planted) })
      expect(res.status).toBe(403)
      expect(res.headers.getSetCookie().some((x) => /antibot_session=/.test(x))).toBe(false)
    })

    test('over plain HTTP the cookies keep their plain names, and a __Host- cookie is not read there', async () => {
      const https = new WebClient((await buildTestApp(db)).app, HTTPS)
      await https.signUp(email('both'))
      const token = https.cookies.get('__Host-antibot_session')!
      expect((await https.get('/dashboard')).status).toBe(200)
      const plain = new WebClient(https.app, HTTP)
      plain.cookies.set('__Host-antibot_session', token)
      expect((await plain.get('/dashboard')).status).toBe(303)
      const page = await plain.get('/login')
      expect(page.headers.getSetCookie()[0]).toMatch(/^antibot_form=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/)
    })
  })
})

/** The response head curl gets (-k: the self-signed certificate). */
function head(url: string, http: '--http2' | '--http1.1'): Promise<string> {
  return new Promise((resolve, reject) => execFile('curl', ['-sk', '-m', '20', http, '-o', '/dev/null', '-D', '-', url], { timeout: 30_000 }, (err, out) => (err ? reject(err) : resolve(out))))
}
const stsOf = (h: string) => /^strict-transport-security: *(.*?)\r?$/im.exec(h)?.[1] ?? null

describe('Strict-Transport-Security from the service as started', () => {
  test(
    'HSTS_MAX_AGE=300: on the HTTPS listener over HTTP/2 and HTTP/1.1, not on the plain port; none by default with the self-signed certificate',
    async () => {
      const on = await startServer({ HSTS_MAX_AGE: '300' })
      try {
        for (const http of ['--http2', '--http1.1'] as const) {
          expect(stsOf(await head(`${on.tlsUrl}/`, http))).toBe('max-age=300')
          expect(stsOf(await head(`${on.tlsUrl}/no-such-page`, http))).toBe('max-age=300')
        }
        expect(stsOf(await head(`${on.baseUrl}/`, '--http1.1'))).toBeNull()
      } finally {
        await on.stop()
      }
      const byDefault = await startServer()
      try {
        expect(stsOf(await head(`${byDefault.tlsUrl}/`, '--http2'))).toBeNull()
      } finally {
        await byDefault.stop()
      }
    },
    120_000,
  )
})


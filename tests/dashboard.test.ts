// The dashboard's keys over HTTP through app.handle(), on every test driver: create (shown
// once), rotate, deactivate, activate, change expiry, delete with confirmation, usage figures;
// every post checked for Origin and CSRF token; one account can never see or touch another's
// keys; and what people type comes back escaped. Plain form posts get 303s, htmx gets fragments.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Db } from '../db/client'
import { readDashboard } from '../db/dashboard'
import { monthKey } from '../src/core/month'
import { buildTestApp, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { WebClient } from './support/web-client'
import { uniqueEmail, uniqueName } from './support/unique'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const email = (tag: string) => uniqueEmail(tag)

type App = WebClient['app']

async function createTask(app: App): Promise<string> {
  const res = await app.handle(
    new Request('http://localhost/api/antibot/tasks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'bot-detector', results: specBotResults() }),
    }),
  )
  expect(res.status).toBe(201)
  return ((await res.json()) as { task_id: string }).task_id
}

async function fetchTask(app: App, taskId: string, key: string): Promise<number> {
  const res = await app.handle(new Request(`http://localhost/api/antibot/tasks/${taskId}`, { headers: { authorization: `Bearer ${key}` } }))
  return res.status
}

/** The text of a key's table row, tags removed. */
function rowText(html: string, keyId: string): string {
  const m = new RegExp(`<tr id="key-${keyId}"[^>]*>([\\s\\S]*?)</tr>`).exec(html)
  return m ? m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim() : ''
}

// In-process requests all come from one address ('unknown'), and this suite signs up dozens of
// accounts: room beyond the sign-up throttle (tests/accounts.test.ts tests that one).
const MANY_SIGNUPS = { max: 1_000, windowSeconds: 3600 }

describe.each(testDrivers())('dashboard keys over HTTP on %s', (driver) => {
  let tdb: TestDatabase
  let db: Db
  let app: App
  let clock: Awaited<ReturnType<typeof buildTestApp>>['clock']
  let taskId: string

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    db = tdb.db
    ;({ app, clock } = await buildTestApp(db, { signupLimit: MANY_SIGNUPS }))
    taskId = await createTask(app)
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  async function signedIn(tag = 'user'): Promise<WebClient> {
    const c = new WebClient(app)
    await c.signUp(email(tag))
    return c
  }

  describe('the page', () => {
    test('has a Plans section with the plans and their monthly limits, the key form and a link to the docs', async () => {
      const c = await signedIn()
      expect(c.html).toContain('<h2 id="plans-title">Plans</h2>')
      expect(c.html).toContain('<th scope="row">free</th><td>1,000 requests</td>')
      // Only the self-serve plan (issue 57); the operator assigns the others.
      expect(c.html).not.toContain('<th scope="row">pro</th>')
      expect(c.html).toContain("A plan's limit is one allowance per account: all your keys on a plan share it")
      for (const label of ['Name', 'Plan', 'Expires']) expect(c.html).toMatch(new RegExp(`<label for="key-[a-z]+">${label}</label>`))
      expect(c.html).toContain('<button type="submit">Create key</button>')
      expect(c.html).toContain('href="/docs"')
      expect(c.html).toContain('No keys yet.')
    })

    test('loads the pinned htmx and sends the CSRF token from <body>', async () => {
      const c = await signedIn()
      expect(c.html).toMatch(/<script src="\/assets\/htmx\.[0-9a-f]{12}\.js" defer><\/script>/)
      expect(c.html).toContain(`hx-headers="{&#34;X-CSRF-Token&#34;:&#34;${c.csrf}&#34;}"`)
    })

    test('is not cached and cannot be framed', async () => {
      const c = new WebClient(app)
      await c.signUp(email('headers'))
      const res = await c.get('/dashboard')
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    })
  })

  describe('creating a key', () => {
    test('without JavaScript: 303 to the dashboard, which shows the key once', async () => {
      const c = await signedIn()
      await c.get('/dashboard')
      const res = await c.post('/dashboard/keys', { name: 'ci', plan: 'free', expires: '' })
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/dashboard')
      const flash = res.headers.getSetCookie().find((x) => x.startsWith('antibot_flash='))!
      expect(flash).toContain('Path=/dashboard')
      expect(flash).toContain('HttpOnly')
      expect(flash).not.toMatch(/ab_[0-9A-Za-z]{38}/)
      await c.follow(res)
      const key = /id="new-key-secret">(ab_[0-9A-Za-z]{38})</.exec(c.html)?.[1]
      expect(key).toBeDefined()
      expect(c.html).toContain('you will not see it again')
      expect(c.html).toContain('data-copy="new-key-secret"')
      expect(c.html).toContain(`<code>${key!.slice(0, 7)}…${key!.slice(-4)}</code>`)
      await c.get('/dashboard')
      expect(c.html).not.toContain(key!)
      expect(c.html).not.toContain('you will not see it again')
      expect(await fetchTask(app, taskId, key!)).toBe(200)
    })

    test('with htmx: the keys panel comes back with the key, no redirect', async () => {
      const c = await signedIn()
      const res = await c.post('/dashboard/keys', { name: 'htmx', plan: 'free', expires: '' }, { htmx: true })
      expect(res.status).toBe(200)
      expect(res.headers.get('vary')).toContain('HX-Request')
      expect(c.html).toStartWith('<div id="keys-panel"')
      expect(c.html).not.toContain('<html')
      expect(c.html).toContain('<div id="alert" role="alert" hx-swap-oob="true"></div>')
      const key = /id="new-key-secret">(ab_[0-9A-Za-z]{38})</.exec(c.html)![1]!
      expect(await fetchTask(app, taskId, key)).toBe(200)
    })

    test('keeps what was typed and says what is wrong', async () => {
      const c = await signedIn()
      const res = await c.post('/dashboard/keys', { name: 'mine', plan: 'gold', expires: '2020-01-01' })
      expect(res.status).toBe(422)
      expect(c.html).toContain('Choose one of the plans: free.')
      expect(c.html).toContain('Choose a date in the future, or leave it empty for no expiry.')
      expect(c.html).toContain('value="mine"')
      expect(c.html).toContain('No keys yet.')
    })

    test('with an expiry: the key works until then and gets 403 after', async () => {
      const { app: own, clock: ownClock } = await buildTestApp(db, { signupLimit: MANY_SIGNUPS })
      const c = new WebClient(own)
      await c.signUp(email('expiry'))
      const { key, id } = await c.createKey({ name: 'short', expires: '2026-11-20' })
      expect(rowText(c.html, id)).toContain('2026-11-20 00:00 UTC')
      expect(await fetchTask(own, taskId, key)).toBe(200)
      ownClock.set('2026-11-20T00:00:00Z')
      expect(await fetchTask(own, taskId, key)).toBe(403)
      await c.get('/dashboard')
      expect(rowText(c.html, id)).toContain('Expired')
    })
  })

  describe('changing a key', () => {
    test('Deactivate makes the API answer 403; Activate brings it back', async () => {
      const c = await signedIn()
      const { key, id } = await c.createKey()
      expect(rowText(c.html, id)).toContain('Active')
      const off = await c.post(`/dashboard/keys/${id}/deactivate`, {}, { htmx: true })
      expect(off.status).toBe(200)
      expect(rowText(c.html, id)).toContain('Inactive')
      expect(c.html).toContain('requests with it get 403 until you activate it')
      expect(c.html).toMatch(/<button type="submit" class="secondary">Activate<\/button>/)
      expect(await fetchTask(app, taskId, key)).toBe(403)
      const on = await c.post(`/dashboard/keys/${id}/activate`)
      expect(on.status).toBe(303)
      await c.follow(on)
      expect(c.html).toContain('is active again')
      expect(await fetchTask(app, taskId, key)).toBe(200)
    })

    test('Rotate: the old secret gets 401, the new one works, the usage stays', async () => {
      const c = await signedIn()
      const { key, id } = await c.createKey()
      expect(await fetchTask(app, taskId, key)).toBe(200)
      const res = await c.post(`/dashboard/keys/${id}/rotate`, {}, { htmx: true })
      expect(res.status).toBe(200)
      expect(c.html).toContain('New secret for key')
      expect(c.html).toContain('you will not see it again')
      const fresh = /id="new-key-secret">(ab_[0-9A-Za-z]{38})</.exec(c.html)![1]!
      expect(fresh).not.toBe(key)
      expect(await fetchTask(app, taskId, key)).toBe(401)
      expect(await fetchTask(app, taskId, fresh)).toBe(200)
      await c.get('/dashboard')
      expect(rowText(c.html, id)).toContain('2 / 1000')
    })

    test('Rotate without JavaScript shows the new secret after the redirect', async () => {
      const c = await signedIn()
      const { id } = await c.createKey()
      const res = await c.post(`/dashboard/keys/${id}/rotate`)
      expect(res.status).toBe(303)
      await c.follow(res)
      const fresh = /id="new-key-secret">(ab_[0-9A-Za-z]{38})</.exec(c.html)![1]!
      expect(await fetchTask(app, taskId, fresh)).toBe(200)
    })

    test('the expiry can be set, refused when in the past, and removed', async () => {
      const c = await signedIn()
      const { id } = await c.createKey()
      const bad = await c.post(`/dashboard/keys/${id}/expiry`, { expires: '2026-01-01' }, { htmx: true })
      expect(bad.status).toBe(422)
      expect(c.html).toContain('Choose a date in the future')
      expect(c.html).toContain('value="2026-01-01"')
      await c.post(`/dashboard/keys/${id}/expiry`, { expires: '2027-03-01' }, { htmx: true })
      expect(c.html).toContain('now expires 2027-03-01 (00:00 UTC)')
      expect(rowText(c.html, id)).toContain('2027-03-01 00:00 UTC')
      await c.post(`/dashboard/keys/${id}/expiry`, { expires: '' }, { htmx: true })
      expect(c.html).toContain('no longer expires')
      expect(rowText(c.html, id)).toContain('Never')
    })

    test('Delete asks first, without JavaScript as a page and with htmx as a row', async () => {
      const c = await signedIn()
      const { key, id } = await c.createKey({ name: 'doomed' })
      const ask = await c.get(`/dashboard/keys/${id}/delete`)
      expect(ask.status).toBe(200)
      expect(c.html).toContain('<!doctype html>')
      expect(c.html).toContain('Delete key “<span>doomed</span>”?')
      const row = await c.get(`/dashboard/keys/${id}/delete`, { 'hx-request': 'true' })
      expect(row.status).toBe(200)
      expect(c.html).toStartWith(`<tr id="key-${id}" class="confirm">`)
      expect(await fetchTask(app, taskId, key)).toBe(200)
      const gone = await c.post(`/dashboard/keys/${id}/delete`)
      expect(gone.status).toBe(303)
      await c.follow(gone)
      expect(c.html).toContain('Key “doomed” deleted.')
      expect(c.html).not.toContain(`key-${id}`)
      expect(await fetchTask(app, taskId, key)).toBe(401)
    })
  })

  describe('usage', () => {
    test('shows n / limit with a bar, the last use, and the month in the chart', async () => {
      const c = await signedIn()
      const { key, id } = await c.createKey()
      expect(rowText(c.html, id)).toContain('0 / 1000')
      expect(rowText(c.html, id)).toContain('Never')
      expect(await fetchTask(app, taskId, key)).toBe(200)
      await c.get('/dashboard')
      expect(rowText(c.html, id)).toContain('1 / 1000')
      expect(rowText(c.html, id)).toContain('2026-11-15 12:00 UTC')
      expect(c.html).toContain('<span style="width:0.1%"></span>')
      expect(c.html).toContain('<title id="usage-chart-title">Requests per day, November 2026</title>')
      expect(c.html).toContain('1 request in November 2026; the busiest day was 15 November with 1 request.')
      expect(c.html).toContain('<title>15 November: 1 request</title>')
    })

    test('the figures are read in one transaction and add up across keys', async () => {
      const c = await signedIn()
      const a = await c.createKey({ name: 'a' })
      const b = await c.createKey({ name: 'b' })
      for (const k of [a.key, a.key, b.key]) expect(await fetchTask(app, taskId, k)).toBe(200)
      await c.get('/dashboard')
      expect(c.html).toContain('3 requests in November 2026')
      const accountId = (await readDashboard(db, { accountId: '00000000-0000-4000-8000-000000000000', month: monthKey(clock()) })).keys
      expect(accountId).toEqual([])
    })
  })

  describe('forged requests', () => {
    test('a post from another site is refused with 403 and changes nothing', async () => {
      const c = await signedIn()
      const { key, id } = await c.createKey()
      const res = await c.post(`/dashboard/keys/${id}/deactivate`, {}, { origin: 'http://evil.example' })
      expect(res.status).toBe(403)
      expect(c.html).toContain('Cannot deactivate the key: the request did not come from a page of this site.')
      expect(await fetchTask(app, taskId, key)).toBe(200)
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { origin: 'http://localhost:8080' })).status).toBe(403)
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { origin: 'http://localhost.evil.example' })).status).toBe(403)
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { origin: 'null' })).status).toBe(403)
    })

    test('behind a TLS proxy not listed in TRUSTED_PROXIES, a post from https:// on the same host is accepted', async () => {
      const c = await signedIn()
      await c.get('/dashboard')
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { origin: 'https://localhost' })).status).toBe(303)
    })

    test('an http:// page cannot post to the site served over HTTPS', async () => {
      const c = new WebClient(app, 'https://antibot.example')
      await c.signUp(email('tls'))
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { origin: 'http://antibot.example' })).status).toBe(403)
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { origin: 'https://antibot.example' })).status).toBe(303)
    })

    test('a post without Origin is accepted only with a same-site Referer', async () => {
      const c = await signedIn()
      await c.get('/dashboard')
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { origin: null })).status).toBe(403)
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { origin: null, referer: 'http://evil.example/' })).status).toBe(403)
      await c.get('/dashboard')
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { origin: null, referer: 'http://localhost/dashboard' })).status).toBe(303)
    })

    test('a post without the CSRF token, or with another session’s, is refused with 403', async () => {
      const c = await signedIn()
      const { key, id } = await c.createKey()
      const other = await signedIn('other')
      const res = await c.post(`/dashboard/keys/${id}/deactivate`, {}, { csrf: null })
      expect(res.status).toBe(403)
      expect(c.html).toContain('security token is missing or out of date')
      expect((await c.post(`/dashboard/keys/${id}/deactivate`, {}, { csrf: other.csrf })).status).toBe(403)
      expect((await c.post(`/dashboard/keys/${id}/deactivate`, {}, { csrf: null, htmx: true })).status).toBe(403)
      expect(await fetchTask(app, taskId, key)).toBe(200)
    })

    test('htmx refusals go to the alert area', async () => {
      const c = await signedIn()
      const res = await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { htmx: true, origin: 'http://evil.example' })
      expect(res.status).toBe(403)
      expect(res.headers.get('hx-retarget')).toBe('#alert')
      expect(res.headers.get('hx-reswap')).toBe('innerHTML')
      expect(c.html).toBe('<p class="error">Cannot create the key: the request did not come from a page of this site.</p>')
    })

    test('a key post without a session is sent to /login', async () => {
      const c = new WebClient(app)
      const res = await c.post('/dashboard/keys', { name: 'x', plan: 'free' }, { csrf: 'anything' })
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/login')
    })
  })

  describe('accounts are isolated', () => {
    test('a second account sees none of the first one’s keys', async () => {
      const first = await signedIn('first')
      const { id } = await first.createKey({ name: 'first-secret-name' })
      const second = await signedIn('second')
      await second.get('/dashboard')
      expect(second.html).not.toContain(id)
      expect(second.html).not.toContain('first-secret-name')
      expect(second.html).toContain('No keys yet.')
    })

    test('every action on another account’s key is a 404 and changes nothing', async () => {
      const first = await signedIn('owner')
      const { key, id } = await first.createKey({ name: 'owned' })
      const second = await signedIn('intruder')
      await second.createKey({ name: 'mine' })
      for (const action of ['rotate', 'deactivate', 'activate', 'delete']) {
        const res = await second.post(`/dashboard/keys/${id}/${action}`)
        expect({ action, status: res.status }).toEqual({ action, status: 404 })
        expect(second.html).toContain('there is no such key in your account')
      }
      expect((await second.post(`/dashboard/keys/${id}/expiry`, { expires: '2027-01-01' })).status).toBe(404)
      expect((await second.post(`/dashboard/keys/${id}/expiry`, { expires: 'junk' })).status).toBe(404)
      expect((await second.get(`/dashboard/keys/${id}/delete`)).status).toBe(404)
      expect((await second.post(`/dashboard/keys/${id}/rotate`, {}, { htmx: true })).status).toBe(404)
      expect(await fetchTask(app, taskId, key)).toBe(200)
      await first.get('/dashboard')
      expect(rowText(first.html, id)).toContain('Active')
      expect(rowText(first.html, id)).toContain('Never')
    })

    test('a key id that is not a UUID is a 404 too', async () => {
      const c = await signedIn()
      await c.get('/dashboard')
      expect((await c.post('/dashboard/keys/not-a-uuid/rotate')).status).toBe(404)
    })
  })

  describe('escaping', () => {
    test('a key name and an email with markup come back as text', async () => {
      const c = new WebClient(app)
      const address = `<svg/onload=alert(1)>${uniqueName('x')}@example.test`
      await c.signUp(address)
      expect(c.html).not.toContain('<svg/onload')
      expect(c.html).toContain('Signed in as <strong>&lt;svg/onload=alert(1)&gt;')
      const { id } = await c.createKey({ name: '<script>alert("x")</script>' })
      expect(c.html).not.toContain('<script>alert')
      expect(c.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
      await c.get(`/dashboard/keys/${id}/delete`, { 'hx-request': 'true' })
      expect(c.html).not.toContain('<script>alert')
    })
  })
})

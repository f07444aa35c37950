// Plan visibility and the key cap from both sides, on every test driver: the operator's plans
// are not self-serve unless the operator says so, an account's dashboard neither lists nor
// accepts them, and the operator can still give that account a key on one (or move a key to
// one); the operator is not held to MAX_KEYS_PER_ACCOUNT while the dashboard is. And the
// security review's inputs that used to answer 500 (some after storing an account): each is
// now a 422 naming the field, with nothing stored.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { rows } from '../db/client'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { WebClient } from './support/web-client'
import { uniqueEmail } from './support/unique'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const BASE = 'http://localhost'
const ADMIN = 'test-admin-token-0123456789'
const MAX_KEYS = 3
const email = (tag: string) => uniqueEmail(tag)

type App = Awaited<ReturnType<typeof buildTestApp>>['app']

/** The text of a key's table row, tags removed. */
function rowText(html: string, keyId: string): string {
  const m = new RegExp(`<tr id="key-${keyId}"[^>]*>([\\s\\S]*?)</tr>`).exec(html)
  return m ? m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim() : ''
}

describe.each(testDrivers())('plan visibility, the key cap and bad operator input on %s', (driver) => {
  let tdb: TestDatabase
  let app: App

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    // In-process requests share one address: room beyond the sign-up throttle for this suite's accounts.
    ;({ app } = await buildTestApp(tdb.db, { adminToken: ADMIN, maxKeysPerAccount: MAX_KEYS, signupLimit: { max: 1_000, windowSeconds: 3600 } }))
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await app.handle(
      new Request(`${BASE}/api/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & Array<Record<string, unknown>> }
  }
  const counts = async () =>
    (await rows<{ accounts: number; keys: number }>(tdb.db, sql`select (select count(*) from accounts)::int as accounts, (select count(*) from api_keys)::int as keys`))[0]!

  async function signedIn(tag: string): Promise<{ c: WebClient; address: string }> {
    const c = new WebClient(app)
    const address = email(tag)
    await c.signUp(address)
    return { c, address }
  }

  describe('plan visibility', () => {
    test('a new plan is not self-serve unless asked; GET /plans says which are', async () => {
      expect(await admin('POST', '/plans', { name: 'internal-unlimited', monthly_limit: 2_000_000_000 })).toMatchObject({
        status: 201,
        body: { name: 'internal-unlimited', monthly_limit: 2_000_000_000, self_serve: false },
      })
      expect(await admin('POST', '/plans', { name: 'starter', monthly_limit: 100, self_serve: true })).toMatchObject({ status: 201, body: { self_serve: true } })
      const { body: plans } = await admin('GET', '/plans')
      const visibility = Object.fromEntries(plans.map((p) => [p.name, p.self_serve]))
      // Of the seeded plans only free is self-serve (issue 57).
      expect(visibility).toMatchObject({ free: true, pro: false, business: false, starter: true, 'internal-unlimited': false })
    })

    test('changing a plan’s limit keeps its visibility unless self_serve is sent; self_serve must be a boolean', async () => {
      await admin('POST', '/plans', { name: 'flip', monthly_limit: 10, self_serve: true })
      expect((await admin('POST', '/plans', { name: 'flip', monthly_limit: 20 })).body).toMatchObject({ monthly_limit: 20, self_serve: true })
      expect((await admin('POST', '/plans', { name: 'flip', monthly_limit: 20, self_serve: false })).body).toMatchObject({ self_serve: false })
      const bad = await admin('POST', '/plans', { name: 'flip', monthly_limit: 20, self_serve: 'yes' })
      expect(bad).toMatchObject({ status: 422, body: { error: expect.stringContaining('Cannot save plan: self_serve: ') as unknown } })
      expect((await admin('GET', '/plans')).body.find((p) => p.name === 'flip')).toMatchObject({ monthly_limit: 20, self_serve: false })
    })

    test('the dashboard neither lists nor accepts an operator-only plan, and stores nothing', async () => {
      await admin('POST', '/plans', { name: 'hidden-plan', monthly_limit: 2_000_000_000 })
      const { c } = await signedIn('visible')
      await c.get('/dashboard')
      expect(c.html).not.toContain('hidden-plan')
      expect(c.html).toMatch(/<option value="free"( selected)?>free<\/option>/)
      const before = await counts()
      const res = await c.post('/dashboard/keys', { name: 'greedy', plan: 'hidden-plan', expires: '' })
      expect(res.status).toBe(422)
      const error = /<p class="field-error" id="key-plan-error">Choose one of the plans: ([a-z, -]+)\.<\/p>/.exec(c.html)?.[1]
      expect(error?.split(', ')).toEqual(expect.arrayContaining(['free']))
      expect(error?.split(', ')).not.toEqual(expect.arrayContaining(['business']))
      expect(error).not.toContain('hidden-plan')
      expect(c.html).not.toContain('hidden-plan</option>')
      expect(c.html).toContain('No keys yet.')
      expect(await counts()).toEqual(before)
    })

    test('an operator gives the account a key on that plan, or moves its key there; the dashboard shows it', async () => {
      await admin('POST', '/plans', { name: 'customer-x', monthly_limit: 2_000_000_000 })
      const { c, address } = await signedIn('customer')
      const given = await admin('POST', '/keys', { email: address, plan: 'customer-x', name: 'contract' })
      expect(given).toMatchObject({ status: 201, body: { plan: 'customer-x', email: address } })
      const own = await c.createKey({ name: 'own', plan: 'free' })
      expect((await admin('PATCH', `/keys/${own.id}`, { plan: 'customer-x' })).body).toMatchObject({ plan: 'customer-x' })
      await c.get('/dashboard')
      for (const id of [given.body.id as string, own.id]) expect(rowText(c.html, id)).toContain('customer-x')
      expect(rowText(c.html, own.id)).toContain('0 / 2000000000')
      // The plan is still not offered for new keys.
      expect(c.html).not.toContain('<option value="customer-x"')
    })

    test('a new account is offered only the free plan: business is neither listed nor accepted; the operator assigns it (issue 57)', async () => {
      const { c, address } = await signedIn('self-serve')
      await c.get('/dashboard')
      expect(c.html).toMatch(/<option value="free"( selected)?>free<\/option>/)
      for (const plan of ['pro', 'business']) {
        expect(c.html).not.toContain(`<option value="${plan}"`)
        const res = await c.post('/dashboard/keys', { name: 'greedy', plan, expires: '' })
        expect(res.status).toBe(422)
      }
      expect((await rows<{ n: number }>(tdb.db, sql`select count(*)::int as n from api_keys k join accounts a on a.id = k.account_id where a.email = ${address}`))[0]!.n).toBe(0)
      // The operator can still give the account a key on business, or make a plan self-serve.
      expect(await admin('POST', '/keys', { email: address, plan: 'business', name: 'assigned' })).toMatchObject({ status: 201, body: { plan: 'business' } })
      await c.get('/dashboard')
      expect(c.html).toContain('all your keys on a plan share it')
    })

    test('a plan made self-serve is offered and accepted', async () => {
      await admin('POST', '/plans', { name: 'opened', monthly_limit: 7 })
      await admin('POST', '/plans', { name: 'opened', monthly_limit: 7, self_serve: true })
      const { c } = await signedIn('opened')
      await c.get('/dashboard')
      expect(c.html).toMatch(/<option value="opened"( selected)?>opened<\/option>/)
      const { id } = await c.createKey({ name: 'o', plan: 'opened' })
      expect(rowText(c.html, id)).toContain('0 / 7')
    })
  })

  describe('the key cap', () => {
    test(`the dashboard creates ${MAX_KEYS} keys, then refuses with 409 and says why; deleting one makes room`, async () => {
      const { c } = await signedIn('cap')
      const ids: string[] = []
      for (let i = 0; i < MAX_KEYS; i++) ids.push((await c.createKey({ name: `k${i}` })).id)
      expect(c.html).toContain(`You have ${MAX_KEYS} keys, the most an account can have (${MAX_KEYS}): delete one to create another.`)
      const before = await counts()
      const res = await c.post('/dashboard/keys', { name: 'one too many', plan: 'free', expires: '' })
      expect(res.status).toBe(409)
      expect(c.html).toContain(
        `<p class="field-error" id="key-keys-error">You already have ${MAX_KEYS} keys, the most an account can have (${MAX_KEYS}). Delete a key you no longer use to create another.</p>`,
      )
      expect(c.html).toContain('value="one too many"')
      expect(c.html).toContain('<button type="submit" aria-describedby="key-keys-error">Create key</button>')
      expect(await counts()).toEqual(before)
      const htmx = await c.post('/dashboard/keys', { name: 'again', plan: 'free', expires: '' }, { htmx: true })
      expect(htmx.status).toBe(409)
      expect(c.html).toStartWith('<div id="keys-panel"')
      expect(c.html).toContain('id="key-keys-error"')
      expect((await c.post(`/dashboard/keys/${ids[0]}/delete`)).status).toBe(303)
      await c.createKey({ name: 'room again' })
      expect(await counts()).toEqual(before)
    })

    test('keys count whatever their state, and an operator is not held to the cap', async () => {
      const { c, address } = await signedIn('operator-made')
      for (let i = 0; i < MAX_KEYS + 2; i++) expect((await admin('POST', '/keys', { email: address, plan: 'free', name: `op${i}` })).status).toBe(201)
      const id = (await admin('POST', '/keys', { email: address, plan: 'pro' })).body.id as string
      expect((await admin('PATCH', `/keys/${id}`, { status: 'inactive', expires_at: '2026-01-01' })).status).toBe(200)
      await c.get('/dashboard')
      expect(c.html).toContain(`You have ${MAX_KEYS + 3} keys, the most an account can have (${MAX_KEYS})`)
      expect((await c.post('/dashboard/keys', { name: 'x', plan: 'free', expires: '' })).status).toBe(409)
    })
  })

  describe('bad operator input: 422 naming the field, nothing stored', () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['an expiry in year 0', { expires_at: '0000-01-01' }, /^Cannot create key: expires_at must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z once in UTC, got '0000-01-01'$/],
      ['an expiry that rolls past 9999', { expires_at: '9999-12-31T23:59:59-23:59' }, /^Cannot create key: expires_at must lie between .* got '9999-12-31T23:59:59-23:59'$/],
      ['an expiry before 1970 in UTC', { expires_at: '1970-01-01T00:30:00+01:00' }, /^Cannot create key: expires_at must lie between/],
      ['U+0000 in the email', { email: 'nul\u0000@example.test' }, /^Cannot create key: email: must not contain control characters or line breaks$/],
      ['U+0000 in the name', { name: 'ci\u0000' }, /^Cannot create key: name: must not contain control characters or line breaks$/],
      ['a line break in the name', { name: 'a\nb' }, /^Cannot create key: name: must not contain control characters or line breaks$/],
      ['an unpaired surrogate in the name', { name: 'x\ud800' }, /^Cannot create key: name: must not contain unpaired UTF-16 surrogates$/],
      ['an unpaired surrogate in the email', { email: '\udc00@example.test' }, /^Cannot create key: email: must not contain unpaired UTF-16 surrogates$/],
      ['a blank name', { name: '   ' }, /^Cannot create key: name: must not be blank$/],
      ['U+0000 in the plan', { plan: 'fr\u0000ee' }, /^Cannot create key: unknown plan 'fr.ee' \(plans: /],
      ['a plan name too long to exist', { plan: 'p'.repeat(5000) }, /^Cannot create key: unknown plan 'p{64}…' \(plans: /],
    ]
    test.each(cases)('POST /keys with %s', async (_what, patch, error) => {
      const address = email('bad')
      const before = await counts()
      const res = await admin('POST', '/keys', { email: address, plan: 'free', name: 'k', ...patch })
      expect(res.status).toBe(422)
      expect(res.body.error as string).toMatch(error)
      expect(await counts()).toEqual(before)
    })

    test('PATCH /keys/{id} with the same expiries, plans and a bad status: 422, the key unchanged', async () => {
      const id = (await admin('POST', '/keys', { email: email('patch'), plan: 'free', expires_at: '2030-01-01' })).body.id as string
      const before = (await admin('GET', `/keys/${id}`)).body
      for (const [body, error] of [
        [{ expires_at: '0000-01-01' }, /^Cannot update key: expires_at must lie between/],
        [{ expires_at: '9999-12-31T23:59:59-23:59' }, /^Cannot update key: expires_at must lie between/],
        [{ plan: 'x\u0000' }, /^Cannot update key: unknown plan/],
        [{ status: 'active\u0000' }, /^Cannot update key: status: /],
      ] as Array<[Record<string, unknown>, RegExp]>) {
        const res = await admin('PATCH', `/keys/${id}`, body)
        expect({ body, status: res.status }).toEqual({ body, status: 422 })
        expect(res.body.error as string).toMatch(error)
      }
      expect((await admin('GET', `/keys/${id}`)).body).toEqual(before)
    })

    test('the far ends of the range are accepted and served exactly', async () => {
      const latest = await admin('POST', '/keys', { email: email('far'), plan: 'free', expires_at: '9999-12-31T23:59:59Z' })
      expect(latest).toMatchObject({ status: 201, body: { expires_at: '9999-12-31T23:59:59+00:00' } })
      const offset = await admin('POST', '/keys', { email: email('far'), plan: 'free', expires_at: '9999-12-31T23:59:59+23:59' })
      expect(offset).toMatchObject({ status: 201, body: { expires_at: '9999-12-31T00:00:59+00:00' } })
      const earliest = await admin('PATCH', `/keys/${latest.body.id as string}`, { expires_at: '1970-01-01' })
      expect(earliest).toMatchObject({ status: 200, body: { expires_at: '1970-01-01T00:00:00+00:00' } })
    })
  })

  describe('bad dashboard input: the field’s error, nothing stored', () => {
    test('an expiry that rolls past 9999, on creating a key and on changing one', async () => {
      const { c } = await signedIn('far')
      await c.get('/dashboard')
      const before = await counts()
      const res = await c.post('/dashboard/keys', { name: 'far', plan: 'free', expires: '9999-12-31T23:59:59-23:59' })
      expect(res.status).toBe(422)
      expect(c.html).toContain('<p class="field-error" id="key-expires-error">Choose a date no later than 9999-12-31 (UTC), or leave it empty for no expiry.</p>')
      expect(await counts()).toEqual(before)
      const { id } = await c.createKey({ name: 'k', expires: '2030-01-01' })
      for (const expires of ['9999-12-31T23:59:59-23:59', '0000-01-01', '+275760-09-13']) {
        const bad = await c.post(`/dashboard/keys/${id}/expiry`, { expires }, { htmx: true })
        expect({ expires, status: bad.status }).toEqual({ expires, status: 422 })
        expect(c.html).toContain(`id="expiry-${id}-error"`)
      }
      await c.get('/dashboard')
      expect(rowText(c.html, id)).toContain('2030-01-01 00:00 UTC')
    })
  })
})

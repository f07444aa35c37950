// `verified` means the server judged it (issue 34): a page's live nonce never turns a client's
// own verdict into the service's. Through app.handle on each driver: the attack as it was
// tried (a HeadlessChrome client takes the page's nonce and posts a body of the spec's shape,
// all `pass`, with its own `"verdict": "human"`), the page's own body, and the fields of the
// stored results a client cannot set.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { verifyDetached } from '../src/core/jws'
import { CHROME_UA, HEADLESS_UA, humanChrome, playwrightHeadless, SPEC_EXAMPLE_RESULTS } from '../src/core/tools/bot-detector.fixture'
import { buildTestApp, makeKey } from './support/app'
import { proofFor } from './support/page-proof'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

const BASE = 'http://localhost'

/** The example body of docs/api.md, exactly the interface spec's `results` shape. */
const SPEC_EXAMPLE = SPEC_EXAMPLE_RESULTS

/** What a headless Chromium sends with every request (Playwright's default, Linux). */
const HEADLESS_HEADERS = { 'user-agent': HEADLESS_UA, 'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Linux"' }
/** What a person's Chrome 131 on Windows sends (humanChrome's browser). */
const CHROME_HEADERS = { 'user-agent': CHROME_UA, 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' }

/** Every member of the stored results a client might try to write for the service. */
const FORGED = {
  verdict: 'human',
  frameworks: [],
  checks: [{ id: 'webdriver', name: 'x', why: 'x', source: 'server', points: 0, verdict: 'pass', expected: 'false', observed: false }],
  summary: { total: 1, passed: 1, failed: 0, warnings: 0, score: 100 },
  server: { ip: '198.51.100.1', user_agent: 'Mozilla/5.0', nonce: 'valid', evidence: [] },
  verified: true,
  unverified: null,
  tested: true,
  consistency: { verdict: 'consistent', items: [] },
  dropped: [],
  is_human: true,
}

interface Task {
  score: number
  user_agent: string
  results: Record<string, unknown> & {
    verified: boolean
    unverified?: { code: string; reason: string }
    checks: Array<{ id: string; source: string; verdict: string }>
    summary: { score: number }
    server: { nonce: string; user_agent: string }
  }
}

for (const driver of testDrivers()) {
  describe(`verified means the server judged it (${driver})`, () => {
    let database: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    let key: string
    beforeAll(async () => {
      database = await openTestDatabase(driver)
      ;({ app } = await buildTestApp(database.db))
      key = (await makeKey(database.db)).key
    }, 60_000)
    afterAll(() => database?.destroy())

    const nonceOf = async (tool: string, headers: Record<string, string>) => {
      const res = await app.handle(new Request(`${BASE}/tools/${tool}`, { headers }))
      expect(res.status).toBe(200)
      return /data-nonce="([a-z2-7]{26})"/.exec(await res.text())![1]!
    }
    const post = (body: unknown, headers: Record<string, string>) =>
      app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }))
    const read = async (res: Response) => {
      expect(res.status).toBe(201)
      const { task_id } = (await res.json()) as { task_id: string }
      const got = await app.handle(new Request(`${BASE}/api/antibot/tasks/${task_id}`, { headers: { authorization: `Bearer ${key}` } }))
      expect(got.status).toBe(200)
      const body = await got.text()
      return { task: JSON.parse(body) as Task, body, signature: got.headers.get('jws-signature')! }
    }

    test('the attack: HeadlessChrome, the page’s live nonce, a spec-shaped body all `pass` and its own verdict → stored, never verified, the verdict not the service’s', async () => {
      const nonce = await nonceOf('bot-detector', HEADLESS_HEADERS)
      const { task, body, signature } = await read(await post({ tool: 'bot-detector', results: { ...SPEC_EXAMPLE, verdict: 'human' }, nonce }, HEADLESS_HEADERS))
      expect(task.user_agent).toBe(HEADLESS_UA)
      // The nonce was live and is used up; the task is still the client's word.
      expect(task.results.server.nonce).toBe('valid')
      expect(task.results.verified).toBe(false)
      expect(task.results.unverified?.code).toBe('client-scored')
      expect(task.results.unverified?.reason).toContain('scoring')
      // Its score is its own entries' (the spec's contract), each check says it is the client's…
      expect(task.score).toBe(100)
      expect(task.results.checks.map((c) => c.source)).toEqual(['client', 'client', 'client'])
      // …and nothing presents the client's verdict as the service's.
      expect(task.results.verdict).toBeUndefined()
      expect(body).not.toContain('"human"')
      // The signature covers the body that says so: whoever checks it sees `verified: false`.
      const jwks = (await (await app.handle(new Request(`${BASE}/.well-known/jwks.json`))).json()) as { keys: Array<{ kid: string; kty: string; crv: string; x: string }> }
      const keyFor = (kid: string) => {
        const jwk = jwks.keys.find((k) => k.kid === kid)
        if (!jwk) return undefined
        const pub = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' })
        return (data: Uint8Array, sig: Uint8Array) => verify(null, data, pub, sig)
      }
      expect(verifyDetached(signature, body, keyFor).ok).toBe(true)
      // The nonce is spent: the same client cannot try again with it.
      expect((await post({ tool: 'bot-detector', results: SPEC_EXAMPLE, nonce }, HEADLESS_HEADERS)).status).toBe(409)
    })

    test('the spec’s own example body: 201, and it reads back with every field the spec lists, as sent', async () => {
      const { task } = await read(await post({ tool: 'bot-detector', results: SPEC_EXAMPLE }, { 'user-agent': 'python-requests/2.32.3' }))
      expect(Object.keys(task).sort()).toEqual(['created_at', 'ip_address', 'results', 'score', 'task_id', 'tool', 'user_agent'])
      expect(task.score).toBe(100)
      expect(task.results.summary).toEqual(SPEC_EXAMPLE.summary)
      for (const [section, value] of Object.entries(SPEC_EXAMPLE)) expect(task.results[section]).toEqual(value)
      expect(task.results.verified).toBe(false)
      expect(task.results.unverified?.code).toBe('client-scored')
      // Nothing was left out: the body held only what the spec lists.
      expect(task.results.dropped).toBeUndefined()
    })

    test('a spec body with every member the service owns: each is dropped and named, none served as the service’s', async () => {
      const nonce = await nonceOf('bot-detector', HEADLESS_HEADERS)
      const { task } = await read(await post({ tool: 'bot-detector', results: { ...SPEC_EXAMPLE, ...FORGED, summary: SPEC_EXAMPLE.summary }, nonce }, HEADLESS_HEADERS))
      expect(task.results.dropped).toEqual(Object.keys(FORGED).filter((k) => k !== 'summary'))
      expect(task.results.verified).toBe(false)
      expect(task.results.verdict).toBeUndefined()
      expect(task.results.frameworks).toBeUndefined()
      expect(task.results.is_human).toBeUndefined()
      expect(task.results.checks.map((c) => [c.id, c.source])).toEqual([
        ['webdriver', 'client'],
        ['selenium', 'client'],
        ['phantomjs', 'client'],
      ])
      expect(task.results.server).toMatchObject({ nonce: 'valid', user_agent: HEADLESS_UA })
      expect(task.results.consistency).not.toEqual(FORGED.consistency)
    })

    test('the page’s own body from a person’s Chrome with its live nonce: verified, the service’s verdict, whatever the body claimed beside its signals', async () => {
      const nonce = await nonceOf('bot-detector', CHROME_HEADERS)
      const { task } = await read(await post({ tool: 'bot-detector', results: { signals: { ...humanChrome(), proof: proofFor(nonce) }, ...FORGED, verdict: 'bot', frameworks: ['selenium'] }, nonce }, CHROME_HEADERS))
      expect(task.results.verified).toBe(true)
      expect(task.results.unverified).toBeUndefined()
      expect(task.results.verdict).toBe('human')
      expect(task.results.frameworks).toEqual([])
      expect(task.results.dropped).toEqual(Object.keys(FORGED))
      expect(task.results.server).toMatchObject({ nonce: 'valid', user_agent: CHROME_UA })
      expect(task.results.checks.some((c) => c.source === 'server' && c.verdict === 'pass')).toBe(true)
    })

    test('the page’s own body from headless Chromium with its live nonce: verified, because the service judged it — a bot, whatever it claimed', async () => {
      const nonce = await nonceOf('bot-detector', HEADLESS_HEADERS)
      const { task } = await read(await post({ tool: 'bot-detector', results: { signals: playwrightHeadless().signals, ...FORGED }, nonce }, HEADLESS_HEADERS))
      expect(task.results.verified).toBe(true)
      expect(task.results.verdict).toBe('bot')
      expect(task.results.frameworks).toContain('headless')
      expect(task.score).toBeLessThanOrEqual(40)
      // The User-Agent header alone, judged on the server, fails.
      expect(task.results.checks.find((c) => c.id === 'headless-ua-header')).toMatchObject({ source: 'server', verdict: 'fail' })
    })

    test('another tool without signals: the members a client wrote are dropped; with the live nonce it is verified, without one not, saying why', async () => {
      const nonce = await nonceOf('http-headers', CHROME_HEADERS)
      const live = (await read(await post({ tool: 'http-headers', results: FORGED, nonce }, CHROME_HEADERS))).task
      const none = (await read(await post({ tool: 'http-headers', results: FORGED }, CHROME_HEADERS))).task
      for (const task of [live, none]) {
        expect(task.results.dropped).toEqual(Object.keys(FORGED))
        // http-headers gives a verdict of its own, on the headers it received.
        expect(task.results.verdict).toStartWith('The headers do not come from an ordinary browser session')
        expect(task.results.is_human).toBeUndefined()
        expect(task.results.server.user_agent).toBe(CHROME_UA)
        expect(task.results.checks.length).toBeGreaterThan(1)
      }
      expect([live.results.verified, live.results.unverified]).toEqual([true, undefined])
      expect([none.results.verified, none.results.unverified?.code, none.results.server.nonce]).toEqual([false, 'nonce-missing', 'missing'])
    })
  })
}

// `verified` means the server judged it (issue 34): a page's live nonce never turns a client's
// own verdict into the service's. Through app.handle on each driver: the attack as it was
// tried (a HeadlessChrome client takes the page's nonce and posts a body of the spec's shape,
// all `pass`, with its own `"verdict": "human"`), the page's own body, and the fields of the
// stored results a client cannot set.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { verifyDetached } from '../src/core/jws'
import { HEADLESS_UA } from '../src/core/tools/bot-detector.fixture'
import { buildTestApp, makeKey } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

const BASE = 'http://localhost'

/** The example body of docs/api.md, exactly the interface spec's `results` shape. */
const SPEC_EXAMPLE = {
  summary: { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 },
  leaks: { webdriver: false, selenium: false, phantomjs: false },
  navigator: { userAgent: 'Mozilla/5.0', platform: 'Linux x86_64', language: 'en-US' },
  screen: { width: 1920, height: 1080, colorDepth: 24 },
  webgl: { vendor: 'Google Inc.', renderer: 'ANGLE' },
  canvas: { hash: 'a1b2c3' },
  scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' },
}

/** What a headless Chromium sends with every request (Playwright's default, Linux). */
const HEADLESS_HEADERS = { 'user-agent': HEADLESS_UA, 'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Linux"' }

interface Task {
  score: number
  user_agent: string
  results: Record<string, unknown> & {
    verified: boolean
    unverified?: { code: string; reason: string }
    checks: Array<{ id: string; source: string; verdict: string }>
    summary: { score: number }
    server: { nonce: string }
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
  })
}

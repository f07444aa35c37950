// Page nonces and signed task responses, through app.handle on each driver.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { recordEvidence } from '../db/nonces'
import { countTasks } from '../db/tasks'
import { verifyDetached } from '../src/core/jws'
import { humanChrome } from '../src/core/tools/bot-detector.fixture'
import { buildTestApp, makeKey, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { createLocalJWKSet, flattenedVerify, type JSONWebKeySet } from 'jose'

for (const driver of testDrivers()) {
  describe(`evidence and signatures (${driver})`, () => {
    let database: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    let clock: Awaited<ReturnType<typeof buildTestApp>>['clock']
    let key: string
    beforeAll(async () => {
      database = await openTestDatabase(driver)
      ;({ app, clock } = await buildTestApp(database.db))
      key = (await makeKey(database.db)).key
    }, 60_000)
    afterAll(() => database?.destroy())

    const page = async (tool: string) => {
      const res = await app.handle(new Request(`http://localhost/tools/${tool}`))
      expect(res.status).toBe(200)
      const html = await res.text()
      return { nonce: /data-nonce="([a-z2-7]{26})"/.exec(html)?.[1], turn: /data-turn-secret="([0-9A-Za-z]+)"/.exec(html)?.[1] }
    }
    const post = (body: unknown) =>
      app.handle(new Request('http://localhost/api/antibot/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
    const get = (id: string) => app.handle(new Request(`http://localhost/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } }))

    test('every page render issues a fresh nonce and TURN secret', async () => {
      const a = await page('bot-detector')
      const b = await page('bot-detector')
      expect(a.nonce).toMatch(/^[a-z2-7]{26}$/)
      expect(a.turn).toMatch(/^[0-9A-Za-z]{24}$/)
      expect(a.nonce).not.toBe(b.nonce)
    })

    test('a task of the page’s body with its page nonce is verified and carries the evidence filed under it', async () => {
      const { nonce } = await page('bot-detector')
      // Filed as the submitting client's: in-process, without a socket, its address is `unknown`.
      expect(await recordEvidence(database.db, { nonce: nonce!, kind: 'tls', data: { ja4: 't13d1517h2_8daaf6152771_cb7bf5808d99' }, now: clock(), clientIp: 'unknown' })).toBe(true)
      const res = await post({ tool: 'bot-detector', results: { signals: humanChrome() }, nonce })
      expect(res.status).toBe(201)
      const task = (await (await get(((await res.json()) as { task_id: string }).task_id)).json()) as { results: { verified: boolean; server: { nonce: string; evidence: Array<{ kind: string; data: { ja4: string } }> } } }
      expect(task.results.verified).toBe(true)
      expect(task.results.server.nonce).toBe('valid')
      expect(task.results.server.evidence).toHaveLength(1)
      expect(task.results.server.evidence[0]).toMatchObject({ kind: 'tls', data: { ja4: 't13d1517h2_8daaf6152771_cb7bf5808d99' } })
    })

    test('a reused nonce is refused with 409 and stores nothing; evidence can no longer be filed under it', async () => {
      const { nonce } = await page('bot-detector')
      expect((await post({ tool: 'bot-detector', results: specBotResults(), nonce })).status).toBe(201)
      const before = await countTasks(database.db)
      const again = await post({ tool: 'bot-detector', results: specBotResults(), nonce })
      expect(again.status).toBe(409)
      expect(((await again.json()) as { error: string }).error).toStartWith('Cannot create task: this page')
      expect(await countTasks(database.db)).toBe(before)
      expect(await recordEvidence(database.db, { nonce: nonce!, kind: 'dns', data: {}, now: clock() })).toBe(false)
    })

    test('concurrent submissions with one nonce store exactly one task', async () => {
      const { nonce } = await page('bot-detector')
      const before = await countTasks(database.db)
      const statuses = (await Promise.all(Array.from({ length: 8 }, () => post({ tool: 'bot-detector', results: specBotResults(), nonce })))).map((r) => r.status)
      expect(statuses.filter((s) => s === 201)).toHaveLength(1)
      expect(statuses.filter((s) => s === 409)).toHaveLength(7)
      expect(await countTasks(database.db)).toBe(before + 1)
    })

    test('a task without a nonce, or with an unknown, expired or other tool’s nonce, is stored unverified, saying why', async () => {
      const other = (await page('ip-leak')).nonce
      const stale = (await page('bot-detector')).nonce
      clock.set(new Date(clock().getTime() + 16 * 60 * 1000))
      for (const [nonce, state] of [[undefined, 'missing'], ['a'.repeat(26), 'unknown'], [stale, 'expired'], [other, 'wrong-tool']] as const) {
        const res = await post({ tool: 'bot-detector', results: { signals: humanChrome() }, ...(nonce ? { nonce } : {}) })
        expect(res.status).toBe(201)
        const task = (await (await get(((await res.json()) as { task_id: string }).task_id)).json()) as { results: { verified: boolean; unverified: { code: string }; server: { nonce: string } } }
        expect([task.results.verified, task.results.server.nonce, task.results.unverified.code]).toEqual([false, state, `nonce-${state}`])
      }
    })

    test('every 200 is signed; the signature verifies with the JWKS and fails for a changed body', async () => {
      const created = (await (await post({ tool: 'bot-detector', results: specBotResults() })).json()) as { task_id: string }
      const res = await get(created.task_id)
      const body = await res.text()
      const jws = res.headers.get('jws-signature')!
      const jwks = (await (await app.handle(new Request('http://localhost/.well-known/jwks.json'))).json()) as { keys: Array<{ kid: string; kty: string; crv: string; x: string }> }
      expect(jwks.keys.length).toBeGreaterThan(0)
      const keyFor = (kid: string) => {
        const jwk = jwks.keys.find((k) => k.kid === kid)
        if (!jwk) return undefined
        const pub = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' })
        return (data: Uint8Array, sig: Uint8Array) => verify(null, data, pub, sig)
      }
      expect(verifyDetached(jws, body, keyFor).ok).toBe(true)
      expect(verifyDetached(jws, body.replace('"score":', '"score": '), keyFor).ok).toBe(false)
      const unauthorized = await app.handle(new Request(`http://localhost/api/antibot/tasks/${created.task_id}`))
      expect(unauthorized.headers.get('jws-signature')).toBeNull()
    })

    test('an independent JOSE library (jose) verifies the detached signature with the published JWKS', async () => {
      const created = (await (await post({ tool: 'bot-detector', results: specBotResults() })).json()) as { task_id: string }
      const res = await get(created.task_id)
      const body = await res.text()
      const [protectedHeader, empty, signature] = res.headers.get('jws-signature')!.split('.')
      expect(empty).toBe('')
      const jwks = createLocalJWKSet((await (await app.handle(new Request('http://localhost/.well-known/jwks.json'))).json()) as JSONWebKeySet)
      const verified = await flattenedVerify({ protected: protectedHeader!, payload: Buffer.from(body).toString('base64url'), signature: signature! }, jwks, { algorithms: ['EdDSA', 'Ed25519'] })
      expect(new TextDecoder().decode(verified.payload)).toBe(body)
      expect(verified.protectedHeader).toMatchObject({ alg: 'EdDSA' })
      const changed = Buffer.from(body.replace('"score":', '"score": ')).toString('base64url')
      await expect(flattenedVerify({ protected: protectedHeader!, payload: changed, signature: signature! }, jwks)).rejects.toThrow()
    })
  })
}

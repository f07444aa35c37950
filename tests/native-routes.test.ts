// The task endpoints are served twice: as Elysia routes (app.handle, the HTTPS listener) and as
// native Bun.serve routes on the plain-HTTP listener (src/http/native.ts). Every request here
// goes both ways and must get the same status, body and headers; the keyed fetch's signature
// must verify both ways; the request log gets one line per request either way, and the metrics
// count it under the same route template, method and status either way.

import { describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { verifyDetached } from '../src/core/jws'
import { nativeTaskRoutes, taskIdSegment } from '../src/http/native'
import { apikeyParameter, type TaskHandlers } from '../src/http/tasks'
import { buildTestApp, makeKey, specBotResults, testSigningKey } from './support/app'
import { testDrivers, type TestDatabase } from './support/db'
import { useTestDatabase } from './support/db-suite'
import { samples, value } from './support/exposition'
import { createMetrics } from '../src/metrics'

const JSON_TYPE = { 'content-type': 'application/json' }
/** Headers whose values differ between two requests by design (the usage count moves on). */
const MOVING = new Set(['date', 'ratelimit', 'content-length'])

interface Seen {
  status: number
  body: string
  headers: Record<string, string>
}

const seen = async (r: Response): Promise<Seen> => {
  const headers: Record<string, string> = {}
  r.headers.forEach((v, k) => {
    if (!MOVING.has(k)) headers[k] = v
  })
  return { status: r.status, body: await r.text(), headers }
}

const verifies = (jws: string | undefined, body: string) =>
  jws !== undefined &&
  verifyDetached(jws, body, (kid) => (kid === testSigningKey.kid ? (data, sig) => verify(null, data, createPublicKey({ key: testSigningKey.publicJwk as never, format: 'jwk' }), sig) : undefined)).ok

describe.each(testDrivers())('native task routes on %s', (driver) => {
  let tdb: TestDatabase
  useTestDatabase(driver, (d) => (tdb = d))

  test('answer every request as the framework routes do', async () => {
    const lines: string[] = []
    const metrics = createMetrics()
    const { app } = await buildTestApp(tdb.db, { log: (l) => lines.push(l), metrics })
    app.listen({ port: 0, hostname: '127.0.0.1' })
    try {
      const base = `http://127.0.0.1:${app.server!.port}`
      const both = async (path: string, init: RequestInit = {}) => {
        const viaHandle = await seen(await app.handle(new Request(`http://localhost${path}`, init)))
        const viaSocket = await seen(await fetch(`${base}${path}`, init))
        return { viaHandle, viaSocket }
      }
      const same = async (path: string, init: RequestInit = {}) => {
        const { viaHandle, viaSocket } = await both(path, init)
        expect(viaSocket).toEqual(viaHandle)
        return viaSocket
      }

      // POST: stored (the ids differ, nothing else), refused for each kind of bad input.
      const post = (body: BodyInit, headers: Record<string, string> = JSON_TYPE) => ({ method: 'POST', headers, body })
      const created = await both('/api/antibot/tasks', post(JSON.stringify({ tool: 'bot-detector', results: specBotResults() })))
      for (const s of [created.viaHandle, created.viaSocket]) {
        expect(s.status).toBe(201)
        expect(s.body).toMatch(/^\{"task_id":"[0-9a-f-]{36}"\}$/)
        expect(s.headers['x-content-type-options']).toBe('nosniff')
      }
      expect(created.viaSocket.headers).toEqual(created.viaHandle.headers)
      for (const init of [
        post('{"tool":'),
        post('[]'),
        post(JSON.stringify({ tool: 'no-such-tool', results: {} })),
        post(JSON.stringify({ tool: 'bot-detector', results: 'x' })),
        post(JSON.stringify({ tool: 'bot-detector', results: {} }), { 'content-type': 'text/plain' }),
        post('x'.repeat(70 * 1024)),
        post(''),
      ]) {
        const s = await same('/api/antibot/tasks', init)
        expect(s.status).toBeGreaterThanOrEqual(400)
        expect(s.status).toBeLessThan(500)
        expect(JSON.parse(s.body).error).toBeString()
      }

      // GET: every outcome, with the key in the header, the query, odd spellings.
      const taskId = (JSON.parse(created.viaSocket.body) as { task_id: string }).task_id
      const { key } = await makeKey(tdb.db)
      const bearer = { headers: { authorization: `Bearer ${key}` } }
      const ok = await same(`/api/antibot/tasks/${taskId}`, bearer)
      expect(ok.status).toBe(200)
      expect(verifies(ok.headers['jws-signature'], ok.body)).toBe(true)
      for (const path of [
        `/api/antibot/tasks/${taskId}?apikey=${key}`,
        `/api/antibot/tasks/${taskId}?api%6Bey=${key}`,
        `/api/antibot/tasks/${taskId}?apikey=wrong&apikey=${key}`,
        `/api/antibot/tasks/${taskId.toUpperCase()}?apikey=${key}`,
      ]) {
        const s = await same(path)
        expect(s.status).toBe(200)
        expect(s.body).toBe(ok.body)
      }
      const expectations: Array<[string, RequestInit, number]> = [
        [`/api/antibot/tasks/${taskId}`, {}, 401],
        [`/api/antibot/tasks/${taskId}?apikey=${key}&apikey=wrong`, {}, 401],
        [`/api/antibot/tasks/${taskId}`, { headers: { authorization: 'Bearer ab_nope' } }, 401],
        [`/api/antibot/tasks/${taskId}`, { headers: { authorization: `Basic ${key}` } }, 401],
        ['/api/antibot/tasks/00000000-0000-4000-8000-000000000000', bearer, 404],
        ['/api/antibot/tasks/not-a-uuid', bearer, 404],
        ['/api/antibot/tasks/%zz', bearer, 404],
      ]
      for (const [path, init, status] of expectations) expect((await same(path, init)).status).toBe(status)
      const limited = await makeKey(tdb.db, { limit: 0 })
      expect((await same(`/api/antibot/tasks/${taskId}`, { headers: { authorization: `Bearer ${limited.key}` } })).status).toBe(403)

      // One log line per request on either path, the key redacted.
      expect(lines.every((l) => !l.includes(key))).toBe(true)
      const logged = lines.filter((l) => l.startsWith(`GET /api/antibot/tasks/${taskId}?apikey=REDACTED `))
      expect(logged).toHaveLength(2)
      expect(logged[0]!.replace(/[\d.]+ms$/, '')).toBe(logged[1]!.replace(/[\d.]+ms$/, ''))

      // Every request went both ways: each series of the task routes counts an even number.
      await new Promise((r) => setImmediate(r))
      await new Promise((r) => setImmediate(r))
      const all = samples(await metrics.text())
      const counted = all.filter((x) => (x.name === 'antibot_http_requests_total' && x.labels.route!.startsWith('/api/antibot/tasks')) || (x.name === 'antibot_task_fetches_total' && x.value > 0))
      expect(counted.length).toBeGreaterThan(8)
      for (const x of counted) expect({ ...x, even: x.value % 2 === 0 }).toMatchObject({ even: true })
      expect(value(all, 'antibot_http_requests_total', { route: '/api/antibot/tasks/:task_id', method: 'GET', status: '200' })).toBe(10)
      expect(value(all, 'antibot_tasks_created_total', { tool: 'bot-detector', verdict: 'human' })).toBe(2)
    } finally {
      await app.stop(true)
    }
  })
})

describe('native route wrapper', () => {
  const throwing: TaskHandlers = {
    create: () => Promise.reject(new Error('boom')),
    fetch: () => Promise.reject(new Error('boom')),
  }

  test('turns a thrown error into the JSON 500 and logs it with the key redacted', async () => {
    const lines: string[] = []
    const metrics = createMetrics()
    const routes = nativeTaskRoutes(throwing, { log: (l) => lines.push(l), metrics })
    const key = `ab_${'a'.repeat(38)}`
    const res = await routes['/api/antibot/tasks/:task_id']!.GET!(new Request(`http://localhost/api/antibot/tasks/x?apikey=${key}`), null)
    expect(res.status).toBe(500)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await res.json()).toEqual({ error: 'Internal error; the request was not completed.' })
    expect(lines).toHaveLength(2)
    expect(lines[0]).toStartWith('error GET /api/antibot/tasks/x: Error: boom')
    expect(lines[1]).toMatch(/^GET \/api\/antibot\/tasks\/x\?apikey=REDACTED 500 [\d.]+ms$/)
    expect(lines.join('\n')).not.toContain(key)
    const text = await metrics.text()
    expect(value(text, 'antibot_http_requests_total', { route: '/api/antibot/tasks/:task_id', method: 'GET', status: '500' })).toBe(1)
    expect(value(text, 'antibot_task_fetches_total', { status: '500' })).toBe(1)
    expect(text).not.toContain(key)
  })

  test('reads the task id and the apikey parameter as the framework does', () => {
    expect(taskIdSegment('http://h/api/antibot/tasks/abc?x=1')).toBe('abc')
    expect(taskIdSegment('http://h/api/antibot/tasks/a%62c')).toBe('abc')
    expect(taskIdSegment('http://h/api/antibot/tasks/%zz')).toBeNull()
    expect(apikeyParameter('http://h/p')).toBeNull()
    expect(apikeyParameter('http://h/p?apikey=a&apikey=b')).toBe('b')
    expect(apikeyParameter('http://h/p?api%6Bey=a+b')).toBe('a b')
    expect(apikeyParameter('http://h/p?other=1')).toBeNull()
  })
})

// Credentials stay out of the request log and out of stored tasks, through app.handle on each
// driver: a real key sent in every odd query spelling is never in a log line, and a task
// submitted with credential-bearing headers keeps their names and places but not their values.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { recordEvidence } from '../db/nonces'
import { getTask } from '../db/tasks'
import { formDecode } from '../src/core/redact'
import { buildTestApp, makeKey } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const BASE = 'http://localhost'

/** Every byte of `s` as a %XX escape. */
const percentAll = (s: string) => [...new TextEncoder().encode(s)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('')

for (const driver of testDrivers()) {
  describe(`redaction (${driver})`, () => {
    let database: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    let key: string
    let taskId: string
    const lines: string[] = []

    beforeAll(async () => {
      database = await openTestDatabase(driver)
      ;({ app } = await buildTestApp(database.db, { log: (line) => lines.push(line) }))
      key = (await makeKey(database.db)).key
      const res = await app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tool: 'http-headers', results: {} }) }))
      expect(res.status).toBe(201)
      taskId = ((await res.json()) as { task_id: string }).task_id
    }, HOOK_TIMEOUT_MS)
    afterAll(() => database?.destroy())

    /** The log lines of one GET (onAfterResponse runs after handle() returns). */
    const logged = async (path: string): Promise<{ status: number; lines: string[] }> => {
      const gets = () => lines.filter((l) => l.startsWith('GET '))
      const before = gets().length
      const res = await app.handle(new Request(`${BASE}${path}`))
      await res.arrayBuffer()
      for (let i = 0; i < 200 && gets().length === before; i++) await Bun.sleep(1)
      return { status: res.status, lines: gets().slice(before) }
    }
    /** The key in any form a log reader could recover it from. */
    const expectNoKey = (text: string) => {
      const body = key.slice(3)
      for (const form of [text, formDecode(text), formDecode(formDecode(text))]) {
        expect(form).not.toContain(key)
        expect(form).not.toContain(body)
      }
    }

    test('the API accepts the key under the spellings the app decodes to `apikey`, and the log holds none of them', async () => {
      for (const name of ['apikey', 'api%6Bey', percentAll('apikey'), '%61pikey']) {
        const r = await logged(`/api/antibot/tasks/${taskId}?${name}=${key}`)
        expect({ name, status: r.status }).toEqual({ name, status: 200 })
        expect(r.lines).toHaveLength(1)
        expect(r.lines[0]).toContain(`${name}=REDACTED`)
        expectNoKey(r.lines[0]!)
      }
    })

    test('odd spellings, arrays, encoded keys and keys under other names never reach the log', async () => {
      const spellings = [
        `apikey[]=${key}`,
        `apikey%5B%5D=${key}`,
        `apikey[0]=${key}`,
        `apikey[]=${key}&apikey[]=${key}`,
        `APIKEY=${key}`,
        `ApiKey=${key}`,
        `api_key=${key}`,
        `api-key=${key}`,
        `api+key=${key}`,
        `api%20key=${key}`,
        `api.key=${key}`,
        `%EF%BD%81pikey=${key}`,
        `apikey=${key}&apikey=${key}`,
        `apikey=${percentAll(key)}`,
        `apikey=${encodeURIComponent(percentAll(key))}`,
        `q=${key}`,
        `q=${percentAll(key)}`,
        `x=1&${key}`,
        `token=${key}`,
      ]
      for (const query of spellings) {
        const r = await logged(`/api/antibot/tasks/${taskId}?${query}`)
        expect(r.lines).toHaveLength(1)
        expect(r.lines[0]).toContain('REDACTED')
        expectNoKey(r.lines[0]!)
      }
      // A key in the path, and in the path of a route that does not exist.
      for (const path of [`/api/antibot/tasks/${key}`, `/api/antibot/tasks/${percentAll(key)}`, `/nowhere/${key}?apikey=${key}`]) {
        const r = await logged(path)
        expect(r.lines).toHaveLength(1)
        expectNoKey(r.lines[0]!)
      }
    })

    test('the log still shows the path, the other parameters and the status', async () => {
      const r = await logged(`/api/antibot/tasks/${taskId}?apikey=${key}&format=json`)
      expect(r.lines[0]).toMatch(new RegExp(`^GET /api/antibot/tasks/${taskId}\\?apikey=REDACTED&format=json 200 `))
    })

    test('a task keeps credential-bearing headers by name and place, never their values, and is judged as before', async () => {
      const secrets = {
        'proxy-authorization': 'Basic cHJveHl1c2VyOnByb3h5cGFzcw==',
        'x-api-key': 'xak-live-4f9d2c7e1b',
        'x-auth-token': 'xat-0a1b2c3d4e5f',
        authorization: 'Bearer secret-bearer-value',
        cookie: 'session=cookie-secret-value',
        'x-service-secret': 'svc-secret-value',
        'x-custom': 'Basic Y3VzdG9tOmN1c3RvbQ==',
      }
      const plain = {
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'accept-language': 'en-US,en;q=0.9',
        'sec-ch-ua': '"Chromium";v="131", "Not_A Brand";v="24"',
        'sec-fetch-site': 'same-origin',
        via: '1.1 proxy.example',
        'x-forwarded-for': '198.51.100.7',
      }
      const request = new Request(`${BASE}/api/antibot/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...secrets, ...plain },
        body: JSON.stringify({ tool: 'http-headers', results: {} }),
      })
      const order: string[] = []
      request.headers.forEach((_, name) => {
        order.push(name)
      })
      const res = await app.handle(request)
      expect(res.status).toBe(201)
      const id = ((await res.json()) as { task_id: string }).task_id

      const fetched = await app.handle(new Request(`${BASE}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } }))
      expect(fetched.status).toBe(200)
      const text = await fetched.text()
      for (const value of Object.values(secrets)) expect(text).not.toContain(value)
      const task = JSON.parse(text) as { user_agent: string; results: { server: { headers: Array<[string, string]> }; checks: Array<{ id: string; verdict: string }> } }
      const headers = task.results.server.headers
      // Every header is still listed, in the order the HTTP layer gave it.
      expect(headers.map(([n]) => n)).toEqual(order)
      const value = (n: string) => headers.find(([h]) => h === n)?.[1]
      for (const name of Object.keys(secrets)) expect({ name, value: value(name) }).toEqual({ name, value: '(redacted)' })
      for (const [name, v] of Object.entries(plain)) expect({ name, value: value(name) }).toEqual({ name, value: v })
      expect(task.user_agent).toBe(plain['user-agent'])
      // The checks that read these headers still see them.
      const verdict = (id: string) => task.results.checks.find((c) => c.id === id)?.verdict
      // The checks that read these headers' values still see them (a redacted User-Agent would
      // not pass as Chrome, nor agree with Sec-CH-UA).
      expect([verdict('ua-automation'), verdict('ua-vs-client-hints'), verdict('accept-language-q')]).toEqual(['pass', 'pass', 'pass'])

      // And the stored row holds none of the values either.
      const row = JSON.stringify(await getTask(database.db, id))
      for (const v of Object.values(secrets)) expect(row).not.toContain(v)
    })

    test('the TLS listener’s record of the request head loses credential values too', async () => {
      const html = await (await app.handle(new Request(`${BASE}/tools/http-headers`))).text()
      const nonce = /data-nonce="([a-z2-7]{26})"/.exec(html)![1]!
      const http1 = {
        version: 'HTTP/1.1',
        method: 'GET',
        path: `/evidence/${nonce}?apikey=${key}`,
        headers: [
          ['Host', 'localhost:8443'],
          ['User-Agent', 'curl/8.5.0'],
          ['X-Api-Key', 'listener-secret-1'],
          ['Proxy-Authorization', 'Basic bGlzdGVuZXI6c2VjcmV0'],
          ['Accept', '*/*'],
        ],
        bare_line_feeds: false,
      }
      // Filed as the submitting client's: in-process, without a socket, its address is `unknown`.
      expect(await recordEvidence(database.db, { nonce, kind: 'http1', data: http1, now: new Date('2026-11-15T12:00:00Z'), clientIp: 'unknown' })).toBe(true)
      const res = await app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tool: 'http-headers', results: {}, nonce }) }))
      expect(res.status).toBe(201)
      const id = ((await res.json()) as { task_id: string }).task_id
      const text = await (await app.handle(new Request(`${BASE}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } }))).text()
      expect(text).not.toContain('listener-secret-1')
      expect(text).not.toContain('bGlzdGVuZXI6c2VjcmV0')
      expect(text).not.toContain(key)
      const task = JSON.parse(text) as { results: { server: { evidence: Array<{ kind: string; data: { headers: Array<[string, string]>; path: string } }> } } }
      const record = task.results.server.evidence.find((e) => e.kind === 'http1')!.data
      expect(record.headers).toEqual([
        ['Host', 'localhost:8443'],
        ['User-Agent', 'curl/8.5.0'],
        ['X-Api-Key', '(redacted)'],
        ['Proxy-Authorization', '(redacted)'],
        ['Accept', '*/*'],
      ])
      expect(record.path).toBe(`/evidence/${nonce}?apikey=REDACTED`)
    })
  })
}

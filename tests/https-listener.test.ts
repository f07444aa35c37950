// The whole service over the HTTPS listener (issue 14), started as `npm start` starts it: no
// TLS environment, so the listener runs on its default port (PORT + 443; a free one beside
// PORT=0) with a self-signed certificate made in DATA_DIR. curl over HTTP/2 and HTTP/1.1: every
// route answers; a tool page loaded over HTTPS files its own connection's ClientHello and
// HTTP/2 (or HTTP/1) record under its nonce, so a task judged from it needs no second
// connection; the client address is the socket peer's (X-Forwarded-For only from
// TRUSTED_PROXIES); the dashboard's cookies are Secure there; TLS_PORT=off turns it off.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { execFile } from 'node:child_process'
import { concatBytes } from '../src/evidence/bytes'
import { ENHANCE_YOUR_CALM } from '../src/listeners/h2-guard'
import { goawayCode, headerFrames, literalBlock, rawH2, rstStream } from './support/h2-client'
import { startServer, type RunningServer } from './support/server'

function curl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => execFile('curl', ['-sk', '-m', '20', ...args], { timeout: 30_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))))
}

interface Task {
  ip_address: string
  results: {
    verified: boolean
    handshake: { tested: boolean; reason: string | null }
    tls: { ja4: string | null; source: string | null }
    http2: { akamai: string | null }
    tcp: { ja4t: string; family: string; proxy: boolean } | null
    checks: Array<{ id: string; verdict: string; observed: unknown }>
    server: { evidence: Array<{ kind: string; data: Record<string, unknown> }>; evidence_elsewhere?: Array<{ kind: string; address: string | null }> }
  }
}

async function taskFrom(server: RunningServer, key: string, base: string, http: '--http2' | '--http1.1', headers: string[] = []): Promise<Task> {
  const page = await curl([http, `${base}/tools/tls-fingerprint`, ...headers])
  const nonce = /data-nonce="([a-z2-7]{26})"/.exec(page)?.[1]
  expect(nonce, 'the page has a nonce').toBeDefined()
  const created = JSON.parse(await curl([http, '-X', 'POST', `${base}/api/antibot/tasks`, '-H', 'content-type: application/json', ...headers, '-d', JSON.stringify({ tool: 'tls-fingerprint', results: {}, nonce })])) as { task_id: string }
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${created.task_id}`, { headers: { authorization: `Bearer ${key}` } })
  return (await res.json()) as Task
}

describe('the service over its HTTPS listener, default configuration', () => {
  let server: RunningServer
  let key: string
  beforeAll(async () => {
    server = await startServer()
    key = await server.makeKey()
  }, 90_000)
  afterAll(async () => server?.stop())

  test('on by default, printed beside the HTTP address, with the self-signed certificate from DATA_DIR', () => {
    expect(server.tlsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(server.tlsUrl).not.toBe(server.baseUrl.replace('http:', 'https:'))
    expect(server.output()).toContain('certificate: self-signed')
  })

  test('pages, API, docs and health answer over HTTP/2 and HTTP/1.1', async () => {
    for (const http of ['--http2', '--http1.1']) {
      for (const path of ['/healthz', '/', '/docs', '/openapi.json', '/tools/bot-detector', '/login', '/.well-known/jwks.json']) {
        const out = await curl([http, '-o', '/dev/null', '-w', '%{http_version} %{http_code}', `${server.tlsUrl}${path}`])
        expect(out, `${http} ${path}`).toBe(`${http === '--http2' ? '2' : '1.1'} 200`)
      }
    }
    expect(await curl(['--http2', `${server.tlsUrl}/healthz`])).toContain('"status":"ok"')
  })

  test("a tool page loaded over HTTP/2 is judged on its own connection's ClientHello and HTTP/2 frames", async () => {
    const task = await taskFrom(server, key, server.tlsUrl!, '--http2')
    expect(task.results.verified).toBe(true)
    expect(task.ip_address).toBe('127.0.0.1')
    const kinds = task.results.server.evidence.map((e) => e.kind)
    expect(kinds).toEqual(['tls', 'http2'])
    const h2 = task.results.server.evidence[1]!.data
    expect(h2.path).toBe('/tools/tls-fingerprint')
    expect(h2.akamai).toMatch(/\|m,p,s,a$/)
    expect((h2.rtt as { transport: string }).transport).toBe('h2')
    expect(task.results.tls.ja4).toMatch(/^t13[di]\d{4}h2_/)
    expect(task.results.handshake).toMatchObject({ tested: true, reason: null })
    // The SYN of that connection, as this machine's Linux kernel sent it over loopback (issue 49).
    const tls = task.results.server.evidence[0]!.data as { syn: { ja4t: string; initialTtl: number; hops: number; df: boolean; mss: number; proxy: boolean } }
    expect(tls.syn).toMatchObject({ ipVersion: 4, ttl: 64, initialTtl: 64, hops: 0, df: true, options: [2, 4, 8, 1, 3], mss: 65495, timestamps: true, sack: true, proxy: false })
    expect(tls.syn.ja4t).toMatch(/^\d+_2-4-8-1-3_65495_\d+$/)
    expect(task.results.tcp).toMatchObject({ ja4t: tls.syn.ja4t, family: 'linux', proxy: false })
    // curl claims no operating system: the SYN is shown, not judged.
    expect(task.results.checks.find((c) => c.id === 'tcp-syn-os')).toMatchObject({ verdict: 'na' })
  })

  test('over HTTP/1.1 the record is the HTTP/1 head, names in wire order and case', async () => {
    const task = await taskFrom(server, key, server.tlsUrl!, '--http1.1', ['-H', 'X-Odd-Case: 1'])
    const h1 = task.results.server.evidence.find((e) => e.kind === 'http1')!.data
    expect(h1.path).toBe('/tools/tls-fingerprint')
    expect((h1.headers as Array<[string, string]>).map(([n]) => n)).toEqual(['Host', 'User-Agent', 'Accept', 'X-Odd-Case'])
    expect(task.results.tls.ja4).toMatch(/^t13[di]\d{4}h1_/)
  })

  test('the page connection answers /evidence/<nonce> too, without filing its records twice', async () => {
    const page = await curl(['--http2', `${server.tlsUrl}/tools/tls-fingerprint`])
    const nonce = /data-nonce="([a-z2-7]{26})"/.exec(page)![1]!
    // Two URLs on one curl: the second request reuses the connection.
    const out = await curl(['--http2', `${server.tlsUrl}/tools/tls-fingerprint`, '-o', '/dev/null', `${server.tlsUrl}/evidence/${nonce}`])
    expect(JSON.parse(out)).toMatchObject({ recorded: true, ja4: expect.stringMatching(/^t13[di]/) })
    const created = JSON.parse(await curl(['--http2', '-X', 'POST', `${server.tlsUrl}/api/antibot/tasks`, '-H', 'content-type: application/json', '-d', JSON.stringify({ tool: 'tls-fingerprint', results: {}, nonce })])) as { task_id: string }
    const task = (await (await fetch(`${server.baseUrl}/api/antibot/tasks/${created.task_id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as Task
    // The first page's connection filed once at render; the second connection once for /evidence.
    expect(task.results.server.evidence.map((e) => e.kind)).toEqual(['tls', 'http2', 'tls', 'http2'])
  })

  test('a second page on one connection is timed again as it comes: its PINGs added to the connection\'s first ones', async () => {
    // Two URLs on one curl: the second page's navigation reuses the first one's connection.
    const second = await curl(['--http2', `${server.tlsUrl}/tools/tls-fingerprint`, '-o', '/dev/null', `${server.tlsUrl}/tools/vpn-detector`])
    const nonce = /data-nonce="([a-z2-7]{26})"/.exec(second)![1]!
    const created = JSON.parse(await curl(['--http2', '-X', 'POST', `${server.tlsUrl}/api/antibot/tasks`, '-H', 'content-type: application/json', '-d', JSON.stringify({ tool: 'vpn-detector', results: {}, nonce })])) as { task_id: string }
    const task = (await (await fetch(`${server.baseUrl}/api/antibot/tasks/${created.task_id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as Task
    const h2 = task.results.server.evidence.find((e) => e.kind === 'http2')!.data as { path: string; rtt: { ping_samples: number[]; h2_ping_rtt_ms: number } }
    expect(h2.path).toBe('/tools/vpn-detector')
    // The connection's three, taken at its start, and three more for this page.
    expect(h2.rtt.ping_samples).toHaveLength(6)
    expect(h2.rtt.h2_ping_rtt_ms).toBe(Math.min(...h2.rtt.ping_samples))
  })

  test('X-Forwarded-For from a peer that is not a trusted proxy is ignored', async () => {
    const task = await taskFrom(server, key, server.tlsUrl!, '--http2', ['-H', 'X-Forwarded-For: 8.8.8.8'])
    expect(task.ip_address).toBe('127.0.0.1')
  })

  test('the dashboard cookies are Secure over HTTPS, and not over plain HTTP', async () => {
    const over = (url: string) => curl(['--http2', '-D', '-', '-o', '/dev/null', `${url}/login`])
    const secure = (await over(server.tlsUrl!)).split('\n').filter((l) => /^set-cookie:/i.test(l))
    expect(secure.length).toBeGreaterThan(0)
    for (const line of secure) expect(line).toContain('; Secure')
    const plain = (await over(server.baseUrl)).split('\n').filter((l) => /^set-cookie:/i.test(l))
    for (const line of plain) expect(line).not.toContain('Secure')
  })

  // Issue 24: client A (127.0.0.70) loads the page over plain HTTP; client B (127.0.0.71, curl
  // held to TLS 1.2 and HTTP/1.1: another stack) opens the HTTPS port with A's nonce first.
  async function borrowed(ownHandshake: boolean): Promise<Task> {
    const [A, B] = ['127.0.0.70', '127.0.0.71']
    const page = await curl(['--interface', A, `${server.baseUrl}/tools/tls-fingerprint`])
    const nonce = /data-nonce="([a-z2-7]{26})"/.exec(page)![1]!
    expect(JSON.parse(await curl(['--interface', B, '--tls-max', '1.2', '--http1.1', `${server.tlsUrl}/evidence/${nonce}`]))).toMatchObject({ recorded: true, ja4: expect.stringMatching(/^t12/) })
    if (ownHandshake) expect(JSON.parse(await curl(['--interface', A, '--http2', `${server.tlsUrl}/evidence/${nonce}`])).recorded).toBe(true)
    const created = JSON.parse(await curl(['--interface', A, '-X', 'POST', `${server.baseUrl}/api/antibot/tasks`, '-H', 'content-type: application/json', '-d', JSON.stringify({ tool: 'tls-fingerprint', results: {}, nonce })])) as { task_id: string }
    return (await (await fetch(`${server.baseUrl}/api/antibot/tasks/${created.task_id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as Task
  }

  test("a nonce whose handshake another address made: the task is not judged on it, and says so", async () => {
    const task = await borrowed(false)
    expect(task.ip_address).toBe('127.0.0.70')
    expect(task.results.tls.ja4).toBeNull()
    expect(task.results.server.evidence).toEqual([])
    expect(task.results.server.evidence_elsewhere!.map((e) => `${e.kind} ${e.address}`)).toEqual(['tls 127.0.0.71', 'http1 127.0.0.71'])
    expect(task.results.handshake.tested).toBe(false)
    expect(task.results.handshake.reason).toContain('came from 127.0.0.71, not from this client')
    expect(task.results.checks.find((c) => c.id === 'listener-address')).toMatchObject({ verdict: 'warn', observed: { submitter: '127.0.0.70', setAside: ['tls from 127.0.0.71', 'http1 from 127.0.0.71'] } })
  }, 30_000)

  test("with its own handshake as well, the task is judged on that one, and the other is reported", async () => {
    const task = await borrowed(true)
    expect(task.results.tls.ja4).toMatch(/^t13/)
    expect(task.results.server.evidence.map((e) => e.kind)).toEqual(['tls', 'http2'])
    expect(task.results.handshake.tested).toBe(true)
    expect(task.results.checks.find((c) => c.id === 'listener-address')?.verdict).toBe('warn')
  }, 30_000)

  test("a page judged on its own connection passes listener-address", async () => {
    const task = await taskFrom(server, key, server.tlsUrl!, '--http2')
    expect(task.results.server.evidence_elsewhere).toBeUndefined()
    expect(task.results.checks.find((c) => c.id === 'listener-address')).toMatchObject({ verdict: 'pass', observed: '2 records from 127.0.0.1' })
  }, 30_000)

  test('a page over plain HTTP from a client that fetched no evidence: the handshake is not tested, and the result says so', async () => {
    const task = await taskFrom(server, key, server.baseUrl, '--http1.1')
    expect(task.results.server.evidence).toEqual([])
    expect(task.results.handshake.tested).toBe(false)
    expect(task.results.handshake.reason).toContain('HTTPS listener')
  })
})

describe('behind a trusted proxy, and switched off', () => {
  test('TRUSTED_PROXIES: X-Forwarded-For from the listener peer is believed', async () => {
    const server = await startServer({ TRUSTED_PROXIES: '127.0.0.1' })
    try {
      const key = await server.makeKey()
      const task = await taskFrom(server, key, server.tlsUrl!, '--http2', ['-H', 'X-Forwarded-For: 81.2.69.23'])
      expect(task.ip_address).toBe('81.2.69.23')
    } finally {
      await server.stop()
    }
  }, 90_000)

  test('TLS_PORT=off: no listener, and the start-up says so', async () => {
    const server = await startServer({ TLS_PORT: 'off' })
    try {
      expect(server.tlsUrl).toBeNull()
      expect(server.output()).toContain('HTTPS listener off (TLS_PORT=off)')
      const page = await curl([`${server.baseUrl}/tools/tls-fingerprint`])
      expect(page).not.toContain('data-tls-port')
    } finally {
      await server.stop()
    }
  }, 90_000)
})

describe('the HTTP/2 front of the service (issue 24)', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ LOG_REQUESTS: 'true' })
  }, 90_000)
  afterAll(async () => server?.stop())
  const port = () => Number(new URL(server.tlsUrl!).port)
  const get = (path: string): Array<[string, string]> => [[':method', 'GET'], [':scheme', 'https'], [':authority', `127.0.0.1:${port()}`], [':path', path]]
  const logged = (path: string) => server.output().split('\n').filter((l) => l.includes(` ${path} `)).length

  test('300 HEADERS+RST_STREAM pairs for a tool page: GOAWAY ENHANCE_YOUR_CALM, no page rendered; the next connection is served', async () => {
    const pairs = Array.from({ length: 300 }, (_, i) => concatBytes([headerFrames(1 + 2 * i, literalBlock(get('/tools/bot-detector?flood')), true), rstStream(1 + 2 * i)]))
    const r = await rawH2(port(), concatBytes(pairs))
    expect(goawayCode(r.frames)).toBe(ENHANCE_YOUR_CALM)
    await Bun.sleep(300)
    expect(logged('/tools/bot-detector?flood')).toBe(0)
    expect(await curl(['--http2', '-o', '/dev/null', '-w', '%{http_code}', `${server.tlsUrl}/tools/bot-detector?after`])).toBe('200')
    await Bun.sleep(300)
    // The log does show the pages it renders.
    expect(logged('/tools/bot-detector?after')).toBe(1)
  }, 30_000)

  test('a task POST with 62 headers of 1 KB: refused over HTTP/2 (a stream error) as over HTTP/1.1 (431); nothing stored', async () => {
    const headers = Array.from({ length: 62 }, (_, i) => ['-H', `X-Filler-${i}: ${'a'.repeat(1000)}`]).flat()
    // curl exits non-zero on the stream error (92): its status and exit code, either way.
    const post = (http: string) =>
      new Promise<string>((resolve) =>
        execFile('curl', ['-sk', '-m', '20', http, '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', ...headers, '-H', 'content-type: application/json', '-d', '{"tool":"http-headers","results":{}}', `${server.tlsUrl}/api/antibot/tasks?big`], (err, stdout) =>
          resolve(`${stdout} ${err ? (err as { code?: number }).code : 0}`),
        ),
      )
    expect(await post('--http2')).toBe('000 92')
    expect(await post('--http1.1')).toBe('431 0')
    await Bun.sleep(300)
    expect(logged('/api/antibot/tasks?big')).toBe(0)
  }, 30_000)
})


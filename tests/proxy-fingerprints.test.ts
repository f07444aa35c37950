// TLS/HTTP2 fingerprints from the headers of a trusted TLS-terminating proxy
// (TLS_FINGERPRINT_HEADERS), through the real service (src/main.ts in a child process, as
// configured from the environment) on each driver. The test's fetches come from 127.0.0.1: one
// service trusts that address as its proxy, the other trusts only 192.0.2.0/24, so there the
// same headers are a client's forgery and must change nothing.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { startServer, type RunningServer } from './support/server'
import { ok } from './support/signals'

const HOOK_TIMEOUT_MS = 120_000
const TEST_TIMEOUT_MS = 30_000

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const BRANDS = [{ brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }, { brand: 'Not-A.Brand', version: '99' }]
const CHROME_HEADERS = {
  'user-agent': CHROME_UA,
  'sec-ch-ua': BRANDS.map((b) => `"${b.brand}";v="${b.version}"`).join(', '),
  'sec-ch-ua-platform': '"Windows"',
  'sec-ch-ua-mobile': '?0',
}
const CHROMIUM_JA4 = 't13d1516h2_8daaf6152771_02713d6af862'
const CURL_JA4 = 't13d3112h2_e8f1e7e78f70_b26ce05bbdd6'

// What the tls-fingerprint page of a Chrome 124 on Windows sends, without the TLS listener.
const SIGNALS = {
  navigator: ok({ userAgent: CHROME_UA, platform: 'Win32' }),
  uaData: ok({ brands: BRANDS, mobile: false, platform: 'Windows', high: null, highError: null }),
  stack: ok({ pageProtocol: 'https:', secureContext: true, navigationProtocol: 'h2', fetchProtocol: 'h2', navigationTls: true }),
  connection: ok({ type: null, effectiveType: '4g', rtt: 50, downlink: 10, saveData: false }),
  evidence: { ok: false as const, error: { kind: 'unsupported', message: 'no TLS evidence listener on this service (TLS_PORT is not set)' }, ms: 1 },
}

interface Results {
  checks: Array<{ id: string; verdict: string; observed: unknown }>
  tls: { source: string | null; ja4: string | null; family: string | null }
  server: { evidence: Array<{ kind: string; source?: string; data: Record<string, unknown> }> }
}

const ENV = { TLS_FINGERPRINT_HEADERS: 'ja4=X-JA4,ja3_hash=X-JA3-Hash,akamai=X-HTTP2-Fingerprint' }

for (const driver of testDrivers()) {
  describe(`fingerprint headers of a trusted proxy (${driver})`, () => {
    const databases: TestDatabase[] = []
    let trusted: RunningServer
    let untrusted: RunningServer
    const keys = new Map<RunningServer, string>()

    beforeAll(async () => {
      // A database of its own for each service on PostgreSQL; PGlite lives in each one's DATA_DIR.
      const dbEnv = async (): Promise<Record<string, string>> => {
        if (driver !== 'postgres') return {}
        const d = await openTestDatabase('postgres')
        databases.push(d)
        return { DATABASE_URL: d.url! }
      }
      ;[trusted, untrusted] = await Promise.all([
        dbEnv().then((db) => startServer({ ...db, ...ENV, TRUSTED_PROXIES: '127.0.0.1' })),
        dbEnv().then((db) => startServer({ ...db, ...ENV, TRUSTED_PROXIES: '192.0.2.0/24' })),
      ])
      keys.set(trusted, await trusted.makeKey())
      keys.set(untrusted, await untrusted.makeKey())
    }, HOOK_TIMEOUT_MS)
    afterAll(async () => {
      await Promise.all([trusted?.stop(), untrusted?.stop()])
      for (const d of databases) await d.destroy()
    }, HOOK_TIMEOUT_MS)

    /** Submits a tls-fingerprint task as a Chrome page would, and reads it back with a key. */
    async function submit(server: RunningServer, headers: Record<string, string>): Promise<Results> {
      const res = await fetch(`${server.baseUrl}/api/antibot/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...CHROME_HEADERS, ...headers },
        body: JSON.stringify({ tool: 'tls-fingerprint', results: { signals: SIGNALS } }),
      })
      expect(res.status).toBe(201)
      const { task_id } = (await res.json()) as { task_id: string }
      const got = await fetch(`${server.baseUrl}/api/antibot/tasks/${task_id}`, { headers: { authorization: `Bearer ${keys.get(server)}` } })
      expect(got.status).toBe(200)
      return ((await got.json()) as { results: Results }).results
    }
    const verdict = (r: Results, id: string) => r.checks.find((c) => c.id === id)!.verdict

    test("believes a trusted proxy's JA4: Chromium's passes a Chrome claim and is stored as proxy evidence", async () => {
      const r = await submit(trusted, { 'x-ja4': CHROMIUM_JA4 })
      expect(verdict(r, 'ja4')).toBe('pass')
      expect(verdict(r, 'transport-tls')).toBe('pass')
      expect(r.tls).toMatchObject({ source: 'proxy', ja4: CHROMIUM_JA4, family: 'chromium' })
      expect(r.server.evidence).toHaveLength(1)
      expect(r.server.evidence[0]).toMatchObject({ kind: 'tls', source: 'proxy', data: { ja4: CHROMIUM_JA4, headers: { ja4: 'x-ja4' }, grease: null, ignored: [] } })
    }, TEST_TIMEOUT_MS)

    test("curl's JA4 under the same Chrome claim fails; an invalid header is noted, not believed", async () => {
      expect(verdict(await submit(trusted, { 'x-ja4': CURL_JA4 }), 'ja4')).toBe('fail')
      const bad = await submit(trusted, { 'x-ja4': 'not-a-ja4', 'x-http2-fingerprint': '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p' })
      expect(verdict(bad, 'ja4')).toBe('na')
      expect(verdict(bad, 'http2-fingerprint')).toBe('pass')
      const tls = bad.server.evidence.find((e) => e.kind === 'tls')!
      expect(tls).toMatchObject({ source: 'proxy', data: { ja4: null, ignored: [{ field: 'ja4', header: 'x-ja4' }] } })
    }, TEST_TIMEOUT_MS)

    test('ignores the same headers from a peer that is not a trusted proxy: a forgery changes nothing', async () => {
      const forged = await submit(untrusted, { 'x-ja4': CHROMIUM_JA4, 'x-ja3-hash': '0149f47eabf9a20d0893e2a44e5a6323', 'x-http2-fingerprint': '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p' })
      const plain = await submit(untrusted, {})
      for (const id of ['transport-tls', 'ja3', 'ja4', 'tls-parameters', 'http2-fingerprint']) expect(verdict(forged, id), id).toBe('na')
      expect(forged.server.evidence).toEqual([])
      expect(forged.tls).toEqual(plain.tls)
      expect(forged.checks).toEqual(plain.checks)
    }, TEST_TIMEOUT_MS)
  })
}

// The offline IP database wired into the app: a trusted proxy's X-Forwarded-For address is
// looked up with the REAL database (src/evidence/ipdb.ts: ~1.5 s of CPU to parse the CSVs the
// first time, then a cache in the system's temporary directory), and
// the stored task carries its country, AS and network kind, and the consistency section; the
// pages that show IP data credit it.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTask } from '../db/tasks'
import { parseTrustedProxies } from '../src/core/ip'
import { loadIpDatabase, type IpDatabase } from '../src/evidence/ipdb'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { ok } from './support/signals'

const IP_LEAK_SIGNALS = {
  ice: ok({ candidates: [], sdp: '', gathering: 'complete', gatheringMs: 10, errors: [] }),
  families: ok({ ipv4: { url: 'http://127.0.0.1/healthz', reachable: true, ms: 1, error: null }, ipv6: { url: 'http://[::1]/healthz', reachable: false, ms: 1, error: 'Failed to fetch' } }),
}

let ipdb: IpDatabase
beforeAll(async () => {
  // The parsed tables are cached across runs, as the service caches them in DATA_DIR.
  ipdb = await loadIpDatabase({ cacheDir: join(tmpdir(), 'antibot-test-ipdb') })
}, 60_000)

for (const driver of testDrivers()) {
  describe(`IP database in the app (${driver})`, () => {
    let tdb: TestDatabase
    beforeAll(async () => {
      tdb = await openTestDatabase(driver)
    }, 30_000)
    afterAll(async () => {
      await tdb?.destroy()
    }, 30_000)

    test('a trusted proxy\'s X-Forwarded-For public address is placed by the real database', async () => {
      const { app } = await buildTestApp(tdb.db, { trustedProxies: parseTrustedProxies('127.0.0.1'), judge: { lookupIp: ipdb.lookup } })
      app.listen({ port: 0, hostname: '127.0.0.1' })
      try {
        const res = await fetch(`http://127.0.0.1:${app.server!.port}/api/antibot/tasks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '8.8.8.8', 'accept-language': 'en-US,en;q=0.9' },
          body: JSON.stringify({ tool: 'ip-leak', results: { signals: IP_LEAK_SIGNALS } }),
        })
        expect(res.status).toBe(201)
        const { task_id } = (await res.json()) as { task_id: string }
        const task = (await getTask(tdb.db, task_id))!
        expect(task.ip_address).toBe('8.8.8.8')
        const results = JSON.parse(task.results) as { ip: { lookup: unknown }; checks: Array<{ id: string; verdict: string; observed: unknown }>; consistency: { items: Array<{ id: string; verdict: string; observed: unknown }> } }
        expect(results.ip.lookup).toEqual({ status: 'found', country: 'US', asn: 15169, organization: 'Google LLC', datacenter: true, vpn: false, tor: false, network: 'cloud', networkSource: 'known-asn', provider: 'Google' })
        expect(results.checks.find((c) => c.id === 'datacenter-asn')).toMatchObject({ verdict: 'fail', observed: 'US, AS15169 Google LLC (cloud: Google)' })
        expect(results.consistency.items.find((i) => i.id === 'ip-country-languages')).toMatchObject({ verdict: 'consistent', observed: { ip: '8.8.8.8', country: 'US' } })
      } finally {
        await app.stop(true)
      }
    }, 30_000)

    test('tool pages that show IP data credit its sources in the footer; others do not', async () => {
      const { app } = await buildTestApp(tdb.db)
      const page = async (tool: string) => (await app.handle(new Request(`http://localhost/tools/${tool}`))).text()
      const ipLeak = await page('ip-leak')
      expect(ipLeak).toContain('<footer class="site muted"><p data-credits="ip-data"')
      expect(ipLeak).toContain('<a href="https://db-ip.com">IP Geolocation by DB-IP</a>')
      expect(ipLeak).toContain('<a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>')
      for (const tool of ['timezone-geo', 'vpn-detector', 'dns-leak', 'bot-detector']) expect(await page(tool)).toContain('data-credits="ip-data"')
      expect(await page('canvas-fingerprint')).not.toContain('data-credits')
    }, 30_000)
  })
}

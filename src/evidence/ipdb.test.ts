// The loader on the installed packages: real data, so a few well-known addresses are checked
// rather than every field, and the curated hosting list is checked against the data's names.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { KNOWN_NETWORKS } from './ipdb-hosting'
import { loadIpDatabase, type IpDatabase } from './ipdb'

let dir: string
let db: IpDatabase
let cached: IpDatabase

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'antibot-ipdb-'))
  db = await loadIpDatabase({ cacheDir: dir })
  cached = await loadIpDatabase({ cacheDir: dir })
}, 30_000)
afterAll(() => rm(dir, { recursive: true, force: true }))

const info = (d: IpDatabase, ip: string) => {
  const r = d.lookup(ip)
  if (!r.ok) throw new Error(`${ip}: ${r.reason}`)
  return r.info
}

describe('well-known addresses', () => {
  test('8.8.8.8 is Google in the US, on a server network', () => {
    expect(info(db, '8.8.8.8')).toMatchObject({ country: 'US', asn: 15169, org: 'Google LLC', hosting: true })
  })

  test('1.1.1.1 is Cloudflare, a CDN', () => {
    expect(info(db, '1.1.1.1')).toMatchObject({ asn: 13335, hosting: true, hostingReason: { kind: 'cdn', label: 'Cloudflare' } })
    expect(info(db, '1.1.1.1').org).toContain('Cloudflare')
  })

  test('Google Public DNS over IPv6 is Google too', () => {
    expect(info(db, '2001:4860:4860::8888')).toMatchObject({ version: 6, asn: 15169, country: 'US' })
  })

  test('an AWS Frankfurt address is placed in Germany (geofeed), not the US (registration)', () => {
    expect(info(db, '3.120.0.1')).toMatchObject({ country: 'DE', asn: 16509, hostingReason: { kind: 'cloud', label: 'Amazon AWS' } })
  })

  test('a Hetzner IPv6 address is German hosting', () => {
    expect(info(db, '2a01:4f8::1')).toMatchObject({ country: 'DE', asn: 24940, hosting: true })
  })

  test('a private address is not looked up', () => {
    expect(db.lookup('192.168.1.10')).toEqual({ ok: false, reason: 'private', scope: 'private' })
    expect(db.lookup('::1')).toEqual({ ok: false, reason: 'private', scope: 'loopback' })
  })
})

test('every curated hosting AS carries, in the data, the organisation name it is listed under', () => {
  const names = new Map<number, string[]>()
  const { asn, org } = db.tables.asn
  for (let i = 0; i < asn.length; i++) names.set(asn[i]!, [...(names.get(asn[i]!) ?? []), org[i]!])
  const wrong = [...KNOWN_NETWORKS]
    .filter(([n, k]) => !(names.get(n) ?? []).some((o) => o.toLowerCase().includes(k.orgHas.toLowerCase())))
    .map(([n, k]) => `AS${n} ${k.provider}: ${JSON.stringify(names.get(n) ?? 'not in the data')}`)
  expect(wrong).toEqual([])
})

describe('cache', () => {
  test('the first load parses the CSVs and writes the cache; the next reads it', async () => {
    expect(db.load).toMatchObject({ from: 'csv', cacheError: null })
    expect(cached.load).toMatchObject({ from: 'cache', cacheError: null, cacheFile: db.load.cacheFile })
    expect(await readdir(dir)).toEqual([db.load.cacheFile!.split('/').pop()!])
    expect(cached.load.stats).toEqual(db.load.stats)
  })

  test('the cached tables answer exactly like the parsed ones', () => {
    const bytes = (a: Uint32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)
    for (const set of ['country', 'asn'] as const) {
      for (const v of ['v4', 'v6'] as const) {
        const [a, b] = [cached.tables[set][v], db.tables[set][v]]
        expect(a.length).toBe(b.length)
        for (const array of ['start', 'end', 'value'] as const) expect(bytes(a[array]).equals(bytes(b[array]))).toBe(true)
      }
    }
    expect(bytes(cached.tables.asn.asn).equals(bytes(db.tables.asn.asn))).toBe(true)
    expect(cached.tables.asn.org).toEqual(db.tables.asn.org)
    expect(cached.tables.country.codes).toEqual(db.tables.country.codes)
    for (const ip of ['8.8.8.8', '1.1.1.1', '3.120.0.1', '2a01:4f8::1', '168.227.144.1', '10.0.0.1', '2600::1']) expect(cached.lookup(ip)).toEqual(db.lookup(ip))
  })

  test('a damaged cache file is rebuilt', async () => {
    const damagedDir = await mkdtemp(join(tmpdir(), 'antibot-ipdb-'))
    try {
      const file = join(damagedDir, db.load.cacheFile!.split('/').pop()!)
      const bytes = await readFile(db.load.cacheFile!)
      await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)))
      const again = await loadIpDatabase({ cacheDir: damagedDir })
      expect(again.load).toMatchObject({ from: 'csv', cacheError: null })
      expect((await readFile(file)).length).toBe(bytes.length)
    } finally {
      await rm(damagedDir, { recursive: true, force: true })
    }
  }, 30_000)

  test('a cache that cannot be written is reported, and the data still loads', async () => {
    const file = join(dir, 'not-a-directory')
    await writeFile(file, '')
    try {
      const again = await loadIpDatabase({ cacheDir: join(file, 'ipdb') })
      expect(again.load.from).toBe('csv')
      expect(again.load.cacheError).toStartWith('Cannot write the IP database cache')
      expect(again.lookup('8.8.8.8').ok).toBe(true)
    } finally {
      await rm(file)
    }
  }, 30_000)
})

describe('attribution', () => {
  test('names each package with its version and licence', () => {
    expect(db.packages.map((p) => p.name)).toEqual(['@ip-location-db/asn', '@ip-location-db/geo-whois-asn-country'])
    for (const p of db.packages) expect(p.version).toMatch(/^\d+\.\d+\.\d+$/)
  })

  test('credits DB-IP with the link its licence asks for, and Route Views and the NRO', () => {
    expect(db.attributions.map((a) => a.source)).toEqual(['DB-IP', 'Route Views', 'Number Resource Organization', 'ip-location-db'])
    expect(db.attributions[0]).toMatchObject({ url: 'https://db-ip.com', text: 'IP Geolocation by DB-IP', licence: 'CC BY 4.0' })
  })

  test('the licence files of the installed packages still say what the credits assume', async () => {
    // A data upgrade that changes a licence must fail here rather than ship the wrong credit.
    const require = createRequire(import.meta.url)
    const files = async (pkg: string) => {
      const root = dirname(require.resolve(`${pkg}/package.json`))
      return Object.fromEntries(await Promise.all((await readdir(root)).filter((f) => f.includes('LICENSE')).map(async (f) => [f, await readFile(join(root, f), 'utf8')] as const)))
    }
    const asn = await files('@ip-location-db/asn')
    expect(asn['DBIP-LICENSE']).toContain('Creative Commons Attribution 4.0')
    expect(asn['DBIP-LICENSE']).toContain("<a href='https://db-ip.com'>IP Geolocation by DB-IP</a>")
    expect(asn['ROUTEVIEWS-LICENSE']).toContain('Creative Commons Attribution 4.0')
    expect(asn.NRO_LICENSE).toContain('Creative Commons Attribution 4.0')
    const country = await files('@ip-location-db/geo-whois-asn-country')
    expect(Object.keys(country)).toEqual(['NRO_LICENSE'])
    expect(db.packages.map((p) => p.licence)).toEqual(['SEE LICENSE IN ROUTEVIEWS-LICENSE and DBIP-LICENSE (CC-BY-4.0)', 'CC0-1.0'])
  })
})

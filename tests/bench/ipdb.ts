// IP database budgets: load time (parsing the CSVs, as on a first start; reading the cache, as
// on every later start) and lookup time, against a bare baseline of a Map lookup of the same
// address strings. Reported, never asserted:
//   bun tests/bench/ipdb.ts [--lookups 200000]
// Prints a Markdown table and writes bench-results/ipdb.json.

import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseIp } from '../../src/core/ip'
import { addressWords, findRange } from '../../src/evidence/ipdb-core'
import { loadIpDatabase, type IpDatabase } from '../../src/evidence/ipdb'

const lookupsArg = process.argv.indexOf('--lookups')
const N = lookupsArg > 0 ? Number(process.argv[lookupsArg + 1]) : 200_000

// A fixed pseudo-random sequence (mulberry32), so runs look up the same addresses.
let seed = 0x1b873593
const random32 = () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), seed | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return (t ^ (t >>> 14)) >>> 0
}
const v4 = () => [random32() >>> 24, (random32() >>> 24) & 0xff, random32() & 0xff, random32() & 0xff].join('.')
// Global unicast 2000::/3, most of it in allocated space (2001:, 2400:–2c0f:).
const hex = () => (random32() & 0xffff).toString(16)
const v6 = () => `2${(random32() % 0xc10).toString(16).padStart(3, '0')}:${hex()}:${hex()}:${hex()}::${hex()}`

const rows: Array<{ what: string; value: number; unit: string }> = []
const report = (what: string, value: number, unit: string) => rows.push({ what, value: Math.round(value * 10) / 10, unit })

async function timeLoad(label: string, cacheDir: string | undefined): Promise<IpDatabase> {
  const cpu = process.cpuUsage()
  const db = await loadIpDatabase(cacheDir ? { cacheDir } : {})
  const used = process.cpuUsage(cpu)
  report(`load: ${label} (wall)`, db.load.ms, 'ms')
  report(`load: ${label} (CPU)`, (used.user + used.system) / 1000, 'ms')
  return db
}

/** Median ns per call of `run` over the inputs, from 5 rounds after a warm-up. */
function nsPer<T>(inputs: readonly T[], run: (x: T) => unknown): number {
  let sink = 0
  const round = () => {
    const t = Bun.nanoseconds()
    for (let i = 0; i < inputs.length; i++) if (run(inputs[i]!)) sink++
    return (Bun.nanoseconds() - t) / inputs.length
  }
  round()
  const times = Array.from({ length: 5 }, round).sort((a, b) => a - b)
  if (sink < 0) console.log(sink)
  return times[2]!
}

const dir = await mkdtemp(join(tmpdir(), 'antibot-ipdb-bench-'))
try {
  await timeLoad('CSV parse, no cache (first start)', undefined)
  await timeLoad('CSV parse + cache write', dir)
  const db = await timeLoad('cache read (later starts)', dir)
  report('cache file', statSync(db.load.cacheFile!).size / 1e6, 'MB')

  const addresses4 = Array.from({ length: N }, v4)
  const addresses6 = Array.from({ length: N }, v6)
  const found = addresses4.filter((ip) => db.lookup(ip).ok).length
  const map = new Map<string, number>(addresses4.map((ip, i) => [ip, i]))
  const map6 = new Map<string, number>(addresses6.map((ip, i) => [ip, i]))
  report('baseline: Map.get of the address string, IPv4', nsPer(addresses4, (ip) => map.get(ip)), 'ns')
  report('baseline: Map.get of the address string, IPv6', nsPer(addresses6, (ip) => map6.get(ip)), 'ns')
  report('lookup(ip) IPv4: parse, scope, two searches, hosting', nsPer(addresses4, (ip) => db.lookup(ip)), 'ns')
  report('lookup(ip) IPv6: parse, scope, two searches, hosting', nsPer(addresses6, (ip) => db.lookup(ip)), 'ns')
  const keys4 = addresses4.map((ip) => addressWords(parseIp(ip)!))
  const keys6 = addresses6.map((ip) => addressWords(parseIp(ip)!))
  report('findRange alone, ASN IPv4 table (binary search)', nsPer(keys4, (k) => findRange(db.tables.asn.v4, k) >= 0), 'ns')
  report('findRange alone, country IPv6 table (binary search)', nsPer(keys6, (k) => findRange(db.tables.country.v6, k) >= 0), 'ns')
  report('parseIp alone, IPv4', nsPer(addresses4, (ip) => parseIp(ip)), 'ns')
  report(`random IPv4 addresses found (of ${N})`, found, '')
} finally {
  await rm(dir, { recursive: true, force: true })
}

console.log('| measure | value |\n|---|---|')
for (const r of rows) console.log(`| ${r.what} | ${r.value} ${r.unit} |`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/ipdb.json', JSON.stringify({ lookups: N, rows }, null, 2))

// Offline IP intelligence: loads the country and AS tables from the installed @ip-location-db
// packages. Nothing happens at import time; the service calls loadIpDatabase() once at start.
//
// Parsing the CSVs (60 MB, a million lines) takes about 1.5 s of CPU, so the parsed tables are
// kept as one binary file in `cacheDir` (the service's DATA_DIR): typed arrays written as they
// sit in memory, read back as views over the file's bytes, in tens of milliseconds. The file
// name carries the package versions and FORMAT, so an upgrade builds a fresh one (and removes
// the old). Without a cacheDir, or when the file cannot be written, every load parses the CSVs.
//
// Sources (https://github.com/sapics/ip-location-db):
// - @ip-location-db/asn: AS number and organisation per range; RouteViews (IPv4), the RIRs'
//   data and DB-IP's IP to ASN Lite, all CC BY 4.0.
// - @ip-location-db/geo-whois-asn-country: country per range from providers' geofeeds, then the
//   RIRs' whois, then the AS's registration; CC0 as compiled, from NRO data under CC BY 4.0.
//   Preferred to @ip-location-db/asn-country (the registration country alone: 17 MB instead of
//   47 MB) because geofeeds place cloud and VPN ranges where they are used: 3.120.0.0/13 is
//   AWS Frankfurt, DE here and US there. The two differ on about 4% of the IPv4 space.
// The packages' READMEs warn that the npm data has known merge bugs and that npm updates will
// stop; the one visible here, ranges nested in ranges, is resolved by ipdb-csv.ts.

import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { lookupIp, type AsnTables, type CountryTables, type IpLookup, type IpTables, type RangeTable } from './ipdb-core'
import { buildAsnTables, buildCountryTables, type BuildStats } from './ipdb-csv'

export type { HostingReason, NetworkKind } from './ipdb-hosting'
export type { IpInfo, IpLookup, IpMissReason } from './ipdb-core'

/** A credit the data's licence asks us to show where its results are used or displayed. */
export interface Attribution {
  /** Who made the data. */
  readonly source: string
  readonly url: string
  readonly licence: string
  readonly licenceUrl: string
  /** The credit line to display, linked to `url`. */
  readonly text: string
  /** What of theirs the results use. */
  readonly data: string
}

const CC_BY_4 = 'https://creativecommons.org/licenses/by/4.0/'

export const IP_DATA_ATTRIBUTIONS: readonly Attribution[] = [
  {
    source: 'DB-IP',
    url: 'https://db-ip.com',
    licence: 'CC BY 4.0',
    licenceUrl: CC_BY_4,
    // DB-IP's licence asks web pages that display or use its results for this exact link.
    text: 'IP Geolocation by DB-IP',
    data: 'AS numbers and organisation names (IP to ASN Lite)',
  },
  {
    source: 'Route Views',
    url: 'https://www.routeviews.org/routeviews/',
    licence: 'CC BY 4.0',
    licenceUrl: CC_BY_4,
    text: 'IPv4 to AS data by the University of Oregon Route Views Project (routeviews.org)',
    data: 'AS numbers of IPv4 ranges',
  },
  {
    source: 'Number Resource Organization',
    url: 'https://www.nro.net/',
    licence: 'CC BY 4.0',
    licenceUrl: CC_BY_4,
    text: 'Registry data from the NRO and the five Regional Internet Registries (nro.net)',
    data: 'whois and delegation data: countries and AS numbers of ranges',
  },
  {
    source: 'ip-location-db',
    url: 'https://github.com/sapics/ip-location-db',
    licence: 'CC0 1.0 (country tables); CC BY 4.0 of the sources above (AS tables)',
    licenceUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
    text: 'Tables compiled by ip-location-db, with geofeeds from OpenGeoFeed (opengeofeed.org) and providers',
    data: 'the merged country (geofeed, whois, AS) and AS tables',
  },
]

export interface IpDataPackage {
  readonly name: string
  readonly version: string
  /** The `license` field of its package.json. */
  readonly licence: string
  readonly provides: 'asn' | 'country'
}

export interface IpDatabaseLoad {
  /** `cache`: the binary file was read. `csv`: the packages' CSVs were parsed. */
  readonly from: 'cache' | 'csv'
  readonly ms: number
  readonly cacheFile: string | null
  /** Why the cache could not be written (read-only directory, full disk…), if it could not. */
  readonly cacheError: string | null
  /** Lines read, ranges kept and overlaps resolved, per table. */
  readonly stats: { readonly country: BuildStats; readonly asn: BuildStats }
}

export interface IpDatabase {
  /** Country, AS and hosting verdict for an address, or why there is none. */
  lookup(ip: string): IpLookup
  readonly tables: IpTables
  readonly packages: readonly IpDataPackage[]
  readonly attributions: readonly Attribution[]
  readonly load: IpDatabaseLoad
}

export interface LoadIpDatabaseOptions {
  /** Directory for the parsed-table cache (DATA_DIR); without it, every load parses the CSVs. */
  readonly cacheDir?: string
}

const ASN_PACKAGE = '@ip-location-db/asn'
const COUNTRY_PACKAGE = '@ip-location-db/geo-whois-asn-country'
/** Bump when the parsing or the file layout changes, so old caches are rebuilt. */
const FORMAT = 1
const MAGIC = 0x49504442 // 'IPDB'; read back as another number on a machine of other endianness
const CACHE_PREFIX = 'ipdb-'

export async function loadIpDatabase(options: LoadIpDatabaseOptions = {}): Promise<IpDatabase> {
  const began = performance.now()
  const require = createRequire(import.meta.url)
  const packages: IpDataPackage[] = []
  const dirs = new Map<string, string>()
  for (const [name, provides] of [[ASN_PACKAGE, 'asn'], [COUNTRY_PACKAGE, 'country']] as const) {
    let manifest: string
    try {
      manifest = require.resolve(`${name}/package.json`)
    } catch {
      throw new Error(`Cannot load the IP database: package ${name} is not installed (npm install)`)
    }
    const json = JSON.parse(await readFile(manifest, 'utf8')) as { version: string; license: string }
    packages.push({ name, version: json.version, licence: json.license, provides })
    dirs.set(name, dirname(manifest))
  }
  const key = `${CACHE_PREFIX}${FORMAT}-${packages.map((p) => `${p.name.split('/').pop()}@${p.version}`).join('-')}.bin`
  const cacheFile = options.cacheDir ? join(options.cacheDir, key) : null

  let parsed = cacheFile ? readCache(cacheFile, key) : null
  const from = parsed ? 'cache' : 'csv'
  let cacheError: string | null = null
  if (!parsed) {
    // Each file's bytes as they are read, parsed as bytes (no string of them), one table set
    // after the other: the first start's parse holds no more than one pair of files at a time.
    const read = (pkg: string, file: string) => readFile(join(dirs.get(pkg)!, file))
    const asn = buildAsnTables(
      { v4: await read(ASN_PACKAGE, 'asn-ipv4-num.csv'), v6: await read(ASN_PACKAGE, 'asn-ipv6-num.csv') },
      { v4: 'asn-ipv4-num.csv', v6: 'asn-ipv6-num.csv' },
    )
    const country = buildCountryTables(
      { v4: await read(COUNTRY_PACKAGE, 'geo-whois-asn-country-ipv4-num.csv'), v6: await read(COUNTRY_PACKAGE, 'geo-whois-asn-country-ipv6-num.csv') },
      { v4: 'geo-whois-asn-country-ipv4-num.csv', v6: 'geo-whois-asn-country-ipv6-num.csv' },
    )
    parsed = { tables: { asn: asn.tables, country: country.tables }, stats: { asn: asn.stats, country: country.stats } }
    if (cacheFile) cacheError = await writeCache(cacheFile, key, parsed)
  }
  const { tables, stats } = parsed
  return {
    lookup: (ip) => lookupIp(tables, ip),
    tables,
    packages,
    attributions: IP_DATA_ATTRIBUTIONS,
    load: { from, ms: performance.now() - began, cacheFile, cacheError, stats },
  }
}

interface Parsed {
  readonly tables: IpTables
  readonly stats: IpDatabaseLoad['stats']
}

// The cache file: MAGIC, FORMAT and the header's length as three 32-bit words, the JSON header
// (key, dictionaries, stats, where each array lies), then the arrays, each at a 4-byte offset.
interface CacheHeader {
  readonly key: string
  readonly codes: readonly string[]
  readonly orgs: readonly string[]
  readonly stats: Parsed['stats']
  readonly arrays: Readonly<Record<string, readonly [offset: number, length: number]>>
}

function arraysOf(tables: IpTables): Record<string, Uint32Array> {
  const out: Record<string, Uint32Array> = { 'asn.asn': tables.asn.asn }
  for (const [set, t] of [['country', tables.country], ['asn', tables.asn]] as const) {
    for (const v of ['v4', 'v6'] as const) {
      out[`${set}.${v}.start`] = t[v].start
      out[`${set}.${v}.end`] = t[v].end
      out[`${set}.${v}.value`] = t[v].value
    }
  }
  return out
}

async function writeCache(file: string, key: string, parsed: Parsed): Promise<string | null> {
  const arrays = arraysOf(parsed.tables)
  const placed: Record<string, readonly [number, number]> = {}
  // Offsets count from the start of the array area, which begins 4-byte aligned.
  let offset = 0
  for (const [name, arr] of Object.entries(arrays)) {
    placed[name] = [offset, arr.length]
    offset += arr.byteLength
  }
  const header: CacheHeader = { key, codes: parsed.tables.country.codes, orgs: parsed.tables.asn.org, stats: parsed.stats, arrays: placed }
  const json = new TextEncoder().encode(JSON.stringify(header))
  const base = (12 + json.length + 3) & ~3
  const bytes = new Uint8Array(base + offset)
  new Uint32Array(bytes.buffer, 0, 3).set([MAGIC, FORMAT, json.length])
  bytes.set(json, 12)
  for (const [name, arr] of Object.entries(arrays)) bytes.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), base + placed[name]![0])
  const dir = dirname(file)
  const temp = `${file}.${process.pid}.tmp`
  try {
    await mkdir(dir, { recursive: true })
    await writeFile(temp, bytes)
    await rename(temp, file)
  } catch (err) {
    await rm(temp, { force: true }).catch(() => {})
    return `Cannot write the IP database cache ${file}: ${(err as Error).message}`
  }
  // Caches of other package versions or formats are dead weight now.
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.startsWith(CACHE_PREFIX) && name.endsWith('.bin') && join(dir, name) !== file) await rm(join(dir, name), { force: true }).catch(() => {})
  }
  return null
}

/** The tables from a cache file, or null when it is missing, stale or damaged (it is then rebuilt). */
function readCache(file: string, key: string): Parsed | null {
  let bytes: Uint8Array
  try {
    // Mapped, not read: the tables are file pages the kernel brings in as lookups touch them
    // (and may drop again under pressure), not 23 MB of the process's own memory. The file is
    // only ever replaced by a rename (writeCache), never rewritten in place, so the mapping
    // keeps the file it was made of.
    bytes = Bun.mmap(file, { shared: false })
  } catch {
    return null
  }
  try {
    return viewCache(bytes, key)
  } catch {
    // A header that parses as JSON but has the wrong shape.
    return null
  }
}

function viewCache(bytes: Uint8Array, key: string): Parsed | null {
  // Typed-array views need 4-byte alignment; a Buffer may start anywhere in its ArrayBuffer.
  if (bytes.byteOffset % 4 !== 0) bytes = new Uint8Array(bytes)
  if (bytes.length < 12) return null
  const [magic, format, jsonLength] = new Uint32Array(bytes.buffer, bytes.byteOffset, 3)
  if (magic !== MAGIC || format !== FORMAT || 12 + jsonLength! > bytes.length) return null
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + jsonLength!))) as CacheHeader
  if (header.key !== key || !Array.isArray(header.codes) || !Array.isArray(header.orgs)) return null
  const base = bytes.byteOffset + ((12 + jsonLength! + 3) & ~3)
  const array = (name: string): Uint32Array | null => {
    const place = header.arrays[name]
    if (!place) return null
    const [offset, length] = place
    if (base + offset + length * 4 > bytes.byteOffset + bytes.length) return null
    return new Uint32Array(bytes.buffer, base + offset, length)
  }
  const table = (set: string, v: 'v4' | 'v6'): RangeTable | null => {
    const start = array(`${set}.${v}.start`)
    const end = array(`${set}.${v}.end`)
    const value = array(`${set}.${v}.value`)
    const words = v === 'v4' ? 1 : 4
    if (!start || !end || !value || start.length !== value.length * words || end.length !== start.length) return null
    return { words, length: value.length, start, end, value }
  }
  const c4 = table('country', 'v4')
  const c6 = table('country', 'v6')
  const a4 = table('asn', 'v4')
  const a6 = table('asn', 'v6')
  const asn = array('asn.asn')
  if (!c4 || !c6 || !a4 || !a6 || !asn || asn.length !== header.orgs.length) return null
  // Values past their dictionary are not looked for here (it would read every page of the
  // mapped file at start): a lookup takes such a value as no answer (ipdb-core.ts).
  const country: CountryTables = { v4: c4, v6: c6, codes: header.codes }
  const asnTables: AsnTables = { v4: a4, v6: a6, asn, org: header.orgs }
  return { tables: { country, asn: asnTables }, stats: header.stats }
}

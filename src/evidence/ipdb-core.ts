// Country and AS lookups over range tables. Pure: the tables come in as arguments (built from
// the CSV packages by ipdb-csv.ts, loaded by ipdb.ts, or written by hand in tests), and a
// lookup is a binary search over typed arrays, so it allocates next to nothing.

import { formatIp, parseIp } from '../core/ip'
import { ipScope, type IpScope } from '../core/ip-scope'
import { classifyNetwork, type HostingReason } from './ipdb-hosting'

/**
 * Inclusive address ranges, sorted by start and not overlapping. An address is `words` 32-bit
 * words, most significant first: one for IPv4, four for IPv6; range i's bounds are
 * `start`/`end[i * words … i * words + words - 1]`.
 */
export interface RangeTable {
  readonly words: 1 | 4
  readonly length: number
  readonly start: Uint32Array
  readonly end: Uint32Array
  /** Per range, an index into the dictionary of the tables it belongs to. */
  readonly value: Uint32Array
}

export interface CountryTables {
  readonly v4: RangeTable
  readonly v6: RangeTable
  /** ISO 3166-1 alpha-2 codes, indexed by `value`. */
  readonly codes: readonly string[]
}

export interface AsnTables {
  readonly v4: RangeTable
  readonly v6: RangeTable
  /** AS number and organisation name of each AS entry, indexed by `value`. */
  readonly asn: Uint32Array
  readonly org: readonly string[]
}

export interface IpTables {
  readonly country: CountryTables
  readonly asn: AsnTables
}

export interface IpInfo {
  /** Canonical text of the address (`::ffff:8.8.8.8` → `8.8.8.8`). */
  readonly ip: string
  readonly version: 4 | 6
  /** ISO 3166-1 alpha-2, or null when the country tables have no range for the address. */
  readonly country: string | null
  readonly asn: number | null
  readonly org: string | null
  /** The network looks like servers (cloud, hosting, CDN, VPN or Tor operator), not a home or mobile line. */
  readonly hosting: boolean
  readonly hostingReason: HostingReason | null
}

/**
 * `invalid`: not an IP address. `private`: not a public unicast address, so no table can place
 * it (`scope` says which kind: private, loopback, cgnat, link-local…). `unlisted`: public, but
 * in neither the country nor the AS tables (unallocated or unrouted space).
 */
export type IpMissReason = 'invalid' | 'private' | 'unlisted'

export type IpLookup =
  | { readonly ok: true; readonly info: IpInfo }
  | { readonly ok: false; readonly reason: IpMissReason; readonly scope: IpScope | null }

/** `words` 32-bit words of an address given as 4 or 16 bytes. */
export function addressWords(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.length / 4)
  for (let i = 0; i < out.length; i++) {
    out[i] = ((bytes[i * 4]! << 24) | (bytes[i * 4 + 1]! << 16) | (bytes[i * 4 + 2]! << 8) | bytes[i * 4 + 3]!) >>> 0
  }
  return out
}

/** Compares `key` with the address at `offset` of `arr`: negative when the address is smaller. */
function compareAt(arr: Uint32Array, offset: number, key: Uint32Array, words: number): number {
  for (let w = 0; w < words; w++) {
    const a = arr[offset + w]!
    const b = key[w]!
    if (a !== b) return a < b ? -1 : 1
  }
  return 0
}

/** Index of the range containing `key` (as many words as the table's), or -1. */
export function findRange(table: RangeTable, key: Uint32Array): number {
  const { words, start, end } = table
  if (key.length !== words) return -1
  // The last range whose start is <= key; it holds the key if its end is >= key.
  let lo = 0
  let hi = table.length - 1
  let found = -1
  if (words === 1) {
    const k = key[0]!
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      if (start[mid]! <= k) { found = mid; lo = mid + 1 } else hi = mid - 1
    }
    return found >= 0 && end[found]! >= k ? found : -1
  }
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    if (compareAt(start, mid * words, key, words) <= 0) { found = mid; lo = mid + 1 } else hi = mid - 1
  }
  return found >= 0 && compareAt(end, found * words, key, words) >= 0 ? found : -1
}

/** Country, AS and hosting verdict for an address, or why there is none. */
export function lookupIp(tables: IpTables, address: string): IpLookup {
  const bytes = parseIp(address)
  if (!bytes) return { ok: false, reason: 'invalid', scope: null }
  const scope = ipScope(address)
  if (scope !== 'public') return { ok: false, reason: 'private', scope }
  const key = addressWords(bytes)
  const v6 = bytes.length === 16
  const c = findRange(v6 ? tables.country.v6 : tables.country.v4, key)
  const a = findRange(v6 ? tables.asn.v6 : tables.asn.v4, key)
  if (c < 0 && a < 0) return { ok: false, reason: 'unlisted', scope }
  const country = c < 0 ? null : (tables.country.codes[(v6 ? tables.country.v6 : tables.country.v4).value[c]!] ?? null)
  // A value past its dictionary (a damaged cache file: src/evidence/ipdb.ts checks none up
  // front, so that it never reads the whole file) is no answer, as a missing range is.
  const found = a < 0 ? -1 : (v6 ? tables.asn.v6 : tables.asn.v4).value[a]!
  const entry = found < tables.asn.asn.length ? found : -1
  const asn = entry < 0 ? null : tables.asn.asn[entry]!
  const org = entry < 0 ? null : (tables.asn.org[entry] || null)
  const hostingReason = classifyNetwork(asn, org)
  return {
    ok: true,
    info: { ip: formatIp(bytes), version: v6 ? 6 : 4, country, asn, org, hosting: hostingReason !== null, hostingReason },
  }
}

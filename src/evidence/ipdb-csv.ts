// Range tables from the `*-num.csv` files of the @ip-location-db packages
// (https://github.com/sapics/ip-location-db#csv-format): one inclusive range per line, bounds
// as decimal integers (IPv6 ones up to 39 digits), then the country code, or the AS number
// and organisation name (a CSV field, quoted when it holds a comma or a quote). Each table is
// the file's bytes (or a text of one character per byte, read as latin1: tests); organisation
// names are decoded from UTF-8 here. Bytes, not a string of them: the loader reads each file
// once into memory that is not copied again, so the first start's parse holds the CSVs once
// (docs/performance.md, memory).
//
// Parsed by hand, character by character, because this runs at every start: a million lines
// go through it, and split/BigInt/regex per line costs seconds where this costs a fraction.
// A malformed line means the package is not what we pinned, so it throws, naming the line.
// Overlapping ranges are resolved into disjoint ones, the narrower range winning (see readRanges).

import type { AsnTables, CountryTables, RangeTable } from './ipdb-core'

export interface TableStats {
  /** Lines read. */
  readonly rows: number
  /** Ranges in the table: rows, plus the pieces of ranges split by a narrower one inside them. */
  readonly ranges: number
  /** Rows that started inside an earlier range. */
  readonly overlaps: number
}

export interface BuildStats {
  readonly v4: TableStats
  readonly v6: TableStats
}

export interface Built<T> {
  readonly tables: T
  readonly stats: BuildStats
}

const TWO_32 = 4294967296
const COMMA = 44
const NEWLINE = 10
const QUOTE = 34
const ZERO = 48

/** A table's bytes, from the file's bytes or from a text of one character per byte. */
export type CsvBytes = string | Uint8Array

function bytesOf(csv: CsvBytes): Buffer {
  if (typeof csv === 'string') return Buffer.from(csv, 'latin1')
  return Buffer.isBuffer(csv) ? csv : Buffer.from(csv.buffer, csv.byteOffset, csv.byteLength)
}

/**
 * Reads `text` (one range per line) into a range table, calling `value(from, to)` with the
 * rest of each line. Ranges must come sorted by start. Where they overlap, the narrower one
 * wins: the ip-location-db merge leaves, say, a geofeed's /29 inside the whois /26 that it
 * refines, so the /26 is cut into the parts before and after the /29.
 */
function readRanges(text: Buffer, words: 1 | 4, name: string, value: (from: number, to: number) => number): { table: RangeTable; stats: TableStats } {
  let lines = 0
  for (let i = text.indexOf(NEWLINE); i >= 0; i = text.indexOf(NEWLINE, i + 1)) lines++
  if (text.length > 0 && text[text.length - 1] !== NEWLINE) lines++
  // A range inside another cuts it in two, so the table may hold up to twice the lines.
  const start = new Uint32Array(lines * 2 * words)
  const end = new Uint32Array(lines * 2 * words)
  const values = new Uint32Array(lines * 2)
  let ranges = 0
  let overlaps = 0
  let line = 0
  let pos = 0
  const s = new Uint32Array(words)
  const e = new Uint32Array(words)
  const previousStart = new Uint32Array(words)
  const beforeLimit = new Uint32Array(words)
  // Ranges that have started and are not yet all written, as a stack ordered by end (the
  // soonest-ending, i.e. innermost, on top); `cursor` is the first address not yet written.
  let openEnd = new Uint32Array(8 * words)
  let openValue = new Uint32Array(8)
  let depth = 0
  const cursor = new Uint32Array(words)
  let exhausted = false
  // Whether the last range written ends right before `cursor`.
  let adjacent = false

  const fail = (why: string): never => {
    throw new Error(`Cannot read IP table ${name}: line ${line}: ${why}`)
  }
  const compare = (a: Uint32Array, ai: number, b: Uint32Array, bi: number) => {
    for (let w = 0; w < words; w++) {
      const x = a[ai + w]!
      const y = b[bi + w]!
      if (x !== y) return x < y ? -1 : 1
    }
    return 0
  }
  /** Parses the decimal bound at `pos` into `into`, leaving `pos` after the comma that ends it. */
  const readBound = (into: Uint32Array) => {
    const from = pos
    if (words === 1) {
      let n = 0
      for (let c = text[pos]!; c >= ZERO && c <= ZERO + 9; c = text[++pos]!) n = n * 10 + (c - ZERO)
      if (pos === from || pos - from > 10 || n >= TWO_32) fail(`bad IPv4 number '${text.toString('latin1', from, pos + 1)}'`)
      into[0] = n
    } else {
      // Base 2^32, most significant word first, fed four decimal digits at a time so that
      // word * 10^4 + carry stays an exact integer in a double.
      into.fill(0)
      let chunk = 0
      let scale = 1
      for (let c = text[pos]!; ; c = text[++pos]!) {
        const digit = c >= ZERO && c <= ZERO + 9
        if (digit) {
          chunk = chunk * 10 + (c - ZERO)
          scale *= 10
        }
        if (scale === 10000 || (!digit && scale > 1)) {
          let carry = chunk
          for (let w = 3; w >= 0; w--) {
            const v = into[w]! * scale + carry
            const low = v % TWO_32
            into[w] = low
            carry = (v - low) / TWO_32
          }
          if (carry !== 0) fail('IPv6 number above 2^128')
          chunk = 0
          scale = 1
        }
        if (!digit) break
      }
      if (pos === from || pos - from > 39) fail(`bad IPv6 number '${text.toString('latin1', from, pos + 1)}'`)
    }
    if (text[pos]! !== COMMA) fail('expected a comma after the range bound')
    pos++
  }
  /** Writes the open ranges out up to, not including, `limit` (everything when null). */
  const flush = (limit: Uint32Array | null) => {
    while (depth > 0 && !exhausted) {
      if (limit !== null && compare(cursor, 0, limit, 0) >= 0) return
      const top = (depth - 1) * words
      if (compare(openEnd, top, cursor, 0) < 0) { depth--; continue }
      let last = openEnd
      let at = top
      const whole = limit === null || compare(openEnd, top, limit, 0) < 0
      if (!whole) {
        // limit - 1; limit > cursor >= 0, so it does not wrap.
        beforeLimit.set(limit)
        for (let w = words - 1; w >= 0; w--) {
          beforeLimit[w] = (beforeLimit[w]! - 1) >>> 0
          if (beforeLimit[w] !== 0xffffffff) break
        }
        last = beforeLimit
        at = 0
      }
      // A piece that continues the previous one with the same value extends it instead (a
      // range cut by an overlap can come back together).
      const v = openValue[depth - 1]!
      const extend = adjacent && ranges > 0 && values[ranges - 1] === v
      const o = (extend ? ranges - 1 : ranges) * words
      for (let w = 0; w < words; w++) {
        if (!extend) start[o + w] = cursor[w]!
        end[o + w] = last[at + w]!
        cursor[w] = last[at + w]!
      }
      if (!extend) values[ranges++] = v
      adjacent = true
      // cursor = last + 1
      exhausted = true
      for (let w = words - 1; w >= 0; w--) {
        cursor[w] = (cursor[w]! + 1) >>> 0
        if (cursor[w] !== 0) { exhausted = false; break }
      }
      if (whole) depth--
    }
  }

  while (pos < text.length) {
    line++
    readBound(s)
    readBound(e)
    let eol = text.indexOf(NEWLINE, pos)
    if (eol < 0) eol = text.length
    if (compare(s, 0, e, 0) > 0) fail('range starts after it ends')
    if (line > 1 && compare(s, 0, previousStart, 0) < 0) fail('ranges are not sorted by start')
    previousStart.set(s)
    const v = value(pos, eol)
    pos = eol + 1

    flush(s)
    while (depth > 0 && compare(openEnd, (depth - 1) * words, s, 0) < 0) depth--
    if (depth > 0) overlaps++
    if (depth * words === openEnd.length) {
      const grownEnd = new Uint32Array(openEnd.length * 2)
      grownEnd.set(openEnd)
      openEnd = grownEnd
      const grownValue = new Uint32Array(openValue.length * 2)
      grownValue.set(openValue)
      openValue = grownValue
    }
    // Insert below the open ranges that end sooner (ties: the later range on top).
    let at = depth
    while (at > 0 && compare(openEnd, (at - 1) * words, e, 0) < 0) at--
    openEnd.copyWithin((at + 1) * words, at * words, depth * words)
    openValue.copyWithin(at + 1, at, depth)
    openEnd.set(e, at * words)
    openValue[at] = v
    depth++
    if (!exhausted && compare(cursor, 0, s, 0) < 0) {
      cursor.set(s)
      adjacent = false
    }
  }
  flush(null)
  const table: RangeTable = {
    words,
    length: ranges,
    start: start.slice(0, ranges * words),
    end: end.slice(0, ranges * words),
    value: values.slice(0, ranges),
  }
  return { table, stats: { rows: line, ranges, overlaps } }
}

/** Country tables from the IPv4 and IPv6 `*-num.csv` texts (`start,end,CC`). */
export function buildCountryTables(csv: { readonly v4: CsvBytes; readonly v6: CsvBytes }, names = { v4: 'country-ipv4', v6: 'country-ipv6' }): Built<CountryTables> {
  const codes: string[] = []
  // By the code's two bytes (no string per line: half a million lines go through here).
  const index = new Map<number, number>()
  const reader = (text: Buffer, name: string) => (from: number, to: number) => {
    const pair = to - from === 2 ? text[from]! * 256 + text[from + 1]! : -1
    let i = index.get(pair)
    if (i === undefined) {
      const code = text.toString('latin1', from, to)
      if (!/^[A-Z]{2}$/.test(code)) throw new Error(`Cannot read IP table ${name}: '${code}' is not a country code`)
      i = codes.length
      codes.push(code)
      index.set(pair, i)
    }
    return i
  }
  const t4 = bytesOf(csv.v4)
  const v4 = readRanges(t4, 1, names.v4, reader(t4, names.v4))
  const t6 = bytesOf(csv.v6)
  const v6 = readRanges(t6, 4, names.v6, reader(t6, names.v6))
  return { tables: { v4: v4.table, v6: v6.table, codes }, stats: { v4: v4.stats, v6: v6.stats } }
}

/** AS tables from the IPv4 and IPv6 `*-num.csv` texts (`start,end,asn,organisation`). */
export function buildAsnTables(csv: { readonly v4: CsvBytes; readonly v6: CsvBytes }, names = { v4: 'asn-ipv4', v6: 'asn-ipv6' }): Built<AsnTables> {
  let asns = new Uint32Array(1024)
  const orgs: string[] = []
  // Most ASes have one name, so the last entry per number is checked first, against the bytes
  // of the line that made it (no string per line: half a million lines go through here).
  const lastEntry = new Map<number, { entry: number; text: Buffer; from: number; to: number }>()
  const entries = new Map<string, number>()
  const sameBytes = (a: Buffer, aFrom: number, aTo: number, b: Buffer, bFrom: number, bTo: number) => {
    if (aTo - aFrom !== bTo - bFrom) return false
    for (let i = 0; i < aTo - aFrom; i++) if (a[aFrom + i] !== b[bFrom + i]) return false
    return true
  }
  const reader = (text: Buffer, name: string) => (from: number, to: number) => {
    let pos = from
    let asn = 0
    for (let c = text[pos]!; c >= ZERO && c <= ZERO + 9; c = text[++pos]!) asn = asn * 10 + (c - ZERO)
    if (pos === from || pos - from > 10 || asn >= TWO_32 || (pos < to && text[pos]! !== COMMA)) {
      throw new Error(`Cannot read IP table ${name}: bad AS number in '${text.toString('latin1', from, to)}'`)
    }
    const fieldFrom = pos < to ? pos + 1 : to
    const last = lastEntry.get(asn)
    if (last && sameBytes(last.text, last.from, last.to, text, fieldFrom, to)) return last.entry
    const field = text.toString('latin1', fieldFrom, to)
    const org = field.charCodeAt(0) === QUOTE && field.charCodeAt(field.length - 1) === QUOTE && field.length >= 2 ? field.slice(1, -1).replaceAll('""', '"') : field
    if (last && orgs[last.entry] === org) return last.entry
    const key = `${asn}\n${org}`
    let e = entries.get(key)
    if (e === undefined) {
      e = orgs.length
      if (e === asns.length) {
        const grown = new Uint32Array(asns.length * 2)
        grown.set(asns)
        asns = grown
      }
      asns[e] = asn
      orgs.push(org)
      entries.set(key, e)
    }
    lastEntry.set(asn, { entry: e, text, from: fieldFrom, to })
    return e
  }
  const t4 = bytesOf(csv.v4)
  const v4 = readRanges(t4, 1, names.v4, reader(t4, names.v4))
  const t6 = bytesOf(csv.v6)
  const v6 = readRanges(t6, 4, names.v6, reader(t6, names.v6))
  const utf8 = new TextDecoder()
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every byte outside ASCII, control characters included.
  const decoded = orgs.map((o) => (/[^\x00-\x7f]/.test(o) ? utf8.decode(Uint8Array.from(o, (c) => c.charCodeAt(0))) : o))
  return { tables: { v4: v4.table, v6: v6.table, asn: asns.slice(0, orgs.length), org: decoded }, stats: { v4: v4.stats, v6: v6.stats } }
}

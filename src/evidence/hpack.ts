// HPACK (RFC 7541), the header compression of HTTP/2: enough of a decoder to read a client's
// header blocks in order, which is what the pseudo-header order of the Akamai fingerprint and
// the header-order checks need. Static table (Appendix A), dynamic table with eviction (§4),
// integers (§5.1), string literals with Huffman coding (§5.2, Appendix B), and the four field
// representations plus dynamic table size updates (§6).
//
// A decoder is a plain object that the caller keeps per connection: browsers index their
// request headers, so the second request's block refers to entries the first one added.

import { ByteReader, attempt, fail, latin1, type Parsed } from './bytes'

export interface HeaderField {
  /** One character per byte as sent (names are lower-case in HTTP/2, RFC 9113 §8.2.1). */
  name: string
  value: string
}

export type HpackError = 'truncated' | 'bad-index' | 'bad-huffman' | 'bad-size-update' | 'too-large'

export interface HpackDecoder {
  /** Newest entry first, as the dynamic table is indexed (§2.3.3). */
  entries: HeaderField[]
  size: number
  /** The table size the encoder last set with a size update (starts at `limit`). */
  maxSize: number
  /** SETTINGS_HEADER_TABLE_SIZE this side advertised: the ceiling for size updates (§4.2). */
  limit: number
}

/** 4096 is HTTP/2's default SETTINGS_HEADER_TABLE_SIZE (RFC 9113 §6.5.2). */
export function createHpackDecoder(limit = 4096): HpackDecoder {
  return { entries: [], size: 0, maxSize: limit, limit }
}

// Appendix A. Index 0 is unused.
const STATIC: ReadonlyArray<readonly [string, string]> = [
  ['', ''],
  [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'], [':path', '/index.html'],
  [':scheme', 'http'], [':scheme', 'https'], [':status', '200'], [':status', '204'], [':status', '206'],
  [':status', '304'], [':status', '400'], [':status', '404'], [':status', '500'], ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'], ['accept-language', ''], ['accept-ranges', ''], ['accept', ''],
  ['access-control-allow-origin', ''], ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
  ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
  ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''], ['date', ''],
  ['etag', ''], ['expect', ''], ['expires', ''], ['from', ''], ['host', ''], ['if-match', ''],
  ['if-modified-since', ''], ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''],
  ['last-modified', ''], ['link', ''], ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''],
  ['proxy-authorization', ''], ['range', ''], ['referer', ''], ['refresh', ''], ['retry-after', ''],
  ['server', ''], ['set-cookie', ''], ['strict-transport-security', ''], ['transfer-encoding', ''],
  ['user-agent', ''], ['vary', ''], ['via', ''], ['www-authenticate', ''],
]
export const STATIC_TABLE_SIZE = STATIC.length - 1

// Appendix B gives a code for each byte value and EOS (256). The code is canonical: within
// each length, codes are consecutive in symbol order, and each length starts at the previous
// length's next code shifted left. So the lengths alone define it; codes are derived below,
// and the tests check them against the appendix and check that the code is complete.
// prettier-ignore
const CODE_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30, // EOS
]
const EOS = 256
const MAX_CODE_LENGTH = 30

/** Per code length: the first code, how many symbols, and where they start in `SYMBOLS`. */
const FIRST_CODE = new Array<number>(MAX_CODE_LENGTH + 1).fill(0)
const COUNT = new Array<number>(MAX_CODE_LENGTH + 1).fill(0)
const OFFSET = new Array<number>(MAX_CODE_LENGTH + 1).fill(0)
const SYMBOLS: number[] = CODE_LENGTHS.map((_, s) => s).sort((a, b) => CODE_LENGTHS[a]! - CODE_LENGTHS[b]! || a - b)
{
  let code = 0
  let length = 0
  SYMBOLS.forEach((s, i) => {
    const l = CODE_LENGTHS[s]!
    if (l !== length) {
      code <<= l - length
      length = l
      FIRST_CODE[l] = code
      OFFSET[l] = i
    }
    COUNT[l]!++
    code++
  })
}

/** The code and length Appendix B gives a symbol (for the tests and for encoding fixtures). */
export function huffmanCode(symbol: number): { code: number; length: number } {
  const length = CODE_LENGTHS[symbol]!
  const rank = SYMBOLS.indexOf(symbol) - OFFSET[length]!
  return { code: FIRST_CODE[length]! + rank, length }
}

/**
 * Decodes a Huffman-coded string literal (§5.2). The last byte is padded with the high bits of
 * EOS (all ones); padding of 8 bits or more, padding that is not all ones, and an EOS symbol
 * inside the string are decoding errors.
 */
export function huffmanDecode(bytes: Uint8Array): Parsed<Uint8Array, 'bad-huffman'> {
  return attempt(() => {
    const out: number[] = []
    let code = 0
    let length = 0
    for (const byte of bytes) {
      for (let bit = 7; bit >= 0; bit--) {
        code = (code << 1) | ((byte >> bit) & 1)
        length++
        const index = code - FIRST_CODE[length]!
        if (COUNT[length]! > 0 && index >= 0 && index < COUNT[length]!) {
          const symbol = SYMBOLS[OFFSET[length]! + index]!
          if (symbol === EOS) fail('bad-huffman', 'EOS symbol inside a Huffman-coded string')
          out.push(symbol)
          code = 0
          length = 0
        } else if (length >= MAX_CODE_LENGTH) fail('bad-huffman', 'no Huffman code matches')
      }
    }
    if (length >= 8) fail('bad-huffman', `Huffman padding of ${length} bits is 8 or more`)
    if (code !== (1 << length) - 1) fail('bad-huffman', 'Huffman padding is not the EOS prefix (all ones)')
    return Uint8Array.from(out)
  })
}

/** Integer with an N-bit prefix (§5.1); values past 2^31 are refused rather than overflowing. */
function integer(r: ByteReader, first: number, prefixBits: number): number {
  const max = (1 << prefixBits) - 1
  let value = first & max
  if (value < max) return value
  let shift = 0
  for (;;) {
    const b = r.u8()
    value += (b & 0x7f) * 2 ** shift
    shift += 7
    if (value > 0x7fffffff) fail('too-large', `integer over 2^31 at offset ${r.pos}`)
    if ((b & 0x80) === 0) return value
  }
}

function stringLiteral(r: ByteReader): string {
  const first = r.u8()
  const length = integer(r, first, 7)
  const raw = r.take(length)
  if ((first & 0x80) === 0) return latin1(raw)
  const decoded = huffmanDecode(raw)
  if (!decoded.ok) fail('bad-huffman', decoded.detail)
  return latin1(decoded.value)
}

const entrySize = (f: HeaderField) => f.name.length + f.value.length + 32

function evict(d: HpackDecoder, room: number): void {
  while (d.entries.length > 0 && d.size + room > d.maxSize) d.size -= entrySize(d.entries.pop()!)
}

/** Adds an entry (§4.4): older entries are evicted first; one larger than the table empties it. */
function insert(d: HpackDecoder, f: HeaderField): void {
  const size = entrySize(f)
  evict(d, size)
  if (size > d.maxSize) return
  d.entries.unshift(f)
  d.size += size
}

function lookup(d: HpackDecoder, index: number): HeaderField {
  if (index === 0) fail('bad-index', 'index 0')
  if (index <= STATIC_TABLE_SIZE) {
    const [name, value] = STATIC[index]!
    return { name, value }
  }
  const f = d.entries[index - STATIC_TABLE_SIZE - 1]
  if (!f) fail('bad-index', `index ${index} is past the ${d.entries.length}-entry dynamic table`)
  return f
}

/**
 * Decodes one complete header block (HEADERS plus CONTINUATION fragments), updating the
 * decoder's dynamic table. `maxFields` bounds the work a hostile block can cause.
 */
export function decodeHeaderBlock(d: HpackDecoder, block: Uint8Array, maxFields = 256): Parsed<HeaderField[], HpackError | 'truncated'> {
  return attempt(() => {
    const r = new ByteReader(block, 0, block.length, 'header block')
    const fields: HeaderField[] = []
    let fieldSeen = false
    while (r.remaining > 0) {
      const b = r.u8()
      if (b & 0x80) {
        // §6.1 Indexed header field.
        fields.push(lookup(d, integer(r, b, 7)))
      } else if ((b & 0xe0) === 0x20) {
        // §6.3 Dynamic table size update: only at the start of a block (§4.2), at most the limit.
        if (fieldSeen) fail('bad-size-update', 'dynamic table size update after a header field')
        const size = integer(r, b, 5)
        if (size > d.limit) fail('bad-size-update', `table size ${size} over the advertised ${d.limit}`)
        d.maxSize = size
        evict(d, 0)
        continue
      } else {
        // §6.2.1 with incremental indexing (01), §6.2.2 without (0000), §6.2.3 never indexed (0001).
        const indexing = (b & 0xc0) === 0x40
        const index = integer(r, b, indexing ? 6 : 4)
        const name = index === 0 ? stringLiteral(r) : lookup(d, index).name
        const field = { name, value: stringLiteral(r) }
        if (indexing) insert(d, field)
        fields.push(field)
      }
      fieldSeen = true
      if (fields.length > maxFields) fail('too-large', `more than ${maxFields} header fields`)
    }
    return fields
  })
}

import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ByteWriter, fromHex } from './bytes'
import { createHpackDecoder, decodeHeaderBlock, huffmanCode, huffmanDecode, STATIC_TABLE_SIZE, type HeaderField, type HpackDecoder } from './hpack'

const hex = (s: string) => fromHex(s)!

function decode(d: HpackDecoder, block: string | Uint8Array): HeaderField[] {
  const r = decodeHeaderBlock(d, typeof block === 'string' ? hex(block) : block)
  if (!r.ok) throw new Error(r.detail)
  return r.value
}

const pairs = (fields: HeaderField[]) => fields.map((f) => [f.name, f.value])

// A small HPACK encoder for the round-trip tests: integers (§5.1), optionally Huffman-coded
// strings (§5.2) and the literal representations of §6.2.
function encodeInt(w: ByteWriter, firstBits: number, prefix: number, value: number): void {
  const max = (1 << prefix) - 1
  if (value < max) {
    w.u8(firstBits | value)
    return
  }
  w.u8(firstBits | max)
  value -= max
  while (value >= 128) {
    w.u8((value % 128) | 0x80)
    value = Math.floor(value / 128)
  }
  w.u8(value)
}

function huffmanEncode(bytes: Uint8Array): Uint8Array {
  let bits = ''
  for (const b of bytes) {
    const { code, length } = huffmanCode(b)
    bits += code.toString(2).padStart(length, '0')
  }
  bits += '1'.repeat((8 - (bits.length % 8)) % 8)
  return Uint8Array.from({ length: bits.length / 8 }, (_, i) => parseInt(bits.slice(i * 8, i * 8 + 8), 2))
}

function encodeString(w: ByteWriter, s: string, huffman: boolean): void {
  const raw = Uint8Array.from(s, (c) => c.charCodeAt(0))
  const data = huffman ? huffmanEncode(raw) : raw
  encodeInt(w, huffman ? 0x80 : 0, 7, data.length)
  w.bytes(data)
}

describe('Huffman code (RFC 7541 Appendix B)', () => {
  test('the derived codes match the appendix', () => {
    expect(huffmanCode(0)).toEqual({ code: 0x1ff8, length: 13 })
    expect(huffmanCode(1)).toEqual({ code: 0x7fffd8, length: 23 })
    expect(huffmanCode(10)).toEqual({ code: 0x3ffffffc, length: 30 })
    expect(huffmanCode(32)).toEqual({ code: 0x14, length: 6 })
    expect(huffmanCode(33)).toEqual({ code: 0x3f8, length: 10 })
    expect(huffmanCode(48)).toEqual({ code: 0x0, length: 5 })
    expect(huffmanCode(97)).toEqual({ code: 0x3, length: 5 })
    expect(huffmanCode(254)).toEqual({ code: 0x7fffff0, length: 27 })
    expect(huffmanCode(255)).toEqual({ code: 0x3ffffee, length: 26 })
    expect(huffmanCode(256)).toEqual({ code: 0x3fffffff, length: 30 })
  })

  test('the code is complete: the Kraft sum of its 257 lengths is exactly 1', () => {
    let sum = 0
    for (let s = 0; s <= 256; s++) sum += 2 ** (30 - huffmanCode(s).length)
    expect(sum).toBe(2 ** 30)
  })

  test('decodes the strings of Appendix C.4', () => {
    const text = (h: string) => {
      const r = huffmanDecode(hex(h))
      return r.ok ? new TextDecoder().decode(r.value) : r.error
    }
    expect(text('f1e3c2e5f23a6ba0ab90f4ff')).toBe('www.example.com')
    expect(text('a8eb10649cbf')).toBe('no-cache')
    expect(text('25a849e95ba97d7f')).toBe('custom-key')
    expect(text('25a849e95bb8e8b4bf')).toBe('custom-value')
  })

  test('every byte value round-trips', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const r = huffmanDecode(huffmanEncode(b))
        expect(r.ok && Array.from(r.value)).toEqual(Array.from(b))
      }),
      { numRuns: 300 },
    )
  })

  test('padding of 8 bits or more, padding that is not ones, and EOS are errors (§5.2)', () => {
    expect(huffmanDecode(hex('ff'))).toMatchObject({ ok: false, error: 'bad-huffman' })
    expect(huffmanDecode(hex('00'))).toMatchObject({ ok: false, error: 'bad-huffman' })
    expect(huffmanDecode(hex('ffffffff'))).toMatchObject({ ok: false, error: 'bad-huffman' })
    // '0' (00000) then padding 111: valid.
    expect(huffmanDecode(hex('07'))).toMatchObject({ ok: true })
  })
})

describe('decodeHeaderBlock', () => {
  test('Appendix C.2: the four representations on their own', () => {
    const d = createHpackDecoder()
    expect(pairs(decode(d, '400a637573746f6d2d6b65790d637573746f6d2d686561646572'))).toEqual([['custom-key', 'custom-header']])
    expect(d.size).toBe(55)
    expect(pairs(decode(createHpackDecoder(), '040c2f73616d706c652f70617468'))).toEqual([[':path', '/sample/path']])
    const never = createHpackDecoder()
    expect(pairs(decode(never, '100870617373776f726406736563726574'))).toEqual([['password', 'secret']])
    expect(never.entries).toEqual([])
    expect(pairs(decode(createHpackDecoder(), '82'))).toEqual([[':method', 'GET']])
  })

  test('Appendix C.4: three requests with Huffman coding share the dynamic table', () => {
    const d = createHpackDecoder()
    expect(pairs(decode(d, '828684418cf1e3c2e5f23a6ba0ab90f4ff'))).toEqual([
      [':method', 'GET'],
      [':scheme', 'http'],
      [':path', '/'],
      [':authority', 'www.example.com'],
    ])
    expect(d.size).toBe(57)
    expect(pairs(decode(d, '828684be5886a8eb10649cbf'))).toEqual([
      [':method', 'GET'],
      [':scheme', 'http'],
      [':path', '/'],
      [':authority', 'www.example.com'],
      ['cache-control', 'no-cache'],
    ])
    expect(d.size).toBe(110)
    expect(pairs(decode(d, '828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf'))).toEqual([
      [':method', 'GET'],
      [':scheme', 'https'],
      [':path', '/index.html'],
      [':authority', 'www.example.com'],
      ['custom-key', 'custom-value'],
    ])
    expect(d.size).toBe(164)
    expect(pairs(d.entries)).toEqual([
      ['custom-key', 'custom-value'],
      ['cache-control', 'no-cache'],
      [':authority', 'www.example.com'],
    ])
  })

  test('entries are evicted oldest first when the table is full (§4.4)', () => {
    const d = createHpackDecoder(100)
    const w = new ByteWriter()
    for (const v of ['aaaa', 'bbbb', 'cccc']) {
      w.u8(0x40)
      encodeString(w, 'x-h', false)
      encodeString(w, v, false)
    }
    decode(d, w.finish())
    // Each entry is 3 + 4 + 32 = 39 bytes: only the two newest fit in 100.
    expect(pairs(d.entries)).toEqual([
      ['x-h', 'cccc'],
      ['x-h', 'bbbb'],
    ])
    expect(d.size).toBe(78)
    // A size update to 40 keeps only the newest; 0 empties the table.
    decode(d, '3f09')
    expect(d.entries).toHaveLength(1)
    decode(d, '20')
    expect(d.entries).toEqual([])
  })

  test('an entry larger than the table empties it and is not added', () => {
    const d = createHpackDecoder(40)
    const w = new ByteWriter().u8(0x40)
    encodeString(w, 'x-big', false)
    encodeString(w, 'value', false)
    expect(pairs(decode(d, w.finish()))).toEqual([['x-big', 'value']])
    expect(d.entries).toEqual([])
  })

  test('bad indexes, misplaced or oversized size updates and huge integers are errors', () => {
    expect(decodeHeaderBlock(createHpackDecoder(), hex('80'))).toMatchObject({ ok: false, error: 'bad-index' })
    expect(decodeHeaderBlock(createHpackDecoder(), hex('be'))).toMatchObject({ ok: false, error: 'bad-index' })
    expect(decodeHeaderBlock(createHpackDecoder(), hex('8220'))).toMatchObject({ ok: false, error: 'bad-size-update' })
    expect(decodeHeaderBlock(createHpackDecoder(), hex('3fe21f'))).toMatchObject({ ok: false, error: 'bad-size-update' })
    expect(decodeHeaderBlock(createHpackDecoder(), hex('ffffffffff7f'))).toMatchObject({ ok: false, error: 'too-large' })
    expect(decodeHeaderBlock(createHpackDecoder(), hex('400a6375'))).toMatchObject({ ok: false, error: 'truncated' })
    expect(decodeHeaderBlock(createHpackDecoder(), hex('ff80808080808080'))).toMatchObject({ ok: false, error: 'truncated' })
  })

  test('the number of fields in one block is bounded', () => {
    expect(decodeHeaderBlock(createHpackDecoder(), new Uint8Array(300).fill(0x82), 256)).toMatchObject({ ok: false, error: 'too-large' })
  })

  test('random header lists round-trip through every representation', () => {
    const field = fc.record({
      name: fc.string({ minLength: 1, maxLength: 20 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x').toLowerCase()),
      value: fc.uint8Array({ maxLength: 40 }).map((b) => String.fromCharCode(...b)),
      kind: fc.constantFrom(0x40, 0x00, 0x10),
      huffman: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.array(field, { maxLength: 20 }), (fields) => {
        const d = createHpackDecoder()
        const w = new ByteWriter()
        for (const f of fields) {
          w.u8(f.kind)
          encodeString(w, f.name, f.huffman)
          encodeString(w, f.value, !f.huffman)
        }
        const out = decode(d, w.finish())
        expect(pairs(out)).toEqual(fields.map((f) => [f.name, f.value]))
        // Indexed entries can then be referred to by index.
        const indexed = fields.filter((f) => f.kind === 0x40)
        if (indexed.length > 0 && d.entries.length > 0) {
          const again = decode(d, Uint8Array.of(0x80 | (STATIC_TABLE_SIZE + 1)))
          expect(pairs(again)).toEqual([[indexed.at(-1)!.name, indexed.at(-1)!.value]])
        }
      }),
      { numRuns: 300 },
    )
  })

  test('random blocks never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const d = createHpackDecoder()
        decodeHeaderBlock(d, b)
        expect(d.size).toBeLessThanOrEqual(d.maxSize)
      }),
      { numRuns: 500 },
    )
  })
})

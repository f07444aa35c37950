import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ByteWriter, concatBytes } from './bytes'
import { fixture } from './fixtures/load'
import { akamaiFingerprint, H2_FRAME, H2_PREFACE, h2PingFrame, parseH2ClientStart, readH2ClientStart, readH2Ping, splitH2Frames, type H2ClientStart } from './http2'

const CHROMIUM = fixture('h2-chromium.hex')
const CURL = fixture('h2-curl.hex')

function start(bytes: Uint8Array): H2ClientStart {
  const r = parseH2ClientStart(bytes)
  if (!r.ok) throw new Error(r.detail)
  return r.value
}

function frame(type: number, flags: number, stream: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  return new ByteWriter().u8(payload.length >> 16).u16(payload.length & 0xffff).u8(type).u8(flags).u32(stream).bytes(payload).finish()
}

/** Splits the captured bytes into frames (after the preface). */
function frames(bytes: Uint8Array): Array<{ type: number; flags: number; stream: number; payload: Uint8Array }> {
  const out = []
  for (let p = H2_PREFACE.length; p + 9 <= bytes.length; ) {
    const len = (bytes[p]! << 16) | (bytes[p + 1]! << 8) | bytes[p + 2]!
    out.push({ type: bytes[p + 3]!, flags: bytes[p + 4]!, stream: (bytes[p + 5]! & 0x7f) * 2 ** 24 + ((bytes[p + 6]! << 16) | (bytes[p + 7]! << 8) | bytes[p + 8]!), payload: bytes.subarray(p + 9, p + 9 + len) })
    p += 9 + len
  }
  return out
}

const settings = (...pairs: Array<[number, number]>) => {
  const w = new ByteWriter()
  for (const [id, v] of pairs) w.u16(id).u32(v)
  return frame(H2_FRAME.settings, 0, 0, w.finish())
}
const windowUpdate = (n: number, stream = 0) => frame(H2_FRAME.windowUpdate, 0, stream, new ByteWriter().u32(n).finish())
const priority = (stream: number, exclusive: boolean, dep: number, weight: number) =>
  frame(H2_FRAME.priority, 0, stream, new ByteWriter().u32((exclusive ? 0x80000000 : 0) + dep).u8(weight - 1).finish())
/** :method GET, :path /, :authority a, :scheme https, in that order (all from the static table but :authority). */
const GET_BLOCK = Uint8Array.of(0x82, 0x84, 0x41, 0x01, 0x61, 0x87)
const headers = (flags = 0x05, block = GET_BLOCK, stream = 1) => frame(H2_FRAME.headers, flags, stream, block)

describe('captured connections', () => {
  test('Chromium: SETTINGS, WINDOW_UPDATE, then HEADERS with its own priority and m,a,s,p', () => {
    const s = start(CHROMIUM)
    expect(s.settings).toEqual([
      { id: 1, value: 65536 },
      { id: 2, value: 0 },
      { id: 4, value: 6291456 },
      { id: 6, value: 262144 },
    ])
    expect(s.windowUpdate).toBe(15663105)
    expect(s.priorities).toEqual([])
    expect(s.headers.priority).toEqual({ exclusive: true, dependsOn: 0, weight: 256 })
    expect(s.headers.pseudoHeaderOrder).toEqual([':method', ':authority', ':scheme', ':path'])
    expect(s.headers.endStream).toBe(true)
    const names = s.headers.fields.map((f) => f.name)
    expect(names.indexOf('sec-ch-ua')).toBeLessThan(names.indexOf('user-agent'))
    expect(s.headers.fields.find((f) => f.name === 'user-agent')!.value).toContain('HeadlessChrome/156')
  })

  test("Chromium's Akamai fingerprint is the published Chrome one", () => {
    expect(akamaiFingerprint(start(CHROMIUM))).toEqual({ text: '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p', hash: '52d84b11737d980aef856699f885ca86' })
  })

  test("curl (nghttp2): its own settings, window and m,p,s,a", () => {
    const s = start(CURL)
    expect(akamaiFingerprint(s).text).toBe('3:100;4:33554432;2:0|33488897|0|m,p,s,a')
    expect(s.headers.fields.map((f) => [f.name, f.value])).toContainEqual([':path', '/path?q=1'])
    expect(s.headers.priority).toBeNull()
  })

  test('every prefix needs more bytes; the first header block completes the read', () => {
    const whole = readH2ClientStart(CHROMIUM)
    expect(whole.status).toBe('complete')
    const end = whole.status === 'complete' ? whole.length : 0
    // The SETTINGS ACK Chromium sent after our SETTINGS is not part of the start.
    expect(end).toBe(CHROMIUM.length - 9)
    for (let n = 0; n < end; n++) expect(readH2ClientStart(CHROMIUM.subarray(0, n)).status).toBe('need-more')
  })

  test('a header block split into CONTINUATION frames decodes the same', () => {
    const fs = frames(CHROMIUM)
    const h = fs.find((f) => f.type === H2_FRAME.headers)!
    // Keep the priority fields in HEADERS; split the block into 50-byte CONTINUATIONs.
    const block = h.payload.subarray(5)
    const parts = [frame(H2_FRAME.headers, h.flags & ~0x04, 1, concatBytes([h.payload.subarray(0, 5), block.subarray(0, 50)]))]
    for (let o = 50; o < block.length; o += 50) parts.push(frame(H2_FRAME.continuation, o + 50 >= block.length ? 0x04 : 0, 1, block.subarray(o, o + 50)))
    const rebuilt = concatBytes([H2_PREFACE, settings([1, 65536], [2, 0], [4, 6291456], [6, 262144]), windowUpdate(15663105), ...parts])
    const s = start(rebuilt)
    expect(s.headers).toEqual(start(CHROMIUM).headers)
    expect(s.frames.filter((f) => f.type === H2_FRAME.continuation).length).toBeGreaterThan(5)
  })
})

describe('synthetic starts', () => {
  test('PRIORITY frames and a padded HEADERS (the pre-2023 Firefox shape)', () => {
    const padded = frame(H2_FRAME.headers, 0x05 | 0x08, 13, concatBytes([Uint8Array.of(3), GET_BLOCK, new Uint8Array(3)]))
    const bytes = concatBytes([H2_PREFACE, settings([1, 65536], [4, 131072], [5, 16384]), windowUpdate(12517377), priority(3, false, 0, 201), priority(5, false, 0, 101), priority(7, false, 0, 1), padded])
    const s = start(bytes)
    expect(akamaiFingerprint(s).text).toBe('1:65536;4:131072;5:16384|12517377|3:0:0:201,5:0:0:101,7:0:0:1|m,p,a,s')
  })

  test('no WINDOW_UPDATE shows as 00, a stream-level one is not the connection window', () => {
    const s = start(concatBytes([H2_PREFACE, settings([3, 100]), windowUpdate(1000, 1), headers()]))
    expect(akamaiFingerprint(s).text).toBe('3:100|00|0|m,p,a,s')
  })

  test('SETTINGS ACKs, PINGs and unknown frame types are tolerated and recorded', () => {
    const s = start(concatBytes([H2_PREFACE, settings([3, 100]), frame(H2_FRAME.settings, 1, 0), frame(H2_FRAME.ping, 0, 0, new Uint8Array(8)), frame(0xfa, 0, 0, Uint8Array.of(1, 2)), headers()]))
    expect(s.settings).toEqual([{ id: 3, value: 100 }])
    expect(s.frames.map((f) => f.type)).toEqual([4, 4, 6, 0xfa, 1])
  })

  test('other protocols fail at the first differing byte of the preface', () => {
    expect(readH2ClientStart(new TextEncoder().encode('GET / HTTP/1.1\r\n'))).toMatchObject({ status: 'not-h2' })
    expect(readH2ClientStart(new TextEncoder().encode('PRI * HTTP/1.1'))).toMatchObject({ status: 'not-h2' })
    expect(readH2ClientStart(new TextEncoder().encode('PRI * HT'))).toEqual({ status: 'need-more' })
  })

  test('frame-level violations are errors', () => {
    const bad = (...parts: Uint8Array[]) => readH2ClientStart(concatBytes([H2_PREFACE, ...parts]))
    expect(bad(frame(H2_FRAME.settings, 0, 0, new Uint8Array(7)))).toMatchObject({ status: 'invalid', error: 'protocol' })
    expect(bad(frame(H2_FRAME.settings, 0, 1, new Uint8Array(6)))).toMatchObject({ status: 'invalid', error: 'protocol' })
    expect(bad(frame(H2_FRAME.settings, 1, 0, new Uint8Array(6)))).toMatchObject({ status: 'invalid', error: 'protocol' })
    expect(bad(windowUpdate(0))).toMatchObject({ status: 'invalid', error: 'protocol' })
    expect(bad(frame(H2_FRAME.priority, 0, 0, new Uint8Array(5)))).toMatchObject({ status: 'invalid', error: 'protocol' })
    expect(bad(frame(H2_FRAME.data, 0, 1, new Uint8Array(1)))).toMatchObject({ status: 'invalid', error: 'protocol' })
    expect(bad(headers(0x05, GET_BLOCK, 0))).toMatchObject({ status: 'invalid', error: 'protocol' })
    expect(bad(frame(H2_FRAME.continuation, 0x04, 1, GET_BLOCK))).toMatchObject({ status: 'invalid', error: 'protocol' })
    expect(bad(frame(H2_FRAME.headers, 0x08, 1, Uint8Array.of(9, 0x82)))).toMatchObject({ status: 'invalid', error: 'protocol' })
    // A frame between HEADERS and its CONTINUATION.
    expect(bad(headers(0x01), frame(H2_FRAME.ping, 0, 0, new Uint8Array(8)))).toMatchObject({ status: 'invalid', error: 'protocol' })
  })

  test('a frame longer than the advertised maximum is refused from its header alone', () => {
    const header = new ByteWriter().u8(0x01).u16(0).u8(H2_FRAME.headers).u8(0).u32(1).finish()
    expect(readH2ClientStart(concatBytes([H2_PREFACE, header]))).toMatchObject({ status: 'invalid', error: 'frame-too-large' })
  })

  test('a client that never sends headers is cut off after 64 frames', () => {
    const pings = Array.from({ length: 70 }, () => frame(H2_FRAME.ping, 0, 0, new Uint8Array(8)))
    expect(readH2ClientStart(concatBytes([H2_PREFACE, ...pings]))).toMatchObject({ status: 'invalid', error: 'too-many-frames' })
  })

  test('an undecodable header block is an error', () => {
    expect(readH2ClientStart(concatBytes([H2_PREFACE, headers(0x05, Uint8Array.of(0x80))]))).toMatchObject({ status: 'invalid', error: 'header-block' })
  })
})

describe('malformed input', () => {
  test('the capture cut at every offset, with frame lengths left as they were, never throws', () => {
    for (const bytes of [CHROMIUM, CURL]) for (let n = 0; n <= bytes.length; n++) readH2ClientStart(bytes.subarray(0, n))
  })

  test('random frames after the preface never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (b) => {
        const r = readH2ClientStart(concatBytes([H2_PREFACE, b]))
        expect(['complete', 'need-more', 'invalid']).toContain(r.status)
      }),
      { numRuns: 500 },
    )
  })

  test('random corruptions of the Chromium capture never throw', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: H2_PREFACE.length, max: CHROMIUM.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), (edits) => {
        const b = CHROMIUM.slice()
        for (const [i, v] of edits) b[i] = v
        readH2ClientStart(b)
      }),
      { numRuns: 500 },
    )
  })
})

describe('PING (§6.7)', () => {
  const OPAQUE = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8)

  test('a PING is 8 opaque bytes on stream 0; the ACK sets flag 0x1', () => {
    expect(Array.from(h2PingFrame(OPAQUE))).toEqual([0, 0, 8, 6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    expect(Array.from(h2PingFrame(OPAQUE, true))).toEqual([0, 0, 8, 6, 1, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    expect(() => h2PingFrame(new Uint8Array(7))).toThrow('8 bytes')
  })

  test('a PING and a PING ACK read back with their opaque bytes; other frames are not PINGs', () => {
    const r = splitH2Frames(concatBytes([settings([1, 4096]), h2PingFrame(OPAQUE), windowUpdate(5), h2PingFrame(OPAQUE, true)]))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.frames.map((f) => f.type)).toEqual([H2_FRAME.settings, H2_FRAME.ping, H2_FRAME.windowUpdate, H2_FRAME.ping])
    const reads = r.frames.map(readH2Ping)
    expect(reads.map((p) => p.kind)).toEqual(['not-ping', 'ping', 'not-ping', 'ack'])
    for (const p of [reads[1]!, reads[3]!]) expect(p.kind !== 'not-ping' && p.kind !== 'invalid' && Array.from(p.opaque)).toEqual(Array.from(OPAQUE))
  })

  test('a PING on a stream or of the wrong length is invalid, not an ACK', () => {
    expect(readH2Ping({ type: H2_FRAME.ping, flags: 1, streamId: 3, payload: OPAQUE })).toMatchObject({ kind: 'invalid' })
    expect(readH2Ping({ type: H2_FRAME.ping, flags: 1, streamId: 0, payload: OPAQUE.subarray(0, 4) })).toMatchObject({ kind: 'invalid', detail: 'PING of 4 bytes, not 8 (§6.7)' })
  })

  test('a truncated frame waits for more bytes; a frame over the maximum size is refused from its header', () => {
    const ack = h2PingFrame(OPAQUE, true)
    for (let n = 0; n < ack.length; n++) expect(splitH2Frames(ack.subarray(0, n))).toEqual({ ok: true, frames: [], length: 0 })
    const two = concatBytes([ack, ack.subarray(0, 12)])
    const r = splitH2Frames(two)
    expect(r.ok && [r.frames.length, r.length]).toEqual([1, 17])
    expect(splitH2Frames(Uint8Array.of(0, 0x40, 1, 0, 0, 0, 0, 0, 0))).toMatchObject({ ok: false })
  })

  test('random bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const r = splitH2Frames(b)
        if (r.ok) {
          expect(r.length).toBeLessThanOrEqual(b.length)
          for (const f of r.frames) expect(['not-ping', 'ping', 'ack', 'invalid']).toContain(readH2Ping(f).kind)
        }
      }),
      { numRuns: 500 },
    )
  })
})

import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ByteWriter, concatBytes, toHex } from './bytes'
import { fixture } from './fixtures/load'
import { clientHelloReader, isGrease, parseClientHello, readClientHello, TLS_EXTENSION, type ClientHello } from './tls-client-hello'

const CHROMIUM = fixture('tls-chromium-sni.hex')
const CHROMIUM_IP = fixture('tls-chromium-ip.hex')
const CURL = fixture('tls-curl-sni.hex')

function hello(bytes: Uint8Array): ClientHello {
  const r = parseClientHello(bytes)
  if (!r.ok) throw new Error(r.detail)
  return r.value
}

/** The handshake message (type, length, body) inside a single-record fixture. */
const handshakeOf = (records: Uint8Array) => records.subarray(5)

/** Wraps a handshake message in records of at most `size` bytes each. */
function records(handshake: Uint8Array, size = 1 << 14): Uint8Array {
  const parts: Uint8Array[] = []
  for (let o = 0; o < handshake.length; o += size) {
    const frag = handshake.subarray(o, Math.min(handshake.length, o + size))
    parts.push(new ByteWriter().u8(22).u16(0x0301).u16(frag.length).bytes(frag).finish())
  }
  return concatBytes(parts)
}

/** A minimal ClientHello message with the given cipher suites and extensions. */
function buildHello(opts: { ciphers?: number[]; extensions?: Array<[number, Uint8Array]> | null; sessionId?: number; version?: number }): Uint8Array {
  const body = new ByteWriter().u16(opts.version ?? 0x0303).bytes(new Uint8Array(32))
  body.u8(opts.sessionId ?? 0)
  body.bytes(new Uint8Array(opts.sessionId ?? 0))
  const ciphers = opts.ciphers ?? [0x1301]
  body.u16(ciphers.length * 2)
  for (const c of ciphers) body.u16(c)
  body.u8(1).u8(0)
  if (opts.extensions !== null) {
    const ext = new ByteWriter()
    for (const [type, data] of opts.extensions ?? []) ext.u16(type).u16(data.length).bytes(data)
    const e = ext.finish()
    body.u16(e.length).bytes(e)
  }
  const b = body.finish()
  return new ByteWriter().u8(1).u8(b.length >> 16).u16(b.length & 0xffff).bytes(b).finish()
}

describe('isGrease', () => {
  test('recognises exactly the sixteen RFC 8701 values', () => {
    const grease = Array.from({ length: 0x10000 }, (_, v) => v).filter(isGrease)
    expect(grease.map((v) => v.toString(16))).toEqual(['a0a', '1a1a', '2a2a', '3a3a', '4a4a', '5a5a', '6a6a', '7a7a', '8a8a', '9a9a', 'aaaa', 'baba', 'caca', 'dada', 'eaea', 'fafa'])
  })
})

describe('parseClientHello on captured hellos', () => {
  test('Chromium: SNI, ALPN, versions, groups and the post-quantum key share', () => {
    const h = hello(CHROMIUM)
    expect(h.recordVersion).toBe(0x0301)
    expect(h.version).toBe(0x0303)
    expect(h.serverName).toBe('evidence.test')
    expect(h.alpn).toEqual(['h2', 'http/1.1'])
    // Chromium GREASEs the first cipher, the versions, the groups, the key shares and (in
    // recent versions) the signature algorithms.
    expect(isGrease(h.cipherSuites[0]!)).toBe(true)
    expect(h.cipherSuites.slice(1, 4)).toEqual([0x1301, 0x1302, 0x1303])
    expect(h.supportedVersions!.filter((v) => !isGrease(v))).toEqual([0x0304, 0x0303])
    expect(h.supportedGroups!.filter((v) => !isGrease(v))).toEqual([0x11ec, 29, 23, 24])
    expect(h.keyShares!.filter((k) => !isGrease(k.group))).toEqual([
      { group: 0x11ec, length: 1216 },
      { group: 29, length: 32 },
    ])
    expect(isGrease(h.signatureAlgorithms![0]!)).toBe(true)
    expect(h.ecPointFormats).toEqual([0])
    expect(h.pskKeyExchangeModes).toEqual([1])
    expect(h.compressCertificate).toEqual([2])
    expect(h.applicationSettings).toEqual({ type: TLS_EXTENSION.applicationSettings, protocols: ['h2'] })
    expect(h.extensions.map((e) => e.type)).toContain(TLS_EXTENSION.encryptedClientHello)
    expect(h.malformedExtensions).toEqual([])
    expect(h.duplicateExtensions).toEqual([])
  })

  test('Chromium to an IP literal sends no server_name', () => {
    const h = hello(CHROMIUM_IP)
    expect(h.serverName).toBeNull()
    expect(h.extensions.some((e) => e.type === TLS_EXTENSION.serverName)).toBe(false)
  })

  test('curl (OpenSSL 3.0): no GREASE, padding, TLS 1.0–1.3 offered', () => {
    const h = hello(CURL)
    expect(h.serverName).toBe('evidence.test')
    expect(h.cipherSuites).toHaveLength(31)
    expect(h.cipherSuites.some(isGrease)).toBe(false)
    expect(h.supportedVersions).toEqual([0x0304, 0x0303, 0x0302, 0x0301])
    expect(h.ecPointFormats).toEqual([0, 1, 2])
    expect(h.extensions.at(-1)!.type).toBe(TLS_EXTENSION.padding)
    expect(h.applicationSettings).toBeNull()
  })

  test('extensions keep their raw bodies in order', () => {
    const h = hello(CURL)
    const sni = h.extensions[0]!
    expect(sni.type).toBe(0)
    // server_name_list(16) host_name(0) length(13) "evidence.test"
    expect(sni.data).toBe(`001000000d${toHex(new TextEncoder().encode('evidence.test'))}`)
  })
})

describe('readClientHello across reads and records', () => {
  test('every prefix of a capture needs more bytes, and the whole is complete', () => {
    for (const bytes of [CHROMIUM, CURL]) {
      for (let n = 0; n < bytes.length; n++) {
        const r = readClientHello(bytes.subarray(0, n))
        expect(r.status).toBe('need-more')
        if (r.status === 'need-more') expect(r.atLeast).toBeGreaterThan(n)
      }
      const r = readClientHello(bytes)
      expect(r.status).toBe('complete')
      if (r.status === 'complete') expect(r.length).toBe(bytes.length)
    }
  })

  test('a hello fragmented over several records reads the same as in one', () => {
    const hs = handshakeOf(CHROMIUM)
    for (const size of [1, 3, 100, 1000]) {
      const split = records(hs, size)
      const r = readClientHello(split)
      expect(r.status).toBe('complete')
      if (r.status === 'complete') {
        expect(r.length).toBe(split.length)
        expect(r.hello).toEqual(hello(CHROMIUM))
      }
      expect(readClientHello(split.subarray(0, split.length - 1)).status).toBe('need-more')
    }
  })

  test('bytes after the hello (the next flight) are not counted in its length', () => {
    const r = readClientHello(concatBytes([CURL, new Uint8Array([0x14, 0x03, 0x03, 0x00, 0x01, 0x01])]))
    expect(r).toMatchObject({ status: 'complete', length: CURL.length })
  })

  test('plain HTTP on the TLS port is recognised from its first byte', () => {
    expect(readClientHello(new TextEncoder().encode('G'))).toMatchObject({ status: 'not-tls' })
    expect(readClientHello(new TextEncoder().encode('GET / HTTP/1.1\r\n'))).toMatchObject({ status: 'not-tls' })
    expect(readClientHello(new Uint8Array([0x16, 0x02]))).toMatchObject({ status: 'not-tls' })
    expect(readClientHello(new Uint8Array([0x16]))).toMatchObject({ status: 'need-more', atLeast: 5 })
  })

  test('a handshake record that is not a ClientHello is refused as soon as its type is visible', () => {
    expect(readClientHello(new Uint8Array([0x16, 0x03, 0x01, 0x00, 0x40, 0x02]))).toMatchObject({ status: 'invalid', error: 'not-client-hello' })
  })

  test('record lengths of 0 or over 2^14 are refused', () => {
    expect(readClientHello(new Uint8Array([0x16, 0x03, 0x01, 0x00, 0x00]))).toMatchObject({ status: 'invalid', error: 'bad-record' })
    expect(readClientHello(new Uint8Array([0x16, 0x03, 0x01, 0x40, 0x01, 0x01]))).toMatchObject({ status: 'invalid', error: 'bad-record' })
  })

  test('a hello announcing more than 64 KiB is refused before it is buffered', () => {
    expect(readClientHello(new Uint8Array([0x16, 0x03, 0x01, 0x00, 0x04, 0x01, 0x01, 0x00, 0x01]))).toMatchObject({ status: 'invalid', error: 'too-large' })
  })

  test('another record type between fragments of the hello is refused', () => {
    const split = records(handshakeOf(CURL), 100)
    const alert = new Uint8Array([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28])
    const r = readClientHello(concatBytes([split.subarray(0, 105), alert, split.subarray(105)]))
    expect(r).toMatchObject({ status: 'invalid', error: 'bad-record' })
  })
})

describe('clientHelloReader: the hello read as it comes (issue 33)', () => {
  /** A hello of about `size` bytes: Chromium's padded with a padding extension (type 21). */
  function bigHello(size: number): Uint8Array {
    return records(buildHello({ ciphers: [0x1301, 0x1302], extensions: [[TLS_EXTENSION.padding, new Uint8Array(size)]] }))
  }

  test('a 60 KB hello trickled in 5,000 reads is framed a few times per record, not once per read, and reads as whole', () => {
    const bytes = bigHello(60_000)
    const reader = clientHelloReader()
    const piece = Math.ceil(bytes.length / 5000)
    let last = reader.push(bytes.subarray(0, piece))
    for (let o = piece; o < bytes.length; o += piece) last = reader.push(bytes.subarray(o, o + piece))
    expect(last.status).toBe('complete')
    // Four 16 KiB records: a look for each record's header and one for each record's end.
    expect(reader.looks).toBeLessThanOrEqual(12)
    expect(reader.length).toBe(bytes.length)
    expect(reader.bytes()).toEqual(bytes)
    expect(last).toEqual(readClientHello(bytes))
  })

  test('read one byte at a time, a captured hello gives what readClientHello gives for the whole', () => {
    for (const bytes of [CHROMIUM, CURL]) {
      const reader = clientHelloReader()
      const states = Array.from(bytes, (_, i) => reader.push(bytes.subarray(i, i + 1)).status)
      expect(states.slice(0, -1).every((s) => s === 'need-more')).toBe(true)
      expect(states.at(-1)).toBe('complete')
      expect(reader.looks).toBeLessThanOrEqual(4)
    }
  })

  test('plain HTTP is told from TLS at its first read, as readClientHello tells it', () => {
    expect(clientHelloReader().push(new TextEncoder().encode('GET / HTTP/1.1\r\n'))).toMatchObject({ status: 'not-tls' })
  })
})

describe('malformed hellos', () => {
  test('a TLS 1.2 hello without an extensions block parses with no extensions', () => {
    const h = hello(records(buildHello({ extensions: null })))
    expect(h.extensions).toEqual([])
    expect(h.serverName).toBeNull()
  })

  test('odd cipher_suites length, long session id and a wrong extensions length are errors', () => {
    const odd = buildHello({})
    odd[4 + 2 + 32 + 1 + 1] = 3 // cipher_suites length 2 → 3
    expect(parseClientHello(records(odd))).toMatchObject({ ok: false, error: 'malformed' })
    expect(parseClientHello(records(buildHello({ sessionId: 33 })))).toMatchObject({ ok: false, error: 'malformed' })
    const wrong = buildHello({ extensions: [[23, new Uint8Array(0)]] })
    wrong[wrong.length - 5] = 9 // extensions length 4 → 9
    expect(parseClientHello(records(wrong))).toMatchObject({ ok: false, error: 'malformed' })
  })

  test('an extension whose body breaks its grammar is listed, and the rest still parses', () => {
    const bad = new Uint8Array([0x00, 0x05, 0x00, 0x1d]) // supported_groups list longer than the body
    const h = hello(records(buildHello({ extensions: [[10, bad], [16, new Uint8Array([0, 3, 2, 0x68, 0x32])]] })))
    expect(h.malformedExtensions).toEqual([10])
    expect(h.supportedGroups).toBeNull()
    expect(h.alpn).toEqual(['h2'])
  })

  test('a repeated extension is reported and only its first copy decoded', () => {
    const h = hello(records(buildHello({ extensions: [[28, new Uint8Array([0x40, 0x01])], [28, new Uint8Array([0x00, 0x10])]] })))
    expect(h.recordSizeLimit).toBe(0x4001)
    expect(h.duplicateExtensions).toEqual([28])
  })

  test('the hello body cut at every offset (record lengths fixed up) returns a value, never throws', () => {
    for (const source of [CHROMIUM, CURL]) {
      const hs = handshakeOf(source)
      const body = hs.subarray(4)
      let errors = 0
      for (let n = 0; n < body.length; n++) {
        const msg = concatBytes([new Uint8Array([1, 0, n >> 8, n & 0xff]), body.subarray(0, n)])
        const r = parseClientHello(records(msg))
        if (!r.ok) errors++
      }
      // Only the cut right after the compression methods is a valid (extension-less) hello.
      expect(errors).toBe(body.length - 1)
    }
  })

  test('random bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (b) => {
        readClientHello(b)
        readClientHello(concatBytes([new Uint8Array([0x16, 0x03, 0x01, b.length >> 8, b.length & 0xff]), b]))
        readClientHello(records(concatBytes([new Uint8Array([1, 0, b.length >> 8, b.length & 0xff]), b])))
      }),
      { numRuns: 500 },
    )
  })

  test('random corruptions of a captured hello never throw', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(CHROMIUM.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), (edits) => {
        const b = CHROMIUM.slice()
        for (const [i, v] of edits) b[i] = v
        const r = readClientHello(b)
        expect(['complete', 'need-more', 'not-tls', 'invalid']).toContain(r.status)
      }),
      { numRuns: 500 },
    )
  })
})

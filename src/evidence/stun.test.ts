import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ByteWriter, concatBytes, fromHex, toHex } from './bytes'
import { fixture } from './fixtures/load'
import {
  addressAttribute,
  allocateRequest,
  allocateSuccess,
  bindingSuccess,
  buildStun,
  encodeType,
  errorResponse,
  isStun,
  longTermKey,
  parseStun,
  shortTermKey,
  STUN_ATTRIBUTE as A,
  STUN_METHOD,
  textAttribute,
  unauthorized,
  verifyMessageIntegrity,
  type StunMessage,
} from './stun'

const hex = (s: string) => fromHex(s)!

function parse(bytes: Uint8Array): StunMessage {
  const r = parseStun(bytes)
  if (!r.ok) throw new Error(r.detail)
  return r.value
}

// RFC 5769 ("Test Vectors for STUN"). 2.1–2.3 pad with spaces on purpose; 2.4 uses
// long-term credentials (username マトリックス, password TheMatrIX after SASLprep).
const RFC5769 = {
  request: hex(`000100582112a442b7e7a701bc34d686fa87dfae802200105354554e20746573742063 6c69656e74
    002400046e0001ff80290008932ff9b151263b36000600096576746a3a68367659202020
    000800149aeaa70cbfd8cb56781ef2b5b2d3f249c1b571a280280004e57a3bcf`),
  ipv4: hex(`0101003c2112a442b7e7a701bc34d686fa87dfae8022000b7465737420766563746f7220
    002000080001a147e112a643000800142b91f599fd9e90c38c7489f92af9ba53f06be7d780280004c07d4c96`),
  ipv6: hex(`010100482112a442b7e7a701bc34d686fa87dfae8022000b7465737420766563746f7220
    002000140002a1470113a9faa5d3f179bc25f4b5bed2b9d9
    00080014a382954e4be67bf11784c97c8292c275bfe3ed4180280004c8fb0b4c`),
  longTerm: hex(`000100602112a44278ad3433c6ad72c029da412e00060012e3839ee38388e383aae38383e382afe382b90000
    0015001c662f2f3439396b39353464364f4c33346f4c39465354767936347341
    0014000b6578616d706c652e6f726700000800 14f67024656dd64a3e02b8e0712e85c9a28ca89666`),
}
const SHORT_TERM = 'VOkJxbRl1RmTxUk/WvJxBt'

describe('RFC 5769 test vectors', () => {
  test('2.1 request: attributes, short-term MESSAGE-INTEGRITY and FINGERPRINT', () => {
    const m = parse(RFC5769.request)
    expect([m.method, m.class, m.transactionId]).toEqual([STUN_METHOD.binding, 'request', 'b7e7a701bc34d686fa87dfae'])
    expect(m.software).toBe('STUN test client')
    expect(m.username).toBe('evtj:h6vY')
    expect(m.fingerprint).toBe('valid')
    expect(m.unknownRequired).toEqual([])
    expect(verifyMessageIntegrity(RFC5769.request, m, shortTermKey(SHORT_TERM))).toBe(true)
    expect(verifyMessageIntegrity(RFC5769.request, m, shortTermKey('wrong'))).toBe(false)
  })

  test('2.2 and 2.3 responses: XOR-MAPPED-ADDRESS over IPv4 and IPv6, and the same attribute built again', () => {
    const v4 = parse(RFC5769.ipv4)
    expect(v4.class).toBe('success')
    expect(v4.xorMappedAddress).toEqual({ family: 'IPv4', address: '192.0.2.1', port: 32853 })
    expect(v4.fingerprint).toBe('valid')
    expect(verifyMessageIntegrity(RFC5769.ipv4, v4, shortTermKey(SHORT_TERM))).toBe(true)
    const v6 = parse(RFC5769.ipv6)
    expect(v6.xorMappedAddress).toEqual({ family: 'IPv6', address: '2001:db8:1234:5678:11:2233:4455:6677', port: 32853 })
    expect(verifyMessageIntegrity(RFC5769.ipv6, v6, shortTermKey(SHORT_TERM))).toBe(true)
    for (const m of [v4, v6]) {
      const attr = addressAttribute(A.xorMappedAddress, m.xorMappedAddress!, m.transactionId)
      expect(toHex(attr.value)).toBe(m.attributes.find((a) => a.type === A.xorMappedAddress)!.value)
    }
  })

  test('2.4 long-term credentials: the key verifies, and the message is rebuilt byte for byte', () => {
    const m = parse(RFC5769.longTerm)
    expect([m.username, m.realm, m.nonce]).toEqual(['マトリックス', 'example.org', 'f//499k954d6OL34oL9FSTvy64sA'])
    expect(m.fingerprint).toBe('absent')
    const key = longTermKey('マトリックス', 'example.org', 'TheMatrIX')
    expect(verifyMessageIntegrity(RFC5769.longTerm, m, key)).toBe(true)
    expect(verifyMessageIntegrity(RFC5769.longTerm, m, longTermKey('マトリックス', 'example.org', 'thematrix'))).toBe(false)
    const rebuilt = buildStun({
      method: STUN_METHOD.binding,
      class: 'request',
      transactionId: m.transactionId,
      attributes: [textAttribute(A.username, m.username!), textAttribute(A.nonce, m.nonce!), textAttribute(A.realm, m.realm!)],
      integrityKey: key,
    })
    expect(toHex(rebuilt)).toBe(toHex(RFC5769.longTerm))
  })
})

describe('Chromium captures', () => {
  test('a Binding request from ICE gathering has no attributes', () => {
    const bytes = fixture('stun-chromium-binding.hex')
    expect(isStun(bytes)).toBe(true)
    const m = parse(bytes)
    expect([m.method, m.class, m.attributes]).toEqual([STUN_METHOD.binding, 'request', []])
  })

  test('the first Allocate asks for UDP without credentials, and is answered with a 401 challenge', () => {
    const m = parse(fixture('turn-chromium-allocate.hex'))
    expect(allocateRequest(m)).toEqual({ ok: true, value: { transport: 17, lifetime: null, credentials: null, hasIntegrity: false } })
    const challenge = parse(unauthorized(m, { realm: 'evidence.test', nonce: 'a1b2c3d4e5f60718' }, { software: 'antibot' }))
    expect([challenge.method, challenge.class, challenge.transactionId]).toEqual([STUN_METHOD.allocate, 'error', m.transactionId])
    expect(challenge.errorCode).toEqual({ code: 401, reason: 'Unauthorized' })
    expect([challenge.realm, challenge.nonce, challenge.software]).toEqual(['evidence.test', 'a1b2c3d4e5f60718', 'antibot'])
  })

  test('the authenticated Allocate carries the credentials and a MESSAGE-INTEGRITY made with the long-term key', () => {
    const bytes = fixture('turn-chromium-allocate-auth.hex')
    const m = parse(bytes)
    const a = allocateRequest(m)
    expect(a).toEqual({ ok: true, value: { transport: 17, lifetime: null, credentials: { username: 'nonce123', realm: 'evidence.test', nonce: 'a1b2c3d4e5f60718' }, hasIntegrity: true } })
    expect(verifyMessageIntegrity(bytes, m, longTermKey('nonce123', 'evidence.test', 'secret'))).toBe(true)
    expect(verifyMessageIntegrity(bytes, m, longTermKey('nonce123', 'evidence.test', 'other'))).toBe(false)
    const tampered = bytes.slice()
    tampered[33]! ^= 1 // inside the USERNAME value
    expect(verifyMessageIntegrity(tampered, parse(tampered), longTermKey('nonce123', 'evidence.test', 'secret'))).toBe(false)
  })
})

describe('building responses', () => {
  const request = parse(fixture('stun-chromium-binding.hex'))

  test('a Binding success carries the source address, for IPv4 and IPv6, with a valid FINGERPRINT', () => {
    for (const source of [{ address: '203.0.113.9', port: 54321 }, { address: '2001:db8::7', port: 3478 }]) {
      const r = parse(bindingSuccess(request, source, { fingerprint: true, software: 'antibot' }))
      expect([r.method, r.class, r.transactionId]).toEqual([STUN_METHOD.binding, 'success', request.transactionId])
      expect(r.xorMappedAddress).toMatchObject(source)
      expect(r.fingerprint).toBe('valid')
    }
  })

  test('an IPv4-mapped IPv6 socket address is answered as IPv4', () => {
    const r = parse(bindingSuccess(request, { address: '::ffff:198.51.100.4', port: 1 }))
    expect(r.xorMappedAddress).toEqual({ family: 'IPv4', address: '198.51.100.4', port: 1 })
  })

  test('an Allocate success has the relayed and mapped addresses, the lifetime, integrity and fingerprint', () => {
    const bytes = fixture('turn-chromium-allocate-auth.hex')
    const m = parse(bytes)
    const key = longTermKey('nonce123', 'evidence.test', 'secret')
    const out = allocateSuccess(m, { relayed: { address: '192.0.2.10', port: 50000 }, mapped: { address: '198.51.100.4', port: 40000 }, lifetime: 600, key })
    const r = parse(out)
    expect([r.method, r.class]).toEqual([STUN_METHOD.allocate, 'success'])
    expect(r.xorRelayedAddress).toEqual({ family: 'IPv4', address: '192.0.2.10', port: 50000 })
    expect(r.xorMappedAddress).toEqual({ family: 'IPv4', address: '198.51.100.4', port: 40000 })
    expect(r.lifetime).toBe(600)
    expect(r.fingerprint).toBe('valid')
    expect(verifyMessageIntegrity(out, r, key)).toBe(true)
  })

  test('a 420 lists the unknown comprehension-required attributes', () => {
    const req = parse(buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: new Uint8Array(12), attributes: [{ type: 0x7777, value: Uint8Array.of(1) }, { type: 0xc057, value: new Uint8Array(4) }] }))
    expect(req.unknownRequired).toEqual([0x7777])
    const r = parse(errorResponse(req, 420, 'Unknown Attribute'))
    expect(r.errorCode).toEqual({ code: 420, reason: 'Unknown Attribute' })
    expect(r.attributes.find((a) => a.type === A.unknownAttributes)!.value).toBe('7777')
  })

  test('method and class are interleaved in the type field (RFC 8489 §5)', () => {
    expect(encodeType(STUN_METHOD.binding, 'request')).toBe(0x0001)
    expect(encodeType(STUN_METHOD.binding, 'success')).toBe(0x0101)
    expect(encodeType(STUN_METHOD.allocate, 'error')).toBe(0x0113)
    expect(encodeType(STUN_METHOD.send, 'indication')).toBe(0x0016)
    expect(encodeType(0xfff, 'error')).toBe(0x3fff)
    for (const cls of ['request', 'indication', 'success', 'error'] as const) {
      for (const method of [1, 3, 9, 0x0a5, 0xfff]) expect(parse(buildStun({ method, class: cls, transactionId: new Uint8Array(12) }))).toMatchObject({ method, class: cls })
    }
  })

  test('a transaction ID that is not 12 bytes is a programming error', () => {
    expect(() => buildStun({ method: 1, class: 'request', transactionId: new Uint8Array(11) })).toThrow('12 bytes')
  })
})

describe('malformed messages', () => {
  const good = buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: new Uint8Array(12).fill(7), attributes: [textAttribute(A.software, 'abc')], fingerprint: true })

  test('other protocols on the port are not STUN', () => {
    expect(parseStun(Uint8Array.of(0x40, 0x00, 0x00, 0x04, 1, 2, 3, 4, ...new Uint8Array(16)))).toMatchObject({ ok: false, error: 'not-stun' })
    const noCookie = good.slice()
    noCookie[4]! ^= 1
    expect(parseStun(noCookie)).toMatchObject({ ok: false, error: 'not-stun' })
    expect(parseStun(good.subarray(0, 19))).toMatchObject({ ok: false, error: 'truncated' })
  })

  test('lengths that disagree with the datagram, or overrun it, are errors', () => {
    expect(parseStun(good.subarray(0, good.length - 4))).toMatchObject({ ok: false, error: 'truncated' })
    expect(parseStun(concatBytes([good, new Uint8Array(4)]))).toMatchObject({ ok: false, error: 'malformed' })
    const odd = good.slice()
    odd[3] = odd[3]! + 2
    expect(parseStun(odd)).toMatchObject({ ok: false })
    const overrun = good.slice()
    overrun[23] = 40 // SOFTWARE claims 40 bytes
    expect(parseStun(overrun)).toMatchObject({ ok: false, error: 'truncated' })
  })

  test('a corrupted FINGERPRINT is reported; an attribute after FINGERPRINT is an error', () => {
    const bad = good.slice()
    bad[good.length - 1]! ^= 1
    expect(parse(bad).fingerprint).toBe('invalid')
    const after = concatBytes([good, new ByteWriter().u16(A.software).u16(0).finish()])
    after[3] = after[3]! + 4
    expect(parseStun(after)).toMatchObject({ ok: false, error: 'malformed' })
  })

  test('attributes after MESSAGE-INTEGRITY are ignored (§14.5)', () => {
    const key = shortTermKey('k')
    const signed = buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: new Uint8Array(12), attributes: [textAttribute(A.username, 'a:b')], integrityKey: key })
    const extra = concatBytes([signed, new ByteWriter().u16(A.realm).u16(4).u32(0x61626364).finish()])
    extra[3] = extra[3]! + 8
    const m = parse(extra)
    expect(m.realm).toBeNull()
    expect(verifyMessageIntegrity(extra, m, key)).toBe(true)
  })

  test('bad address families and out-of-range error codes are errors', () => {
    const family = buildStun({ method: 1, class: 'success', transactionId: new Uint8Array(12), attributes: [{ type: A.xorMappedAddress, value: Uint8Array.of(0, 3, 0, 0, 1, 2, 3, 4) }] })
    expect(parseStun(family)).toMatchObject({ ok: false, error: 'malformed' })
    const short = buildStun({ method: 1, class: 'success', transactionId: new Uint8Array(12), attributes: [{ type: A.xorMappedAddress, value: Uint8Array.of(0, 1, 0, 0, 1, 2, 3) }] })
    expect(parseStun(short)).toMatchObject({ ok: false, error: 'malformed' })
    const code = buildStun({ method: 1, class: 'error', transactionId: new Uint8Array(12), attributes: [{ type: A.errorCode, value: Uint8Array.of(0, 0, 2, 0) }] })
    expect(parseStun(code)).toMatchObject({ ok: false, error: 'malformed' })
  })

  test('captures cut at every offset return errors, never throw', () => {
    for (const bytes of [fixture('turn-chromium-allocate-auth.hex'), RFC5769.request, RFC5769.ipv6]) {
      for (let n = 0; n < bytes.length; n++) expect(parseStun(bytes.subarray(0, n)).ok).toBe(false)
    }
  })

  test('random datagrams, and random attributes behind a valid header, never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ minLength: 12, maxLength: 12 }), (body, id) => {
        parseStun(body)
        const padded = body.subarray(0, body.length - (body.length % 4))
        const framed = concatBytes([new ByteWriter().u16(0x0001).u16(padded.length).u32(0x2112a442).bytes(id).finish(), padded])
        const r = parseStun(framed)
        if (r.ok) verifyMessageIntegrity(framed, r.value, shortTermKey('k'))
      }),
      { numRuns: 500 },
    )
  })
})

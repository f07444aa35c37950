import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ByteWriter, concatBytes, toHex } from './bytes'
import { buildDnsMessage, buildResponse, DNS_RCODE, DNS_TYPE, mixedCase, parseDnsMessage, type DnsMessage, type DnsRecordInput } from './dns'
import { fixture } from './fixtures/load'

const A_QUERY = fixture('dns-dig-a-ecs4.hex')
const AAAA_QUERY = fixture('dns-dig-aaaa-ecs6.hex')
const TXT_QUERY = fixture('dns-dig-txt-noedns.hex')
const A_RESPONSE = fixture('dns-response-a-ecs4.hex')

function parse(bytes: Uint8Array): DnsMessage {
  const r = parseDnsMessage(bytes)
  if (!r.ok) throw new Error(r.detail)
  return r.value
}

/** A header with the given counts followed by `body`. */
const message = (counts: [number, number, number, number], body: Uint8Array) => {
  const w = new ByteWriter().u16(0x1234).u16(0x0100)
  for (const c of counts) w.u16(c)
  return concatBytes([w.finish(), body])
}
const bytes = (...b: number[]) => Uint8Array.from(b)

describe('queries captured from dig', () => {
  test('an A query keeps the name exactly as typed and carries EDNS with Client Subnet and a cookie', () => {
    const m = parse(A_QUERY)
    expect(m.flags).toMatchObject({ qr: false, opcode: 0, rd: true, ad: true })
    expect(m.questions).toEqual([{ name: 'NoNcE-1.EvIdEnCe.TeSt', type: DNS_TYPE.A, class: 1 }])
    expect(mixedCase(m.questions[0]!.name)).toBe(true)
    expect(m.edns).toMatchObject({ udpPayloadSize: 1232, version: 0, dnssecOk: false, extendedRcode: 0 })
    expect(m.edns!.clientSubnet).toEqual({ family: 'IPv4', sourcePrefix: 24, scopePrefix: 0, address: '1.2.3.0' })
    expect(m.edns!.cookie).toEqual({ client: expect.stringMatching(/^[0-9a-f]{16}$/), server: null })
  })

  test('an AAAA query with an IPv6 client subnet', () => {
    const m = parse(AAAA_QUERY)
    expect(m.questions[0]).toEqual({ name: 'abc-2.evidence.test', type: DNS_TYPE.AAAA, class: 1 })
    expect(mixedCase(m.questions[0]!.name)).toBe(false)
    expect(m.edns!.clientSubnet).toEqual({ family: 'IPv6', sourcePrefix: 48, scopePrefix: 0, address: '2001:db8:1234::' })
  })

  test('a query without EDNS', () => {
    const m = parse(TXT_QUERY)
    expect(m.edns).toBeNull()
    expect(m.questions[0]).toMatchObject({ name: 'example.com', type: DNS_TYPE.TXT })
  })
})

describe('responses', () => {
  const answerFor = (q: DnsMessage): Uint8Array => {
    const name = q.questions[0]!.name
    return buildResponse(q, {
      answers: [{ name, type: DNS_TYPE.A, ttl: 30, data: { kind: 'A', address: '192.0.2.1' } }],
      authorities: [{ name: 'evidence.test', type: DNS_TYPE.NS, ttl: 60, data: { kind: 'NS', name: 'ns1.evidence.test' } }],
      ecsScope: 24,
    })
  }

  test('the response dig read (see the fixture) is rebuilt byte for byte', () => {
    const q = parse(A_QUERY)
    const built = answerFor({ ...q, id: 0xd539 })
    expect(toHex(built)).toBe(toHex(A_RESPONSE))
  })

  test('it echoes the question in its case, compresses names, and returns the subnet with our scope', () => {
    const r = parse(A_RESPONSE)
    expect(r.flags).toMatchObject({ qr: true, aa: true, rd: true, tc: false, rcode: 0 })
    expect(r.questions[0]!.name).toBe('NoNcE-1.EvIdEnCe.TeSt')
    expect(r.answers).toEqual([{ name: 'NoNcE-1.EvIdEnCe.TeSt', type: 1, class: 1, ttl: 30, data: { kind: 'A', address: '192.0.2.1' } }])
    expect(r.authorities[0]!.data).toEqual({ kind: 'NS', name: 'ns1.evidence.test' })
    expect(r.edns!.clientSubnet).toEqual({ family: 'IPv4', sourcePrefix: 24, scopePrefix: 24, address: '1.2.3.0' })
    // Answer owner name: a pointer to the question's name at offset 12.
    expect(toHex(A_RESPONSE.subarray(39, 41))).toBe('c00c')
  })

  test('every record type round-trips', () => {
    const records: DnsRecordInput[] = [
      { name: 'x.evidence.test', type: DNS_TYPE.AAAA, ttl: 1, data: { kind: 'AAAA', address: '2001:db8::1' } },
      { name: 'x.evidence.test', type: DNS_TYPE.TXT, ttl: 2, data: { kind: 'TXT', strings: ['a', '', 'x'.repeat(255)] } },
      { name: 'evidence.test', type: DNS_TYPE.SOA, ttl: 3, data: { kind: 'SOA', mname: 'ns1.evidence.test', rname: 'hostmaster.evidence.test', serial: 4294967295, refresh: 1, retry: 2, expire: 3, minimum: 4 } },
      { name: 'y.evidence.test', type: DNS_TYPE.CNAME, ttl: 4, data: { kind: 'CNAME', name: 'x.evidence.test' } },
      { name: 'evidence.test', type: DNS_TYPE.MX, ttl: 5, data: { kind: 'MX', preference: 10, exchange: 'mail.evidence.test' } },
      { name: '1.2.0.192.in-addr.arpa', type: DNS_TYPE.PTR, ttl: 6, data: { kind: 'PTR', name: 'x.evidence.test' } },
      { name: 'evidence.test', type: 99, ttl: 7, data: { kind: 'raw', hex: '00ff' } },
    ]
    const built = buildDnsMessage({ id: 7, flags: { qr: true, aa: true }, questions: [{ name: 'x.evidence.test', type: DNS_TYPE.ANY, class: 1 }], answers: records })
    const m = parse(built)
    expect(m.answers).toEqual(records.map((r) => ({ ...r, class: 1 })))
  })

  test('NXDOMAIN with the SOA in the authority section, and the extended RCODE in OPT', () => {
    const q = parse(A_QUERY)
    const soa: DnsRecordInput = { name: 'evidence.test', type: DNS_TYPE.SOA, ttl: 60, data: { kind: 'SOA', mname: 'ns1.evidence.test', rname: 'h.evidence.test', serial: 1, refresh: 2, retry: 3, expire: 4, minimum: 60 } }
    const r = parse(buildResponse(q, { rcode: DNS_RCODE.nxDomain, authorities: [soa] }))
    expect(r.flags.rcode).toBe(3)
    expect(r.authorities[0]!.type).toBe(DNS_TYPE.SOA)
    const badVers = parse(buildResponse(q, { rcode: DNS_RCODE.badVers }))
    expect([badVers.flags.rcode, badVers.edns!.extendedRcode]).toEqual([0, 1])
  })

  test('a response too large for the UDP size is cut to the question with TC set', () => {
    const q = parse(TXT_QUERY)
    const many = (name: string) => Array.from({ length: 25 }, (_, i): DnsRecordInput => ({ name, type: DNS_TYPE.TXT, ttl: 1, data: { kind: 'TXT', strings: ['x'.repeat(20) + i] } }))
    const r = parse(buildResponse(q, { answers: many('example.com') }))
    expect(r.flags.tc).toBe(true)
    expect(r.answers).toEqual([])
    expect(r.questions).toEqual(q.questions)
    // With EDNS and a 1232-byte payload size the same answers fit.
    const edns = parse(A_QUERY)
    expect(parse(buildResponse(edns, { answers: many(edns.questions[0]!.name) })).answers).toHaveLength(25)
  })

  test('names the builder cannot write are programming errors', () => {
    expect(() => buildDnsMessage({ id: 1, flags: {}, questions: [{ name: 'a..b', type: 1, class: 1 }] })).toThrow('label')
    expect(() => buildDnsMessage({ id: 1, flags: {}, questions: [], answers: [{ name: 'a', type: DNS_TYPE.A, ttl: 1, data: { kind: 'A', address: '::1' } }] })).toThrow('family')
  })
})

describe('mixedCase', () => {
  test('needs two letters and both cases', () => {
    expect(mixedCase('1-2.3')).toBeNull()
    expect(mixedCase('a.1')).toBeNull()
    expect(mixedCase('ab.test')).toBe(false)
    expect(mixedCase('AB.TEST')).toBe(false)
    expect(mixedCase('aB.test')).toBe(true)
  })
})

describe('malformed messages', () => {
  test('compression pointers that loop or point forward are refused', () => {
    // A question whose name is a pointer to itself (offset 12).
    expect(parseDnsMessage(message([1, 0, 0, 0], bytes(0xc0, 12, 0, 1, 0, 1)))).toMatchObject({ ok: false, error: 'bad-name' })
    // A label, then a pointer back to the start of the same name.
    expect(parseDnsMessage(message([1, 0, 0, 0], bytes(1, 0x61, 0xc0, 12, 0, 1, 0, 1)))).toMatchObject({ ok: false, error: 'bad-name' })
    // Two names pointing at each other.
    expect(parseDnsMessage(message([2, 0, 0, 0], bytes(0xc0, 18, 0, 1, 0, 1, 0xc0, 12, 0, 1, 0, 1)))).toMatchObject({ ok: false, error: 'bad-name' })
  })

  test('a chain of backward pointers is followed', () => {
    // "a" at 12, then names at 19 and 25 pointing back along the chain.
    const m = parse(message([3, 0, 0, 0], bytes(1, 0x61, 0, 0, 1, 0, 1, 0xc0, 12, 0, 1, 0, 1, 0xc0, 19, 0, 1, 0, 1)))
    expect(m.questions.map((q) => q.name)).toEqual(['a', 'a', 'a'])
  })

  test('names over 255 bytes, extended label types and cut-off pointers are refused', () => {
    const long = new ByteWriter()
    for (let i = 0; i < 5; i++) long.u8(63).bytes(new Uint8Array(63).fill(0x61))
    long.u8(0).u16(1).u16(1)
    expect(parseDnsMessage(message([1, 0, 0, 0], long.finish()))).toMatchObject({ ok: false, error: 'bad-name' })
    expect(parseDnsMessage(message([1, 0, 0, 0], bytes(0x41, 0, 0, 1, 0, 1)))).toMatchObject({ ok: false, error: 'bad-name' })
    expect(parseDnsMessage(message([1, 0, 0, 0], bytes(0xc0)))).toMatchObject({ ok: false, error: 'truncated' })
  })

  test('OPT rules: root name, additional section only, at most one (RFC 6891 §6.1)', () => {
    const opt = bytes(0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0)
    expect(parse(message([0, 0, 0, 1], opt)).edns).toMatchObject({ udpPayloadSize: 1232 })
    expect(parseDnsMessage(message([0, 0, 0, 2], concatBytes([opt, opt])))).toMatchObject({ ok: false, error: 'malformed' })
    expect(parseDnsMessage(message([0, 1, 0, 0], opt))).toMatchObject({ ok: false, error: 'malformed' })
    expect(parseDnsMessage(message([0, 0, 0, 1], bytes(1, 0x61, 0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0)))).toMatchObject({ ok: false, error: 'malformed' })
  })

  test('Client Subnet options that break RFC 7871 §6 are refused', () => {
    const withEcs = (data: number[]) => message([0, 0, 0, 1], bytes(0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 4 + data.length, 0, 8, 0, data.length, ...data))
    expect(parse(withEcs([0, 1, 24, 0, 1, 2, 3])).edns!.clientSubnet).toMatchObject({ address: '1.2.3.0' })
    expect(parseDnsMessage(withEcs([0, 3, 24, 0, 1, 2, 3]))).toMatchObject({ ok: false, error: 'malformed' })
    expect(parseDnsMessage(withEcs([0, 1, 33, 0, 1, 2, 3, 4, 5]))).toMatchObject({ ok: false, error: 'malformed' })
    expect(parseDnsMessage(withEcs([0, 1, 24, 0, 1, 2]))).toMatchObject({ ok: false, error: 'malformed' })
  })

  test('record data that overruns, has the wrong size, or leaves bytes over is refused', () => {
    const rr = (type: number, data: number[], length = data.length) => message([0, 1, 0, 0], bytes(0, 0, type, 0, 1, 0, 0, 0, 1, length >> 8, length & 0xff, ...data))
    expect(parseDnsMessage(rr(1, [1, 2, 3, 4], 9))).toMatchObject({ ok: false, error: 'truncated' })
    expect(parseDnsMessage(rr(1, [1, 2, 3, 4, 5]))).toMatchObject({ ok: false, error: 'malformed' })
    expect(parseDnsMessage(rr(2, [0, 9]))).toMatchObject({ ok: false, error: 'malformed' })
    expect(parseDnsMessage(concatBytes([rr(1, [1, 2, 3, 4]), bytes(0)]))).toMatchObject({ ok: false, error: 'malformed' })
  })

  test('every captured message cut at every offset is an error, not an exception', () => {
    for (const b of [A_QUERY, AAAA_QUERY, TXT_QUERY, A_RESPONSE]) {
      for (let n = 0; n < b.length; n++) expect(parseDnsMessage(b.subarray(0, n)).ok).toBe(false)
    }
  })

  test('random bytes and random corruptions of a response never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        parseDnsMessage(b)
        parseDnsMessage(message([1, 2, 1, 2], b))
      }),
      { numRuns: 500 },
    )
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(A_RESPONSE.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), (edits) => {
        const b = A_RESPONSE.slice()
        for (const [i, v] of edits) b[i] = v
        parseDnsMessage(b)
      }),
      { numRuns: 500 },
    )
  })
})

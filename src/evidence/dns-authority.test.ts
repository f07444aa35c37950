import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { answerQuery, MAX_UDP_GROWTH, type QuerySource, type ZoneConfig } from './dns-authority'
import { buildDnsMessage, buildResponse, DNS_RCODE, DNS_TYPE, parseDnsMessage, type DnsMessage, type DnsMessageInput } from './dns'
import { fixture } from './fixtures/load'

const cfg: ZoneConfig = { zone: 'evidence.test', answerIpv4: '192.0.2.1', answerIpv6: '2001:db8::1' }
const from: QuerySource = { address: '203.0.113.53', port: 40001, transport: 'udp', receivedAt: new Date('2025-03-01T12:00:00.123Z') }
const NONCE = 'abcdefghijklmnopqrstuvwx27'

const q = (name: string, type: number = DNS_TYPE.A, more: Partial<DnsMessageInput> = {}) =>
  buildDnsMessage({ id: 0x4242, flags: { rd: false }, questions: [{ name, type, class: 1 }], edns: { udpPayloadSize: 1232 }, ...more })

function reply(bytes: Uint8Array, source = from) {
  const out = answerQuery(bytes, cfg, source)
  const r = out.response ? parseDnsMessage(out.response) : null
  if (r && !r.ok) throw new Error(r.detail)
  return { message: r?.value as DnsMessage | undefined, evidence: out.evidence }
}

describe('answers of the authoritative server', () => {
  test('<nonce>-<n> in any case: A with the configured address, TTL 0, question echoed as sent, filed under the lower-case nonce', () => {
    const name = `${NONCE.toUpperCase()}-3.EviDence.TEST`
    const { message, evidence } = reply(q(name))
    expect(message!.flags).toMatchObject({ qr: true, aa: true, rcode: 0 })
    expect(message!.questions[0]!.name).toBe(name)
    expect(message!.answers).toEqual([{ name, type: DNS_TYPE.A, class: 1, ttl: 0, data: { kind: 'A', address: '192.0.2.1' } }])
    expect(evidence).toEqual({
      nonce: NONCE,
      data: { name, label: 3, qtype: 'A', resolver: '203.0.113.53', resolverPort: 40001, transport: 'udp', mixedCase: true, rd: false, edns: { udpPayloadSize: 1232, version: 0, dnssecOk: false, options: [], cookie: false }, ecs: null, receivedAt: '2025-03-01T12:00:00.123Z' },
    })
  })

  test('AAAA gets the IPv6 answer; HTTPS (type 65) is NODATA with the SOA and still filed', () => {
    expect(reply(q(`${NONCE}-1.evidence.test`, DNS_TYPE.AAAA)).message!.answers[0]!.data).toEqual({ kind: 'AAAA', address: '2001:db8::1' })
    const https = reply(q(`${NONCE}-1.evidence.test`, 65))
    expect(https.message!.answers).toEqual([])
    expect(https.message!.authorities[0]!.data).toMatchObject({ kind: 'SOA', minimum: 60 })
    expect(https.evidence!.data.qtype).toBe('HTTPS')
  })

  test('without configured addresses, A is NODATA: no browser is sent anywhere', () => {
    const out = answerQuery(q(`${NONCE}-1.evidence.test`), { ...cfg, answerIpv4: null }, from)
    const m = parseDnsMessage(out.response!)
    expect(m.ok && m.value.answers).toEqual([])
    expect(out.evidence).not.toBeNull()
  })

  test('the apex answers SOA and NS, ns1 its addresses; other names are NXDOMAIN, outside names REFUSED', () => {
    expect(reply(q('EVIDENCE.test', DNS_TYPE.SOA)).message!.answers[0]).toMatchObject({ name: 'EVIDENCE.test', data: { kind: 'SOA', mname: 'ns1.EVIDENCE.test' } })
    expect(reply(q('evidence.test', DNS_TYPE.NS)).message!.answers[0]!.data).toEqual({ kind: 'NS', name: 'ns1.evidence.test' })
    expect(reply(q('ns1.evidence.test')).message!.answers[0]!.data).toEqual({ kind: 'A', address: '192.0.2.1' })
    for (const name of ['www.evidence.test', `${NONCE}.evidence.test`, `${NONCE}-1.x.evidence.test`, `${NONCE.slice(1)}-1.evidence.test`]) {
      const { message, evidence } = reply(q(name))
      expect(message!.flags).toMatchObject({ aa: true, rcode: DNS_RCODE.nxDomain })
      expect(message!.authorities[0]!.type).toBe(DNS_TYPE.SOA)
      expect(evidence).toBeNull()
    }
    for (const name of ['example.com', 'notevidence.test', 'test']) expect(reply(q(name)).message!.flags).toMatchObject({ aa: false, rcode: DNS_RCODE.refused })
  })

  test('the client subnet is filed as <network>/<prefix> and echoed with scope 0', () => {
    const { message, evidence } = reply(fixture('dns-dig-a-ecs4.hex'), from)
    // The captured dig query asks NoNcE-1.EvIdEnCe.TeSt: no page nonce, so nothing to file.
    expect(evidence).toBeNull()
    expect(message!.flags.rcode).toBe(DNS_RCODE.nxDomain)
    expect(message!.edns!.clientSubnet).toEqual({ family: 'IPv4', sourcePrefix: 24, scopePrefix: 0, address: '1.2.3.0' })
    const withEcs = buildDnsMessage({ id: 1, flags: {}, questions: [{ name: `${NONCE}-2.evidence.test`, type: 1, class: 1 }], edns: { udpPayloadSize: 4096, options: [{ code: 8, data: Uint8Array.from([0, 1, 24, 0, 81, 2, 69]) }] } })
    expect(reply(withEcs).evidence!.data.ecs).toBe('81.2.69.0/24')
  })

  test('odd queries: responses are ignored, other opcodes NOTIMP, EDNS version 1 BADVERS, two questions FORMERR', () => {
    expect(answerQuery(q(`${NONCE}-1.evidence.test`, 1, { flags: { qr: true } }), cfg, from)).toEqual({ response: null, evidence: null })
    expect(reply(q(`${NONCE}-1.evidence.test`, 1, { flags: { opcode: 2 } })).message!.flags.rcode).toBe(DNS_RCODE.notImp)
    const v1 = buildDnsMessage({ id: 7, flags: {}, questions: [{ name: `${NONCE}-1.evidence.test`, type: 1, class: 1 }], edns: { udpPayloadSize: 1232 } })
    v1[v1.length - 5] = 1 // OPT TTL's version byte
    const bad = reply(v1)
    expect(bad.message!.edns!.extendedRcode * 16 + bad.message!.flags.rcode).toBe(DNS_RCODE.badVers)
    expect(bad.evidence).toBeNull()
    const two = buildDnsMessage({ id: 8, flags: {}, questions: [{ name: 'a.evidence.test', type: 1, class: 1 }, { name: 'b.evidence.test', type: 1, class: 1 }] })
    expect(reply(two).message!.flags.rcode).toBe(DNS_RCODE.formErr)
  })

  test('garbage with a header gets FORMERR with its ID; shorter than a header, silence', () => {
    const junk = Uint8Array.from([0xbe, 0xef, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 63, 1, 2])
    const { message } = reply(junk)
    expect(message).toMatchObject({ id: 0xbeef, flags: { qr: true, rcode: DNS_RCODE.formErr }, questions: [] })
    expect(answerQuery(Uint8Array.from([1, 2, 3]), cfg, from).response).toBeNull()
  })

  test('over TCP the UDP size limit does not apply', () => {
    expect(reply(q(`${NONCE}-1.evidence.test`), { ...from, transport: 'tcp' }).evidence!.data.transport).toBe('tcp')
  })

  test('never throws, for any bytes or any mutation of a valid query', () => {
    const valid = q(`${NONCE}-1.evidence.test`)
    fc.assert(fc.property(fc.uint8Array({ maxLength: 700 }), (b) => void answerQuery(b, cfg, from)), { numRuns: 2000 })
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(valid.length - 1), fc.nat(255)), { maxLength: 6 }), (edits) => {
        const c = valid.slice()
        for (const [i, b] of edits) c[i] = b
        void answerQuery(c, cfg, from)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('amplification', () => {
  const hinfo = { kind: 'raw' as const, hex: `07${Buffer.from('RFC8482').toString('hex')}00` }

  test('ANY gets one HINFO "RFC8482" (RFC 8482 §4.2) at the apex, ns1 and a page name; still filed for a page name', () => {
    for (const name of ['evidence.test', 'ns1.evidence.test', `${NONCE}-2.evidence.test`]) {
      const { message, evidence } = reply(q(name, DNS_TYPE.ANY))
      expect(message!.answers.map((a) => [a.name, a.type, a.data])).toEqual([[name, DNS_TYPE.HINFO, hinfo]])
      expect(message!.authorities).toEqual([])
      expect(evidence?.data.qtype ?? null).toBe(name.startsWith(NONCE) ? 'ANY' : null)
    }
  })

  test('an answer larger than the query plus the bound goes out truncated (TC), without records', () => {
    const query = parseDnsMessage(q('evidence.test', DNS_TYPE.SOA))
    if (!query.ok) throw new Error(query.detail)
    const soa = { name: 'evidence.test', type: DNS_TYPE.SOA, ttl: 1, data: { kind: 'SOA' as const, mname: 'a.evidence.test', rname: 'b.evidence.test', serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 1 } }
    const whole = buildResponse(query.value, { answers: [soa] })
    const cut = parseDnsMessage(buildResponse(query.value, { answers: [soa], maxBytes: whole.length - 1 }))
    if (!cut.ok) throw new Error(cut.detail)
    expect([cut.value.flags.tc, cut.value.answers.length]).toEqual([true, 0])
  })

  test('any query over UDP: no answer exceeds it by more than the bound', () => {
    const names = fc.constantFrom('evidence.test', 'ns1.evidence.test', `${NONCE}-1.evidence.test`, 'nope.evidence.test', 'example.com', '')
    fc.assert(
      fc.property(names, fc.integer({ min: 0, max: 65535 }), fc.boolean(), (name, type, edns) => {
        const bytes = q(name, type, edns ? {} : { edns: null })
        const out = answerQuery(bytes, cfg, from)
        if (out.response) expect(out.response.length).toBeLessThanOrEqual(bytes.length + MAX_UDP_GROWTH)
      }),
      { numRuns: 2000 },
    )
  })
})

// UDP amplification (issue 13): the STUN/TURN and DNS listeners answer datagrams whose source
// anyone can forge, so no answer to a request that has not proven its source may be more than
// a small constant larger than the request. Every kind of unauthenticated request goes to the
// real listeners on 127.0.0.1 (and ::1), and each answer's size is compared with the request's;
// the table of sizes and ratios is printed. Requests that must get no answer are followed by a
// Binding (or a query) from the same socket: once its answer is in, the earlier datagram has
// been handled, and no answer to it arrived.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fixture } from '../../src/evidence/fixtures/load'
import { buildDnsMessage, clientSubnetOption, DNS_RCODE, DNS_TYPE, EDNS_OPTION, parseDnsMessage, type DnsMessage } from '../../src/evidence/dns'
import { MAX_UDP_GROWTH } from '../../src/evidence/dns-authority'
import { buildStun, longTermKey, parseStun, STUN_ATTRIBUTE as A, STUN_METHOD, textAttribute, u32Attribute, type StunMessage } from '../../src/evidence/stun'
import { MAX_UNAUTHENTICATED_GROWTH, serverNonce } from '../../src/evidence/turn-server'
import { startDnsListener, type DnsListener } from '../../src/listeners/dns'
import { startStunListener } from '../../src/listeners/stun'
import { openTestDatabase, type TestDatabase } from '../support/db'

interface Row {
  listener: 'STUN/TURN' | 'DNS'
  what: string
  request: number
  reply: number | null
}
const table: Row[] = []

/** One UDP socket that collects every datagram it receives. */
async function udpClient(host: string) {
  const got: Uint8Array[] = []
  const waiters: Array<() => void> = []
  const socket = await Bun.udpSocket({
    hostname: host,
    socket: {
      data(_s, buf) {
        got.push(new Uint8Array(buf))
        for (const w of waiters.splice(0)) w()
      },
    },
  })
  /** Resolves with the first datagram received for which `match` is true (null after 3 s: a failure, never a pass). */
  const receive = (match: (d: Uint8Array) => boolean): Promise<Uint8Array | null> =>
    new Promise((ok) => {
      const timer = setTimeout(() => ok(null), 3000)
      const check = () => {
        const d = got.find(match)
        if (d) {
          clearTimeout(timer)
          ok(d)
        } else waiters.push(check)
      }
      check()
    })
  return { socket, got, receive, close: () => socket.close() }
}

const tid = () => crypto.getRandomValues(new Uint8Array(12))
const stunId = (d: Uint8Array) => Buffer.from(d.subarray(8, 20)).toString('hex')

describe('UDP answers to unauthenticated requests stay within a constant of the request', () => {
  let db: TestDatabase
  let stun: { port: number; stop(): Promise<void> }
  let dual: { port: number; stop(): Promise<void> }
  let dns: DnsListener
  const KEY = new Uint8Array(32).fill(7)
  const ZONE = 'leak.antibot.test'

  beforeAll(async () => {
    db = await openTestDatabase('pglite')
    const deps = { db: db.db, clock: () => new Date() }
    stun = await startStunListener(deps, { port: 0, hostname: '127.0.0.1', nonceKey: KEY })
    dual = await startStunListener(deps, { port: 0, hostname: '::', nonceKey: KEY })
    // Both answer addresses set: the largest answers the zone has.
    dns = await startDnsListener(deps, { port: 0, hostname: '127.0.0.1', zone: ZONE, answerIpv4: '192.0.2.1', answerIpv6: '2001:db8::1', tcp: false })
  })
  afterAll(async () => {
    await stun?.stop()
    await dual?.stop()
    await dns?.stop()
    await db?.destroy()
    const rows = table.map((r) => `${r.listener.padEnd(9)}  ${r.what.padEnd(66)} ${String(r.request).padStart(4)} → ${r.reply === null ? '   —' : String(r.reply).padStart(4)}  ${r.reply === null ? 'no answer' : `${(r.reply / r.request).toFixed(2)}×  +${r.reply - r.request}`}`)
    console.log(`\nUDP answers to unauthenticated requests (bytes; bounds: STUN/TURN +${MAX_UNAUTHENTICATED_GROWTH}, DNS +${MAX_UDP_GROWTH}):\n${rows.join('\n')}\n`)
  })

  describe('STUN/TURN', () => {
    const id = () => tid()
    const stunCases: Array<{ what: string; bytes: () => Uint8Array; expect: 'success' | number | null; host?: '::1' }> = [
      { what: 'Binding (IPv4 source)', bytes: () => buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: id() }), expect: 'success' },
      { what: 'Binding (IPv6 source)', bytes: () => buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: id() }), expect: 'success', host: '::1' },
      { what: "Binding, Chromium's (captured)", bytes: () => fixture('stun-chromium-binding.hex'), expect: 'success' },
      { what: 'Binding with FINGERPRINT', bytes: () => buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: id(), fingerprint: true }), expect: 'success' },
      { what: 'Binding with FINGERPRINT (IPv6 source)', bytes: () => buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: id(), fingerprint: true }), expect: 'success', host: '::1' },
      {
        what: 'Binding with an unknown comprehension-required attribute (420)',
        bytes: () => buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: id(), attributes: [{ type: 0x7777, value: new Uint8Array(0) }] }),
        expect: 420,
      },
      {
        what: 'Binding with 8 unknown attributes (420)',
        bytes: () => buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: id(), attributes: Array.from({ length: 8 }, (_, i) => ({ type: 0x7770 + i, value: new Uint8Array(0) })) }),
        expect: 420,
      },
      { what: 'Allocate without REQUESTED-TRANSPORT (400)', bytes: () => buildStun({ method: STUN_METHOD.allocate, class: 'request', transactionId: id() }), expect: 400 },
      { what: "Allocate, Chromium's first (captured; 401)", bytes: () => fixture('turn-chromium-allocate.hex'), expect: 401 },
      {
        what: 'Allocate with FINGERPRINT (401)',
        bytes: () => buildStun({ method: STUN_METHOD.allocate, class: 'request', transactionId: id(), attributes: [u32Attribute(A.requestedTransport, 17 << 24)], fingerprint: true }),
        expect: 401,
      },
      { what: 'Allocate with credentials, a malformed server nonce (401)', bytes: () => credentialed(STUN_METHOD.allocate, 'x'), expect: 401 },
      { what: 'Allocate with credentials, a one-letter realm (401)', bytes: () => credentialed(STUN_METHOD.allocate, 'x', 'r'), expect: 401 },
      { what: "Allocate with credentials, another instance's nonce (438)", bytes: () => credentialed(STUN_METHOD.allocate, serverNonce(new Uint8Array(32), { address: '127.0.0.1', port: 1 }, new Date(), 600)), expect: 438 },
      { what: 'Refresh (no allocation exists)', bytes: () => buildStun({ method: STUN_METHOD.refresh, class: 'request', transactionId: id() }), expect: null },
      { what: 'Refresh with LIFETIME and FINGERPRINT', bytes: () => buildStun({ method: STUN_METHOD.refresh, class: 'request', transactionId: id(), attributes: [u32Attribute(A.lifetime, 600)], fingerprint: true }), expect: null },
      { what: 'CreatePermission', bytes: () => buildStun({ method: STUN_METHOD.createPermission, class: 'request', transactionId: id() }), expect: null },
      { what: 'ChannelBind', bytes: () => buildStun({ method: STUN_METHOD.channelBind, class: 'request', transactionId: id() }), expect: null },
      { what: 'Send indication', bytes: () => buildStun({ method: STUN_METHOD.send, class: 'indication', transactionId: id() }), expect: null },
      { what: 'unknown method 0x0ff', bytes: () => buildStun({ method: 0x0ff, class: 'request', transactionId: id() }), expect: null },
      { what: 'unknown method 0x0ff with an unknown attribute', bytes: () => buildStun({ method: 0x0ff, class: 'request', transactionId: id(), attributes: [{ type: 0x7777, value: new Uint8Array(0) }] }), expect: null },
    ]

    /** A request with USERNAME, REALM, NONCE and MESSAGE-INTEGRITY, none of which the server issued. */
    function credentialed(method: number, nonce: string, realm = 'antibot'): Uint8Array {
      return buildStun({
        method,
        class: 'request',
        transactionId: id(),
        attributes: [u32Attribute(A.requestedTransport, 17 << 24), textAttribute(A.username, 'u'), textAttribute(A.realm, realm), textAttribute(A.nonce, nonce)],
        integrityKey: longTermKey('u', realm, 'p'),
      })
    }

    for (const c of stunCases) {
      test(`${c.what}: ${c.expect === null ? 'no answer' : `answer ≤ request + ${MAX_UNAUTHENTICATED_GROWTH} bytes`}`, async () => {
        const host = c.host ?? '127.0.0.1'
        const port = c.host ? dual.port : stun.port
        const client = await udpClient(host)
        try {
          const bytes = c.bytes()
          const mine = stunId(bytes)
          client.socket.send(bytes, port, host)
          let reply: Uint8Array | null
          if (c.expect === null) {
            // A Binding after it: its answer means the first datagram has been handled.
            const marker = buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: tid() })
            client.socket.send(marker, port, host)
            expect(await client.receive((d) => stunId(d) === stunId(marker))).not.toBeNull()
            reply = client.got.find((d) => stunId(d) === mine) ?? null
          } else reply = await client.receive((d) => stunId(d) === mine)
          table.push({ listener: 'STUN/TURN', what: c.what, request: bytes.length, reply: reply?.length ?? null })
          if (c.expect === null) {
            expect(reply).toBeNull()
            return
          }
          expect(reply).not.toBeNull()
          const parsed = parseStun(reply!)
          if (!parsed.ok) throw new Error(parsed.detail)
          const m: StunMessage = parsed.value
          if (c.expect === 'success') expect(m.class).toBe('success')
          else expect(m.errorCode?.code).toBe(c.expect)
          // No SOFTWARE, and FINGERPRINT only when the request had one.
          expect(m.software).toBeNull()
          expect(m.fingerprint === 'absent').toBe(parseStun(bytes).ok && (parseStun(bytes) as { value: StunMessage }).value.fingerprint === 'absent')
          expect(reply!.length).toBeLessThanOrEqual(bytes.length + MAX_UNAUTHENTICATED_GROWTH)
        } finally {
          client.close()
        }
      })
    }
  })

  describe('DNS', () => {
    const NONCE = 'abcdefghijklmnopqrstuvwxyz'
    let nextId = 1
    type Q = { what: string; bytes: () => Uint8Array; rcode: number | null; check?: (m: DnsMessage) => void }
    const q = (name: string, type: number, opts: { edns?: boolean; options?: Array<{ code: number; data: Uint8Array }>; opcode?: number; version?: number } = {}) => {
      const bytes = buildDnsMessage({
        id: nextId++,
        flags: { rd: false, opcode: opts.opcode ?? 0 },
        questions: [{ name, type, class: 1 }],
        edns: opts.edns ? { udpPayloadSize: 4096, options: opts.options ?? [] } : null,
      })
      // EDNS version lives in the OPT record's TTL field (second byte): set it by hand.
      if (opts.version) bytes[bytes.length - 11 + 6] = opts.version
      return bytes
    }
    const hinfo = (m: DnsMessage) => {
      expect(m.answers).toHaveLength(1)
      expect(m.answers[0]!.type).toBe(DNS_TYPE.HINFO)
      expect(m.answers[0]!.data).toEqual({ kind: 'raw', hex: `07${Buffer.from('RFC8482').toString('hex')}00` })
    }
    const ecs = clientSubnetOption({ family: 'IPv6', sourcePrefix: 56, scopePrefix: 0, address: '2001:db8:1234:5600::' }, 0)
    const cookie = { code: EDNS_OPTION.cookie, data: new Uint8Array(8).fill(1) }
    const dnsCases: Q[] = [
      { what: 'apex SOA', bytes: () => q(ZONE, DNS_TYPE.SOA), rcode: DNS_RCODE.noError },
      { what: 'apex NS', bytes: () => q(ZONE, DNS_TYPE.NS), rcode: DNS_RCODE.noError },
      { what: 'apex ANY (RFC 8482: one HINFO)', bytes: () => q(ZONE, DNS_TYPE.ANY), rcode: DNS_RCODE.noError, check: hinfo },
      { what: 'apex ANY with EDNS (DO clear, 4096)', bytes: () => q(ZONE, DNS_TYPE.ANY, { edns: true }), rcode: DNS_RCODE.noError, check: hinfo },
      { what: 'apex ANY with EDNS Client Subnet', bytes: () => q(ZONE, DNS_TYPE.ANY, { edns: true, options: [ecs] }), rcode: DNS_RCODE.noError, check: hinfo },
      { what: 'apex SOA with a client COOKIE (no server cookie added)', bytes: () => q(ZONE, DNS_TYPE.SOA, { edns: true, options: [cookie] }), rcode: DNS_RCODE.noError },
      { what: 'apex TXT (NODATA + SOA)', bytes: () => q(ZONE, DNS_TYPE.TXT), rcode: DNS_RCODE.noError },
      { what: 'apex DNSKEY (NODATA + SOA)', bytes: () => q(ZONE, 48), rcode: DNS_RCODE.noError },
      { what: 'apex A (NODATA + SOA)', bytes: () => q(ZONE, DNS_TYPE.A), rcode: DNS_RCODE.noError },
      { what: 'apex MX with EDNS', bytes: () => q(ZONE, DNS_TYPE.MX, { edns: true }), rcode: DNS_RCODE.noError },
      { what: 'apex CAA', bytes: () => q(ZONE, 257), rcode: DNS_RCODE.noError },
      { what: 'ns1 A', bytes: () => q(`ns1.${ZONE}`, DNS_TYPE.A), rcode: DNS_RCODE.noError },
      { what: 'ns1 AAAA', bytes: () => q(`ns1.${ZONE}`, DNS_TYPE.AAAA), rcode: DNS_RCODE.noError },
      { what: 'ns1 ANY', bytes: () => q(`ns1.${ZONE}`, DNS_TYPE.ANY), rcode: DNS_RCODE.noError, check: hinfo },
      { what: 'page name A', bytes: () => q(`${NONCE}-1.${ZONE}`, DNS_TYPE.A), rcode: DNS_RCODE.noError },
      { what: 'page name AAAA', bytes: () => q(`${NONCE}-1.${ZONE}`, DNS_TYPE.AAAA), rcode: DNS_RCODE.noError },
      { what: 'page name HTTPS (NODATA + SOA)', bytes: () => q(`${NONCE}-1.${ZONE}`, 65), rcode: DNS_RCODE.noError },
      { what: 'page name ANY', bytes: () => q(`${NONCE}-1.${ZONE}`, DNS_TYPE.ANY), rcode: DNS_RCODE.noError, check: hinfo },
      { what: 'other name in the zone A (NXDOMAIN + SOA)', bytes: () => q(`x.${ZONE}`, DNS_TYPE.A), rcode: DNS_RCODE.nxDomain },
      { what: 'other name in the zone ANY (NXDOMAIN + SOA)', bytes: () => q(`x.${ZONE}`, DNS_TYPE.ANY), rcode: DNS_RCODE.nxDomain },
      { what: 'outside the zone ANY (REFUSED)', bytes: () => q('example.com', DNS_TYPE.ANY), rcode: DNS_RCODE.refused },
      { what: 'root ANY (REFUSED)', bytes: () => q('', DNS_TYPE.ANY), rcode: DNS_RCODE.refused },
      { what: 'opcode STATUS (NOTIMP)', bytes: () => q(ZONE, DNS_TYPE.SOA, { opcode: 2 }), rcode: DNS_RCODE.notImp },
      { what: 'EDNS version 1 (BADVERS)', bytes: () => q(ZONE, DNS_TYPE.ANY, { edns: true, version: 1 }), rcode: DNS_RCODE.badVers & 0xf },
      {
        what: 'two questions (FORMERR)',
        bytes: () => buildDnsMessage({ id: nextId++, flags: {}, questions: [{ name: ZONE, type: DNS_TYPE.ANY, class: 1 }, { name: ZONE, type: DNS_TYPE.SOA, class: 1 }] }),
        rcode: DNS_RCODE.formErr,
      },
      { what: 'a header alone claiming a question (FORMERR)', bytes: () => Uint8Array.of(0, nextId++ & 0xff, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0), rcode: DNS_RCODE.formErr },
      {
        // The question's name is a pointer into the header (ID 0x0361 makes a label "a\x01\x00"):
        // written out in full in the answer, it is still within the bound.
        what: 'a question name compressed into the header',
        bytes: () => Uint8Array.of(0x03, 0x61, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 0x00, 0, 255, 0, 1),
        rcode: DNS_RCODE.refused,
      },
      { what: 'a response (no answer)', bytes: () => Uint8Array.of(0, nextId++ & 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0), rcode: null },
    ]

    for (const c of dnsCases) {
      test(`${c.what}: ${c.rcode === null ? 'no answer' : `answer ≤ query + ${MAX_UDP_GROWTH} bytes`}`, async () => {
        const client = await udpClient('127.0.0.1')
        try {
          const bytes = c.bytes()
          const idOf = (d: Uint8Array) => (d[0]! << 8) | d[1]!
          client.socket.send(bytes, dns.port, '127.0.0.1')
          let reply: Uint8Array | null
          if (c.rcode === null) {
            const marker = q(ZONE, DNS_TYPE.SOA)
            client.socket.send(marker, dns.port, '127.0.0.1')
            expect(await client.receive((d) => idOf(d) === idOf(marker))).not.toBeNull()
            reply = client.got.find((d) => idOf(d) === idOf(bytes)) ?? null
          } else reply = await client.receive((d) => idOf(d) === idOf(bytes))
          table.push({ listener: 'DNS', what: c.what, request: bytes.length, reply: reply?.length ?? null })
          if (c.rcode === null) {
            expect(reply).toBeNull()
            return
          }
          expect(reply).not.toBeNull()
          expect(reply![3]! & 0x0f).toBe(c.rcode)
          if (c.check) {
            const parsed = parseDnsMessage(reply!)
            if (!parsed.ok) throw new Error(parsed.detail)
            c.check(parsed.value)
          }
          expect(reply!.length).toBeLessThanOrEqual(bytes.length + MAX_UDP_GROWTH)
        } finally {
          client.close()
        }
      })
    }
  })
})

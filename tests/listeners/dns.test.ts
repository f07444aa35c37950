// The authoritative DNS listener on 127.0.0.1 with real packets, on each database driver:
// answers for the zone, evidence filed under the page nonce (name case, EDNS, client subnet,
// source address), TCP, garbage that must not stop it, and the whole path through a real
// recursive resolver (Debian's unbound with a stub zone pointing at us).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import fc from 'fast-check'
import { issueNonce, readNonce } from '../../db/nonces'
import { generateNonce } from '../../src/core/nonce'
import { buildDnsMessage, clientSubnetOption, DNS_RCODE, DNS_TYPE, parseDnsMessage, type DnsMessage } from '../../src/evidence/dns'
import type { DnsQueryEvidence } from '../../src/evidence/dns-authority'
import { startDnsListener, type DnsListener } from '../../src/listeners/dns'
import { openTestDatabase, testDrivers, type TestDatabase } from '../support/db'
import { startUnbound, udpExchange, unboundAvailable, type Unbound } from '../support/unbound'
import { Resolver } from 'node:dns/promises'
import { requirePrerequisite } from '../support/prerequisites'

const ZONE = 'leak.antibot.test'
const NOW = new Date('2025-03-01T12:00:00.000Z')

function query(name: string, type: number = DNS_TYPE.A, extra: { ecs?: boolean; edns?: boolean } = {}): Uint8Array {
  const edns = extra.edns === false ? null : {
    udpPayloadSize: 1232,
    options: extra.ecs ? [clientSubnetOption({ family: 'IPv4', sourcePrefix: 24, scopePrefix: 0, address: '198.51.100.0' }, 0)] : [],
  }
  return buildDnsMessage({ id: Math.floor(Math.random() * 65536), flags: { rd: true }, questions: [{ name, type, class: 1 }], edns })
}

function parse(bytes: Uint8Array): DnsMessage {
  const r = parseDnsMessage(bytes)
  if (!r.ok) throw new Error(r.detail)
  return r.value
}

function tcpExchange(q: Uint8Array, port: number): Promise<Uint8Array> {
  return new Promise((ok, fail) => {
    const s = connect(port, '127.0.0.1')
    let buf = Buffer.alloc(0)
    s.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        s.end()
        ok(new Uint8Array(buf.subarray(2, 2 + buf.readUInt16BE(0))))
      }
    })
    s.on('error', fail)
    // Split the length prefix from the message: the listener must reassemble.
    s.write(Uint8Array.from([q.length >> 8, q.length & 0xff, q[0]!]))
    setTimeout(() => s.write(q.subarray(1)), 20)
  })
}

/** A fresh live nonce (26 lower-case base32 characters) issued as a dns-leak page would be. */
async function nonceFor(db: TestDatabase): Promise<string> {
  const n = generateNonce((k) => crypto.getRandomValues(new Uint8Array(k)))
  await issueNonce(db.db, { nonce: n, tool: 'dns-leak', turnSecret: 'x', now: NOW, ttlSeconds: 900 })
  return n
}

async function dnsEvidence(db: TestDatabase, nonce: string): Promise<DnsQueryEvidence[]> {
  const r = await readNonce(db.db, { nonce, tool: 'dns-leak', now: NOW, client: '127.0.0.1' })
  return r.evidence.filter((e) => e.kind === 'dns').map((e) => e.data as DnsQueryEvidence)
}

for (const driver of testDrivers()) {
  describe(`DNS listener (${driver})`, () => {
    let db: TestDatabase
    let dns: DnsListener
    const lines: string[] = []

    beforeAll(async () => {
      db = await openTestDatabase(driver)
      dns = await startDnsListener({ db: db.db, clock: () => NOW, log: (l) => lines.push(l) }, { zone: ZONE, port: 0, hostname: '127.0.0.1', answerIpv4: '192.0.2.10', answerIpv6: null })
    })
    afterAll(async () => {
      await dns?.stop()
      await db?.destroy()
    })

    test('answers A for <nonce>-<n>.<zone> and files the query under the nonce, case and client subnet kept', async () => {
      const nonce = await nonceFor(db)
      const name = `${nonce.toUpperCase()}-1.LeAk.AnTiBoT.TeSt`
      const r = parse(await udpExchange(query(name, DNS_TYPE.A, { ecs: true }), '127.0.0.1', dns.port))
      expect(r.flags).toMatchObject({ qr: true, aa: true, rcode: DNS_RCODE.noError })
      expect(r.questions[0]!.name).toBe(name)
      expect(r.answers).toEqual([{ name, type: DNS_TYPE.A, class: 1, ttl: 0, data: { kind: 'A', address: '192.0.2.10' } }])
      expect(r.edns!.clientSubnet).toMatchObject({ address: '198.51.100.0', sourcePrefix: 24, scopePrefix: 0 })
      const [e, ...rest] = await dnsEvidence(db, nonce)
      expect(rest).toEqual([])
      expect(e).toMatchObject({ name, label: 1, qtype: 'A', resolver: '127.0.0.1', transport: 'udp', mixedCase: true, rd: true, ecs: '198.51.100.0/24', receivedAt: NOW.toISOString() })
      expect(e!.edns).toEqual({ udpPayloadSize: 1232, version: 0, dnssecOk: false, options: [8], cookie: false })
      expect(e!.resolverPort).toBeGreaterThan(0)
    })

    test('AAAA without a configured IPv6 answer is NODATA with the SOA, still filed', async () => {
      const nonce = await nonceFor(db)
      const r = parse(await udpExchange(query(`${nonce}-2.${ZONE}`, DNS_TYPE.AAAA, { edns: false }), '127.0.0.1', dns.port))
      expect(r.flags.rcode).toBe(DNS_RCODE.noError)
      expect(r.answers).toEqual([])
      expect(r.authorities[0]!.data).toMatchObject({ kind: 'SOA', mname: `ns1.${ZONE}` })
      expect(await dnsEvidence(db, nonce)).toEqual([expect.objectContaining({ qtype: 'AAAA', label: 2, edns: null, ecs: null, mixedCase: false })])
    })

    test('the apex has SOA and NS; other names in the zone are NXDOMAIN; names outside are REFUSED', async () => {
      const soa = parse(await udpExchange(query(ZONE, DNS_TYPE.SOA), '127.0.0.1', dns.port))
      expect(soa.answers[0]!.data).toMatchObject({ kind: 'SOA', mname: `ns1.${ZONE}`, rname: `hostmaster.${ZONE}` })
      const ns = parse(await udpExchange(query(ZONE, DNS_TYPE.NS), '127.0.0.1', dns.port))
      expect(ns.answers[0]!.data).toEqual({ kind: 'NS', name: `ns1.${ZONE}` })
      const nx = parse(await udpExchange(query(`www.${ZONE}`), '127.0.0.1', dns.port))
      expect(nx.flags).toMatchObject({ aa: true, rcode: DNS_RCODE.nxDomain })
      expect(nx.authorities[0]!.type).toBe(DNS_TYPE.SOA)
      const out = parse(await udpExchange(query('example.com'), '127.0.0.1', dns.port))
      expect(out.flags).toMatchObject({ aa: false, rcode: DNS_RCODE.refused })
    })

    test('a well-formed but unknown nonce is answered and filed nowhere', async () => {
      const r = parse(await udpExchange(query(`${'z'.repeat(26)}-1.${ZONE}`), '127.0.0.1', dns.port))
      expect(r.answers.length).toBe(1)
      expect(lines.filter((l) => l.includes('cannot record'))).toEqual([])
    })

    test('TCP: a query split across writes is answered and filed with transport tcp', async () => {
      const nonce = await nonceFor(db)
      const r = parse(await tcpExchange(query(`${nonce}-3.${ZONE}`), dns.port))
      expect(r.answers[0]!.data).toEqual({ kind: 'A', address: '192.0.2.10' })
      expect(await dnsEvidence(db, nonce)).toEqual([expect.objectContaining({ transport: 'tcp', label: 3 })])
    })

    test('garbage, truncated and hostile packets never stop it: it still answers afterwards', async () => {
      const sock = Bun.udpSocket({ hostname: '127.0.0.1', port: 0 })
      const s = await sock
      const valid = query(`${'a'.repeat(26)}-1.${ZONE}`)
      const samples = fc.sample(fc.oneof(fc.uint8Array({ maxLength: 600 }), fc.integer({ min: 0, max: valid.length }).map((n) => valid.slice(0, n)), fc.tuple(fc.nat(valid.length - 1), fc.nat(255)).map(([i, b]) => { const c = valid.slice(); c[i] = b; return c })), 400)
      for (const p of samples) s.send(p, dns.port, '127.0.0.1')
      s.close()
      // A raw TCP connection that sends a huge length and a few bytes, then hangs up.
      await new Promise<void>((ok) => { const c = connect(dns.port, '127.0.0.1', () => { c.end(Uint8Array.from([0xff, 0xff, 1, 2, 3])); ok() }); c.on('error', () => ok()) })
      await Bun.sleep(200)
      const r = parse(await udpExchange(query(`${'b'.repeat(26)}-1.${ZONE}`), '127.0.0.1', dns.port))
      expect(r.flags.rcode).toBe(DNS_RCODE.noError)
    })
  })
}

describe('through a real recursive resolver (unbound, stub zone → our listener)', () => {
  let db: TestDatabase
  let dns: DnsListener
  let unbound: Unbound

  beforeAll(async () => {
    requirePrerequisite(!unboundAvailable() && "Debian's unbound (tests/gate.sh installs it: apt-get install unbound)")
    db = await openTestDatabase('pglite')
    dns = await startDnsListener({ db: db.db, clock: () => NOW }, { zone: ZONE, port: 0, hostname: '127.0.0.1', answerIpv4: '192.0.2.10', answerIpv6: '2001:db8::10' })
    unbound = await startUnbound({ zone: ZONE, authorityPort: dns.port, ecs: true })
  }, 20_000)
  afterAll(async () => {
    await unbound?.stop()
    await dns?.stop()
    await db?.destroy()
  })

  test('a lookup via unbound files the resolver (unbound) under the nonce, with its 0x20 case and client subnet', async () => {
    const nonce = await nonceFor(db)
    const name = `${nonce}-1.${ZONE}`
    const r = parse(await udpExchange(query(name, DNS_TYPE.A, { edns: false }), unbound.address, unbound.port, 5000))
    expect(r.flags).toMatchObject({ rcode: DNS_RCODE.noError, ra: true, aa: false })
    expect(r.answers.map((a) => a.data)).toEqual([{ kind: 'A', address: '192.0.2.10' }])
    const seen = await dnsEvidence(db, nonce)
    expect(seen.length).toBeGreaterThanOrEqual(1)
    const e = seen[0]!
    expect(e.name.toLowerCase()).toBe(name)
    // use-caps-for-id: unbound randomises the letters' case; the stub's own query was lower case.
    expect(e.mixedCase).toBe(true)
    expect(e).toMatchObject({ qtype: 'A', resolver: '127.0.0.1', transport: 'udp', rd: false })
    expect(e.resolverPort).not.toBe(unbound.port)
    expect(e.edns).not.toBeNull()
    // subnetcache + send-client-subnet: the client's /24 (the client is 127.0.0.1 here).
    expect(e.ecs).toBe('127.0.0.0/24')
  })

  test('a stub resolver of its own (node:dns, c-ares) through unbound: AAAA answered, the query filed', async () => {
    const nonce = await nonceFor(db)
    const name = `${nonce}-2.${ZONE}`
    // Another DNS implementation than ours asks unbound, which asks our listener.
    const resolver = new Resolver({ timeout: 3000, tries: 1 })
    resolver.setServers([`${unbound.address}:${unbound.port}`])
    expect(await resolver.resolve6(name)).toEqual(['2001:db8::10'])
    const seen = await dnsEvidence(db, nonce)
    expect(seen.map((e) => [e.name.toLowerCase(), e.qtype, e.resolver])).toContainEqual([name, 'AAAA', '127.0.0.1'])
  })
})

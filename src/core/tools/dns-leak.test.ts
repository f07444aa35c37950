import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { summarize, type Check } from '../scoring'
import { dnsEvidenceOf, dnsLeak, DnsLeakSections, DnsLeakSignals, judgeDns, type DnsEvidence, type DnsLeakSignals as Signals } from './dns-leak'
import { NO_ZONE_MESSAGE } from '../../../common/signals/shared'
import type { ServerObservation } from './observation'
import type { JudgeContext } from './types'

const server = (ip: string): ServerObservation => ({ ip, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', headers: [], receivedAt: 0 })
const byId = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c]))
const verdicts = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c.verdict]))

const noZone = { ok: false as const, ms: 0, error: { kind: 'unsupported' as const, message: NO_ZONE_MESSAGE } }
const chromeConnection = { ok: true as const, ms: 0, value: { type: null, effectiveType: '4g', rtt: 100, downlink: 1.55, saveData: false } }
const navigation = { ok: true as const, ms: 0, value: { hostIsIp: false, dnsMs: 12.3, connectMs: 20, tlsMs: 11, protocol: 'h2' } }
const NONCE = '3f9a0c1b2d4e5f60'
const lookups = {
  ok: true as const,
  ms: 180,
  value: {
    zone: 'probe.example.net',
    nonce: NONCE,
    names: [1, 2, 3, 4].map((n) => ({ name: `${NONCE}-${n}.probe.example.net`, via: n <= 2 ? ('img' as const) : ('fetch' as const), outcome: 'error' as const, ms: 40 + n })),
  },
}
const today: Signals = { lookups: noZone, connection: chromeConnection, navigation }

describe('dns-leak judge without the DNS listener (today)', () => {
  test('Chrome: only the Network Information check applies; every resolver check is na and says why', () => {
    const { checks, sections } = judgeDns(today, server('81.2.69.160'))
    expect(verdicts(checks)).toEqual({
      'dns-lookups-sent': 'na',
      'network-information': 'pass',
      'resolver-seen': 'na',
      'resolver-network': 'na',
      'ecs-subnet': 'na',
      'qname-0x20': 'na',
      'doh-provider': 'na',
    })
    expect(summarize(checks)).toEqual({ total: 1, passed: 1, failed: 0, warnings: 0, score: 100 })
    const c = byId(checks)
    expect(c['dns-lookups-sent']!.observed).toBe('unsupported: no DNS zone configured (DNS_ZONE)')
    expect(c['dns-lookups-sent']!.expected).toContain('DNS_ZONE')
    expect(c['resolver-network']!.expected).toContain('IP→country/ASN database')
    expect(c['resolver-network']!.observed).toBe('no DNS evidence yet; client address 81.2.69.160 (public)')
    expect(c['doh-provider']!.expected).toMatch(/^a page cannot see whether its browser uses DNS over HTTPS/)
    for (const id of ['resolver-seen', 'resolver-network', 'ecs-subnet', 'qname-0x20', 'doh-provider']) expect(c[id]!.expected).toContain('DNS_ZONE')
    expect(sections.verdict).toBe('The DNS leak test itself did not run: no DNS zone is configured (DNS_ZONE) and the service has no DNS listener yet, so no resolver could be observed. The score covers only the 1 check the page could make on its own.')
    expect(sections.pending.map((p) => p.needs)).toEqual([expect.stringContaining('authoritative DNS server'), 'the offline IP→country/ASN database', expect.stringContaining('DNS_ZONE')])
    expect(sections.dns).toMatchObject({ zone: null, nonce: null, clientAddress: '81.2.69.160', clientScope: 'public', resolvers: [], dohDetectableByPage: false, page: { hostIsIp: false, dnsMs: 12.3, protocol: 'h2' } })
  })

  test('Firefox/Safari (no navigator.connection): nothing applies, the score is 100 of 0 checks and the verdict says so', () => {
    const { checks, sections } = judgeDns({ ...today, connection: { ok: false, ms: 0, error: { kind: 'unsupported', message: 'no navigator.connection' } } }, server('81.2.69.160'))
    expect(summarize(checks)).toEqual({ total: 0, passed: 0, failed: 0, warnings: 0, score: 100 })
    expect(sections.verdict).toContain('covers only the 0 checks')
  })

  test('a spoofed navigator.connection warns', () => {
    const spoofed = { ok: true as const, ms: 0, value: { type: 'wifi', effectiveType: '4g', rtt: 1234, downlink: 7.777, saveData: false } }
    const { checks } = judgeDns({ ...today, connection: spoofed }, server('81.2.69.160'))
    const c = byId(checks)['network-information']!
    expect(c.verdict).toBe('warn')
    expect(c.observed).toEqual(['rtt 1234 is not rounded to 50 ms within 0–3000', 'downlink 7.777 is not rounded to 25 kbit/s within 0–10 Mbit/s', 'effectiveType 4g with rtt 1234 ms'])
    expect(summarize(checks).score).toBe(97)
  })

  test('Chromium values at the limits pass: rtt 0 (no estimate), downlink 10, slow-2g with a long rtt', () => {
    for (const value of [
      { type: null, effectiveType: '4g', rtt: 0, downlink: 10, saveData: false },
      { type: 'cellular', effectiveType: 'slow-2g', rtt: 2100, downlink: 0.05, saveData: true },
      { type: null, effectiveType: '3g', rtt: 300, downlink: 0.7, saveData: false },
    ]) {
      expect(byId(judgeDns({ ...today, connection: { ok: true, ms: 0, value } }, server('81.2.69.160')).checks)['network-information']!.verdict).toBe('pass')
    }
  })

  test('with a zone the lookups are reported, and the resolver checks still wait for the listener', () => {
    const { checks, sections } = judgeDns({ ...today, lookups }, server('81.2.69.160'))
    const c = byId(checks)
    expect(c['dns-lookups-sent']!.verdict).toBe('pass')
    expect(c['dns-lookups-sent']!.points).toBe(0)
    expect(c['resolver-seen']!.verdict).toBe('na')
    expect(sections.dns.nonce).toBe(NONCE)
    expect(sections.pending).toHaveLength(2)
    expect(sections.verdict).toMatch(/^The DNS leak test itself did not run: the service has no DNS listener/)
  })

  test('a loopback client address is labelled as such', () => {
    const { checks, sections } = judgeDns(today, server('127.0.0.1'))
    expect(byId(checks)['resolver-network']!.observed).toBe('no DNS evidence yet; client address 127.0.0.1 (loopback)')
    expect(sections.dns.clientScope).toBe('loopback')
  })
})

describe('dns-leak judge with DNS evidence (issue 7)', () => {
  const signals: Signals = { ...today, lookups }
  const q = (n: number, resolver: string, extra: Partial<DnsEvidence['queries'][number]> = {}) => ({ name: `${NONCE}-${n}.probe.example.net`, qtype: 'A', resolver, ecs: null, ...extra })
  const client = '81.2.69.160'
  const networks = {
    [client]: { country: 'GB', asn: 20712, org: 'Andrews & Arnold' },
    '81.2.69.10': { country: 'GB', asn: 20712, org: 'Andrews & Arnold' },
    '93.184.216.34': { country: 'DE', asn: 3320, org: 'Deutsche Telekom' },
    '172.69.1.2': { country: 'GB', asn: 13335, org: 'Cloudflare' },
    '62.3.4.5': { country: 'GB', asn: 5089, org: 'Virgin Media' },
  }

  test('the ISP resolver of the client’s own network: no leak', () => {
    const { checks, sections } = judgeDns(signals, server(client), { queries: [q(1, '81.2.69.10'), q(2, '81.2.69.10')], networks })
    const v = verdicts(checks)
    expect(v['resolver-seen']).toBe('pass')
    expect(v['resolver-network']).toBe('pass')
    expect(v['ecs-subnet']).toBe('pass')
    expect(v['qname-0x20']).toBe('warn')
    expect(v['doh-provider']).toBe('warn')
    expect(sections.verdict).toMatch(/^No DNS leak seen/)
    expect(sections.pending).toEqual([])
    expect(sections.dns.resolvers).toEqual([{ address: '81.2.69.10', provider: null, country: 'GB', asn: 20712, org: 'Andrews & Arnold', queries: 2, types: ['A'], clientSubnets: [], caseRandomised: false }])
  })

  test('behind a VPN, a resolver in another country is the DNS leak', () => {
    const { checks, sections } = judgeDns(signals, server(client), { queries: [q(1, '93.184.216.34')], networks })
    const c = byId(checks)['resolver-network']!
    expect(c.verdict).toBe('fail')
    expect(c.observed).toEqual(['93.184.216.34: other country (DE, HTTP address in GB)'])
    expect(sections.verdict).toMatch(/^DNS leak/)
  })

  test('another network in the same country only warns', () => {
    expect(byId(judgeDns(signals, server(client), { queries: [q(1, '62.3.4.5')], networks }).checks)['resolver-network']!.verdict).toBe('warn')
  })

  test('Cloudflare’s egress (by ASN) is a known public DoH resolver, not a leak', () => {
    const { checks, sections } = judgeDns(signals, server(client), { queries: [q(1, '172.69.1.2', { name: `${NONCE}-1.PrObE.example.NET` })], networks })
    const c = byId(checks)
    expect(c['resolver-network']!.verdict).toBe('pass')
    expect(c['doh-provider']!.verdict).toBe('pass')
    expect(c['doh-provider']!.observed).toEqual(['172.69.1.2: Cloudflare 1.1.1.1 (by asn)'])
    expect(c['qname-0x20']!.verdict).toBe('pass')
    expect(sections.dns.resolvers[0]!.provider).toBe('Cloudflare 1.1.1.1')
  })

  test('an EDNS Client Subnet of another network fails; the client’s own /24 passes', () => {
    const other = judgeDns(signals, server(client), { queries: [q(1, '172.69.1.2', { ecs: '93.184.216.0/24' })], networks })
    expect(byId(other.checks)['ecs-subnet']!.verdict).toBe('fail')
    expect(other.sections.verdict).toMatch(/^DNS leak/)
    const own = judgeDns(signals, server(client), { queries: [q(1, '172.69.1.2', { ecs: '81.2.69.0/24' })], networks })
    expect(byId(own.checks)['ecs-subnet']!.verdict).toBe('pass')
    const v6 = judgeDns(signals, server(client), { queries: [q(1, '172.69.1.2', { ecs: '2a01:e0a:1::/56' })], networks })
    expect(byId(v6.checks)['ecs-subnet']!.verdict).toBe('warn')
    const optOut = judgeDns(signals, server(client), { queries: [q(1, '172.69.1.2', { ecs: '0.0.0.0/0' })], networks })
    expect(byId(optOut.checks)['ecs-subnet']!.observed).toBe('no EDNS Client Subnet sent')
  })

  test('no query reached the DNS server: warn, and the rest do not apply', () => {
    const { checks, sections } = judgeDns(signals, server(client), { queries: [], networks })
    const v = verdicts(checks)
    expect(v['resolver-seen']).toBe('warn')
    expect(v['resolver-network']).toBe('na')
    expect(v['doh-provider']).toBe('na')
    expect(sections.verdict).toMatch(/^No resolver looked up this page's names/)
  })

  test('the queries count whatever nonce the page claims: the server filed them under the page nonce', () => {
    const claimed = { ...lookups, value: { ...lookups.value, nonce: 'somethingelse0000' } }
    const { checks } = judgeDns({ ...signals, lookups: claimed }, server(client), { queries: [q(1, '93.184.216.34')], networks })
    expect(byId(checks)['resolver-network']!.verdict).toBe('fail')
  })

  test('without the IP database, resolver networks are na but service addresses are still labelled', () => {
    const { checks } = judgeDns(signals, server(client), { queries: [q(1, '8.8.8.8')] })
    const c = byId(checks)
    expect(c['resolver-network']!.verdict).toBe('na')
    expect(c['resolver-network']!.expected).toContain('IP→country/ASN database')
    expect(c['doh-provider']!.verdict).toBe('pass')
    const unknown = byId(judgeDns(signals, server(client), { queries: [q(1, '81.2.69.10')] }).checks)
    expect(unknown['doh-provider']!.verdict).toBe('na')
  })

  test('a local client address cannot be compared with resolver networks', () => {
    const { checks } = judgeDns(signals, server('192.168.1.20'), { queries: [q(1, '81.2.69.10')], networks })
    expect(byId(checks)['resolver-network']!.expected).toContain('is not public')
  })
})

describe('dns-leak evidence from the DNS listener (dnsEvidenceOf, the registered judge)', () => {
  const signals: Signals = { ...today, lookups }
  const item = (data: unknown) => ({ kind: 'dns', data, observedAt: '2025-03-01T12:00:00+00:00' })
  const stored = (n: number, resolver: string, name = `${NONCE}-${n}.probe.example.net`) => ({ name, label: n, qtype: 'A', resolver, resolverPort: 40000 + n, transport: 'udp', mixedCase: false, rd: false, edns: null, ecs: null, receivedAt: '2025-03-01T12:00:00.000Z' })
  const lookupIp: JudgeContext['lookupIp'] = (ip) =>
    ip === '81.2.69.160'
      ? { ok: true, info: { ip, version: 4, country: 'GB', asn: 20712, org: 'Andrews & Arnold', hosting: false, hostingReason: null } }
      : ip === '93.184.216.34'
        ? { ok: true, info: { ip, version: 4, country: 'DE', asn: 3320, org: 'Deutsche Telekom', hosting: false, hostingReason: null } }
        : { ok: false, reason: 'unlisted', scope: 'public' }

  test('the listener’s queries and the IP database make the resolver checks real', () => {
    const obs = { ...server('81.2.69.160'), nonce: 'valid' as const, evidence: [item(stored(1, '93.184.216.34')), item(stored(2, '93.184.216.34', `${NONCE.toUpperCase()}-2.probe.example.net`)), item({ junk: true }), { kind: 'tls', data: {}, observedAt: '' }] }
    expect(dnsLeak.judge(signals, obs, { lookupIp }).checks).toEqual(judgeDns(signals, obs, dnsEvidenceOf(signals, obs, { lookupIp })).checks)
    const { checks, sections } = judgeDns(signals, obs, dnsEvidenceOf(signals, obs, { lookupIp }))
    const c = byId(checks)
    expect(c['resolver-seen']!.observed).toBe('2 queries from 93.184.216.34')
    expect(c['resolver-network']!.verdict).toBe('fail')
    expect(c['qname-0x20']!.observed).toBe('1 of 2 queries with randomised case')
    expect(sections.pending).toEqual([])
    expect(sections.dns.resolvers).toEqual([{ address: '93.184.216.34', provider: null, country: 'DE', asn: 3320, org: 'Deutsche Telekom', queries: 2, types: ['A'], clientSubnets: [], caseRandomised: true }])
    expect([...TypeCompiler.Compile(DnsLeakSections).Errors(sections)]).toEqual([])
  })

  test('without the IP database the resolvers are still listed, and the database is pending', () => {
    const obs = { ...server('81.2.69.160'), nonce: 'valid' as const, evidence: [item(stored(1, '93.184.216.34'))] }
    const { checks, sections } = judgeDns(signals, obs, dnsEvidenceOf(signals, obs))
    expect(byId(checks)['resolver-seen']!.verdict).toBe('pass')
    expect(byId(checks)['resolver-network']!.verdict).toBe('na')
    expect(sections.pending.map((p) => p.needs)).toEqual(['the offline IP→country/ASN database'])
  })

  test('no zone and no evidence: the listener is off, as before', () => {
    expect(dnsEvidenceOf(today, { ...server('81.2.69.160'), evidence: [] })).toBeNull()
  })

  test('lookups made but no query filed: resolver-seen warns', () => {
    const { checks } = dnsLeak.judge(signals, { ...server('81.2.69.160'), nonce: 'valid', evidence: [] }, { lookupIp })
    expect(byId(checks)['resolver-seen']!.verdict).toBe('warn')
  })

  test('a submission without a live nonce cannot be tied to any query: na, and says why', () => {
    const { checks } = dnsLeak.judge(signals, { ...server('81.2.69.160'), nonce: 'missing', evidence: [] }, { lookupIp })
    expect(byId(checks)['resolver-seen']).toMatchObject({ verdict: 'na', observed: 'page nonce missing' })
  })
})

describe('dns-leak schemas', () => {
  const signalsCheck = TypeCompiler.Compile(DnsLeakSignals)
  const sectionsCheck = TypeCompiler.Compile(DnsLeakSections)

  test('today’s and tomorrow’s sections match the published schema', () => {
    expect([...sectionsCheck.Errors(dnsLeak.judge(today, server('81.2.69.160')).sections)]).toEqual([])
    const withEvidence = judgeDns({ ...today, lookups }, server('81.2.69.160'), { queries: [{ name: `${NONCE}-1.probe.example.net`, qtype: 'A', resolver: '8.8.8.8', ecs: null }] })
    expect([...sectionsCheck.Errors(withEvidence.sections)]).toEqual([])
  })

  test('a nonce outside [0-9a-z]{8,32} or more than 16 names is refused', () => {
    expect(signalsCheck.Check({ ...today, lookups })).toBe(true)
    expect(signalsCheck.Check({ ...today, lookups: { ...lookups, value: { ...lookups.value, nonce: 'NOT A NONCE' } } })).toBe(false)
    const many = Array.from({ length: 17 }, () => lookups.value.names[0])
    expect(signalsCheck.Check({ ...today, lookups: { ...lookups, value: { ...lookups.value, names: many } } })).toBe(false)
  })
})

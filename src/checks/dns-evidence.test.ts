import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { dnsLeak, DnsLeakSections } from '../core/tools/dns-leak'
import { server, judgeDns, byId, NONCE, today, signals } from '../core/tools/dns-leak.fixture'
import type { JudgeContext } from './define'
import { dnsEvidenceOf } from './dns-evidence'

describe('dns-leak evidence from the DNS listener (dnsEvidenceOf, the registered judge)', () => {
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

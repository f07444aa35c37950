import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { DnsLeakSignals } from '../../../common/signals/dns-leak'
import { summarize } from '../scoring'
import { dnsLeak, DnsLeakSections } from './dns-leak'
import { server, judgeDns, byId, verdicts, NONCE, lookups, today, } from './dns-leak.fixture'

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

// The resolver checks through the dns-leak tool, with what the DNS listener filed under the page nonce.
import { describe, expect, test } from 'bun:test'
import { server, judgeDns, byId, verdicts, NONCE, lookups, signals, q, client, networks } from '../core/tools/dns-leak.fixture'

describe('dns-leak judge with DNS evidence (issue 7)', () => {
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

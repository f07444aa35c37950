// dns-leak: which resolvers look up names for this browser. The test proper is server-side:
// the page loads `<nonce>-<n>.<zone>` names that exist nowhere else, the service's
// authoritative DNS server for the zone logs which resolvers asked for them (address, EDNS
// client subnet, query-name case), and the checks compare those resolvers with the HTTP
// address: a resolver in another country or network than a VPN's exit is the DNS leak.
//
// That server is src/listeners/dns.ts; the names carry the page nonce and it files each query
// under that nonce (evidence kind 'dns', src/evidence/dns-authority.ts), so what the checks
// read (src/checks/dns-evidence.ts) is tied to this task by the server, whatever the page
// reports. Without DNS_ZONE the page has no names to look up: its lookup signal is
// `unsupported` ("no DNS zone configured (DNS_ZONE)"), every resolver check is `na` and says
// what is missing, and the score counts only what the page can see (the Network Information
// values). Countries and networks come from the offline IP database (ctx.lookupIp) when the
// service has loaded it.
// A page cannot detect DNS-over-HTTPS: no API exposes how the browser resolves names. Only
// the resolver the DNS server sees can say it (src/core/doh-providers.ts).

import { Type } from '@sinclair/typebox'
import { Bool, Nullable, Num } from '../../../common/shorthands'
import { signalValue } from '../../../common/signal'
import { DnsLeakSignals } from '../../../common/signals/dns-leak'
import { dnsEvidenceOf, LISTENER_MISSING, type DnsEvidence, type DnsQuery } from '../../checks/dns-evidence'
import { dnsLookupsSent, noZone } from '../../checks/dns-lookups-sent'
import { networkInformation } from '../../checks/netinfo-rounding'
import { dohProvider, resolverNetwork, resolverSeen } from '../../checks/resolver-network'
import { ecsSubnet, qname0x20 } from '../../checks/resolver-queries'
import { labelResolver } from '../doh-providers'
import { normalizeIp } from '../ip'
import { ipScope } from '../ip-scope'
import type { Check } from '../scoring'
import { defineTool } from './types'

export const DnsLeakSections = Type.Object({
  dns: Type.Object({
    zone: Nullable(Type.String()),
    nonce: Nullable(Type.String()),
    names: Type.Array(Type.Object({ name: Type.String(), via: Type.String(), outcome: Type.String(), ms: Num })),
    clientAddress: Type.String(),
    clientScope: Nullable(Type.String()),
    clientNetwork: Type.Optional(Nullable(Type.Object({ country: Nullable(Type.String()), asn: Nullable(Num), org: Nullable(Type.String()) }, { description: "The client address's country and network (AS), which the resolvers are compared with; null without the IP database or the DNS evidence." }))),
    resolvers: Type.Array(
      Type.Object({
        address: Type.String({ description: 'Source address of the queries at the service\'s DNS server: the resolver\'s egress.' }),
        provider: Nullable(Type.String({ description: 'Known DoH/DoT provider, by service address or by ASN.' })),
        country: Nullable(Type.String()),
        asn: Nullable(Num),
        org: Nullable(Type.String()),
        queries: Num,
        types: Type.Array(Type.String(), { description: 'Query types asked (A, AAAA, HTTPS…).' }),
        clientSubnets: Type.Array(Type.String(), { description: 'EDNS Client Subnet prefixes the resolver sent.' }),
        caseRandomised: Type.Boolean({ description: 'Whether any query name came in mixed case (0x20).' }),
      }),
    ),
    dohDetectableByPage: Type.Boolean({ description: 'Always false: no browser API reveals DNS-over-HTTPS; only the resolver seen by the DNS server can suggest it.' }),
    connection: Nullable(Type.Object({ type: Nullable(Type.String()), effectiveType: Nullable(Type.String()), rtt: Nullable(Num), downlink: Nullable(Num), saveData: Nullable(Bool) })),
    page: Nullable(Type.Object({ hostIsIp: Bool, dnsMs: Nullable(Num), protocol: Nullable(Type.String()) })),
  }),
  pending: Type.Array(Type.Object({ evidence: Type.String(), needs: Type.String() }), { description: 'Server-side evidence this task lacks, and what would provide it.' }),
  verdict: Type.String(),
})

/** One row per resolver address: what it asked and what the database says of it. */
function resolverRows(dns: DnsEvidence) {
  const by = new Map<string, DnsQuery[]>()
  for (const q of dns.queries) {
    const ip = normalizeIp(q.resolver)
    by.set(ip, [...(by.get(ip) ?? []), q])
  }
  return [...by].map(([ip, qs]) => {
    const n = dns.networks?.[ip]
    return {
      address: ip,
      provider: labelResolver(ip, n?.asn ?? null)?.provider.name ?? null,
      country: n?.country ?? null,
      asn: n?.asn ?? null,
      org: n?.org ?? null,
      queries: qs.length,
      types: [...new Set(qs.map((q) => q.qtype))],
      clientSubnets: [...new Set(qs.map((q) => q.ecs).filter((e): e is string => e !== null))],
      caseRandomised: qs.some((q) => q.name !== q.name.toLowerCase()),
    }
  })
}

function verdictText(dns: DnsEvidence | null, checks: Check[], zoneMissing: boolean): string {
  const failed = (id: string) => checks.some((c) => c.id === id && c.verdict === 'fail')
  if (!dns) {
    const applicable = checks.filter((c) => c.verdict !== 'na').length
    return `The DNS leak test itself did not run: ${zoneMissing ? 'no DNS zone is configured (DNS_ZONE) and ' : ''}the service has no DNS listener yet, so no resolver could be observed. The score covers only the ${applicable} check${applicable === 1 ? '' : 's'} the page could make on its own.`
  }
  if (!dns.queries.length) return 'No resolver looked up this page\'s names at the service\'s DNS server: the lookups were blocked, answered elsewhere (a filtering resolver, a blocker), or did not arrive before the page submitted.'
  return failed(resolverNetwork.id) || failed(ecsSubnet.id)
    ? 'DNS leak: a resolver or its client subnet reveals a network other than the one this page was loaded from.'
    : 'No DNS leak seen: the resolvers that looked up this page\'s names match the HTTP address or are public resolvers.'
}

export const dnsLeak = defineTool({
  id: 'dns-leak',
  signals: DnsLeakSignals,
  sections: DnsLeakSections,
  checks: [
    [dnsLookupsSent, 0],
    [networkInformation, 6],
    [resolverSeen, 10],
    [resolverNetwork, 40],
    [ecsSubnet, 30],
    [qname0x20, 2],
    [dohProvider, 4],
  ],
  addSections(s, { checks }, server, ctx) {
    const dns = dnsEvidenceOf(s, server, ctx)
    const lookups = signalValue(s.lookups)
    const nav = signalValue(s.navigation)
    const clientIp = normalizeIp(server.ip)
    const zoneMissing = noZone(s)
    const ipDatabase = { evidence: 'country and network (ASN) of each resolver and of the client address', needs: 'the offline IP→country/ASN database' }
    const pending = dns ? (dns.networks ? [] : [ipDatabase]) : [
      { evidence: 'resolvers that looked up this page\'s names, with their EDNS Client Subnet and query-name case', needs: LISTENER_MISSING },
      ipDatabase,
      ...(zoneMissing ? [{ evidence: 'lookups from this browser', needs: 'a DNS zone for the page to look up names in (DNS_ZONE)' }] : []),
    ]
    return {
      dns: {
        zone: lookups?.zone ?? null,
        nonce: lookups?.nonce ?? null,
        names: lookups?.names ?? [],
        clientAddress: clientIp,
        clientScope: ipScope(clientIp),
        clientNetwork: dns?.networks?.[clientIp] ?? null,
        resolvers: dns ? resolverRows(dns) : [],
        dohDetectableByPage: false,
        connection: signalValue(s.connection) ?? null,
        page: nav ? { hostIsIp: nav.hostIsIp, dnsMs: nav.dnsMs, protocol: nav.protocol } : null,
      },
      pending,
      verdict: verdictText(dns, checks, zoneMissing),
    }
  },
  // The resolvers the service's DNS server saw are this tool's evidence: without the listener
  // (or its zone) no resolver can be observed, whatever the page does.
  untested(sections) {
    const d = sections.dns as { zone: string | null }
    const pending = sections.pending as Array<{ needs: string }>
    if (!pending.some((p) => p.needs === LISTENER_MISSING)) return null
    return { reason: d.zone ? "no resolver could be observed: the service's DNS listener filed nothing for this page" : 'no resolver could be observed: this service has no DNS zone configured (DNS_ZONE), so its DNS listener is off', url: null }
  },
})

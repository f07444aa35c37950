// dns-leak: which resolvers look up names for this browser. The test proper is server-side:
// the page loads `<nonce>-<n>.<zone>` names that exist nowhere else, the service's
// authoritative DNS server for the zone logs which resolvers asked for them (address, EDNS
// client subnet, query-name case), and the judge compares those resolvers with the HTTP
// address: a resolver in another country or network than a VPN's exit is the DNS leak.
//
// That server is src/listeners/dns.ts; the names carry the page nonce and it files each query
// under that nonce (evidence kind 'dns', src/evidence/dns-authority.ts), so what the judge
// reads is tied to this task by the server, whatever the page reports. Without DNS_ZONE the
// page has no names to look up: its lookup signal is `unsupported` ("no DNS zone configured
// (DNS_ZONE)"), every resolver check is `na` and says what is missing, and the score counts
// only what the page can see (the Network Information values). Countries and networks come
// from the offline IP database (ctx.lookupIp) when the service has loaded it.
// A page cannot detect DNS-over-HTTPS: no API exposes how the browser resolves names. Only
// the resolver the DNS server sees can say it (see doh-providers.ts).

import { NO_ZONE_MESSAGE } from '../../../common/signals/shared'
import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { check, type Check, type CheckDef } from '../scoring'
import { labelResolver } from '../doh-providers'
import { cidrContains, normalizeIp, parseCidr, parseIp } from '../ip'
import { ipScope } from '../ip-scope'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { evidenceOf, type ServerObservation } from './observation'
import { legacyTool, type JudgeContext } from './types'

const Num = Type.Number()
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])


export const DnsLeakSignals = Type.Object({
  lookups: Signal(
    Type.Object({
      zone: Type.String({ maxLength: 200 }),
      /** The label prefix: the page nonce, under which the DNS server files the queries. */
      nonce: Type.String({ pattern: '^[0-9a-z]{8,32}$' }),
      names: Type.Array(
        Type.Object({
          name: Type.String({ maxLength: 253 }),
          via: Type.Union([Type.Literal('img'), Type.Literal('fetch')]),
          /** The load itself fails for a name with no web server; the lookup is what counts. */
          outcome: Type.Union([Type.Literal('load'), Type.Literal('error'), Type.Literal('timeout')]),
          ms: Num,
        }),
        { maxItems: 16 },
      ),
    }),
  ),
  /** navigator.connection (Network Information API, Chromium only). */
  connection: Signal(
    Type.Object({
      type: Nullable(Type.String({ maxLength: 32 })),
      effectiveType: Nullable(Type.String({ maxLength: 32 })),
      rtt: Nullable(Num),
      downlink: Nullable(Num),
      saveData: Nullable(Type.Boolean()),
    }),
  ),
  /** Navigation timing of this page: how its own host name was resolved. */
  navigation: Signal(
    Type.Object({
      hostIsIp: Type.Boolean(),
      dnsMs: Nullable(Num),
      connectMs: Nullable(Num),
      tlsMs: Nullable(Num),
      protocol: Nullable(Type.String({ maxLength: 32 })),
    }),
  ),
})
export type DnsLeakSignals = Static<typeof DnsLeakSignals>

/**
 * One query as the service's authoritative DNS server logged it: the fields of
 * DnsQueryEvidence (src/evidence/dns-authority.ts) the judge reads.
 */
export interface DnsQuery {
  /** The name exactly as received: case preserved, for the 0x20 check. */
  name: string
  qtype: string
  /** Source address of the query: the recursive resolver's egress address. */
  resolver: string
  /** EDNS Client Subnet option (RFC 7871), e.g. `81.2.69.0/24`, or null. */
  ecs: string | null
}

/** The listener's evidence items that have the shape of a query (stored JSON is not trusted blindly). */
export function dnsQueriesOf(items: unknown[]): DnsQuery[] {
  const out: DnsQuery[] = []
  for (const d of items) {
    if (!d || typeof d !== 'object') continue
    const q = d as Record<string, unknown>
    if (typeof q.name !== 'string' || typeof q.resolver !== 'string' || typeof q.qtype !== 'string') continue
    out.push({ name: q.name, qtype: q.qtype, resolver: q.resolver, ecs: typeof q.ecs === 'string' ? q.ecs : null })
  }
  return out
}

/**
 * What the judge gets from the server: the queries filed under this page's nonce, and the
 * offline database's answers for each resolver and the client when it is loaded. null when
 * there is nothing to judge with: no query and no lookups made (no zone, so no listener).
 */
export function dnsEvidenceOf(s: DnsLeakSignals, server: ServerObservation, ctx?: JudgeContext): DnsEvidence | null {
  const queries = dnsQueriesOf(evidenceOf(server, 'dns'))
  if (!queries.length && !valueOf(s.lookups)) return null
  const lookupIp = ctx?.lookupIp
  if (!lookupIp) return { queries }
  const networks: Record<string, NetworkInfo> = {}
  for (const ip of new Set([normalizeIp(server.ip), ...queries.map((q) => normalizeIp(q.resolver))])) {
    const r = lookupIp(ip)
    if (r.ok) networks[ip] = { country: r.info.country, asn: r.info.asn, org: r.info.org }
  }
  return { queries, networks }
}
export interface NetworkInfo {
  country: string | null
  asn: number | null
  org: string | null
}
/** What the DNS listener saw for this task's nonce, with offline-database answers when available. */
export interface DnsEvidence {
  queries: DnsQuery[]
  /** Country/ASN by address (resolvers and the client); absent until the IP database exists. */
  networks?: Record<string, NetworkInfo>
}

const LISTENER_MISSING = "the service's authoritative DNS server for its zone (DNS_ZONE), which logs the resolvers that look up this page's random names"

const DEFS = {
  lookups: { id: 'dns-lookups-sent', name: 'The page triggered its DNS lookups', source: 'client', weight: 0, why: 'The page loads random names under the service\'s zone with an <img> and a no-cors fetch; each load makes the browser resolve the name through whatever resolver it uses (OS, DoH, VPN). The loads themselves fail (nothing serves these names); the lookups are what the DNS server logs. Informational: it carries no weight.' },
  netinfo: { id: 'network-information', name: 'Network Information values are consistent', source: 'client', weight: 6, why: 'Chromium rounds navigator.connection.rtt to 50 ms (at most 3000) and downlink to 50 kbit/s (25 in older releases; at most 10 Mbit/s), and derives effectiveType from the same estimates, so 4g comes with a short rtt. Other values were written by a script or an extension. DevTools network throttling can produce odd combinations, so it only warns.' },
  seen: { id: 'resolver-seen', name: 'A resolver looked up the names', source: 'server', weight: 10, why: 'The random names exist nowhere else, so a query for them at the service\'s DNS server comes from a resolver working for this browser. No query at all means the lookups were blocked or answered elsewhere (a filtering resolver, a blocker).' },
  network: { id: 'resolver-network', name: 'Resolvers are in the network or country of the HTTP address', source: 'server', weight: 40, why: 'The DNS leak: behind a VPN or proxy, names should be resolved by the VPN\'s resolver or a public one; a resolver of another network in another country (typically the ISP\'s) reveals the real location and every site visited. Known public resolvers (Cloudflare, Google, Quad9…) pass. ISPs that run resolvers under a sister network are the false positive of the same-country case, which only warns.' },
  ecs: { id: 'ecs-subnet', name: 'EDNS Client Subnet does not reveal another network', source: 'server', weight: 30, why: 'Resolvers that send EDNS Client Subnet (RFC 7871) pass a prefix of the client\'s address to authoritative servers. A prefix that does not contain the HTTP address reveals the network behind the VPN or proxy. A prefix of the other IP family can be a dual-stack network, so that only warns.' },
  case0x20: { id: 'qname-0x20', name: 'Resolver randomises query-name case (0x20)', source: 'server', weight: 2, why: 'The page asks for lower-case names; a resolver that varies the letter case (draft-vixie-dnsext-dns0x20) makes forged answers harder to inject. Many ISP resolvers do not, so it weighs almost nothing: a note on resolver quality, not a leak.' },
  doh: { id: 'doh-provider', name: 'Encrypted DNS (DoH/DoT) provider', source: 'server', weight: 4, why: 'A page cannot see whether its browser uses DNS over HTTPS. A resolver in the network of a known DoH/DoT provider (Cloudflare, Google, Quad9, NextDNS, AdGuard, OpenDNS, Mullvad, Control D) means encrypted DNS or at least a public resolver is likely; otherwise lookups probably travel unencrypted to the ISP. Self-hosted and ISP resolvers with DoT are the false positives.' },
} as const satisfies Record<string, CheckDef>

type Connection = Extract<DnsLeakSignals['connection'], { ok: true }>['value']

/**
 * Chromium reports rtt × a per-host factor (0.9–1.1) rounded to 50 ms, at most 3000, and
 * downlink rounded to 50 kbit/s (25 in older releases), at most 10 Mbit/s; effectiveType comes
 * from the same estimates. third_party/blink/renderer/platform/network/network_state_notifier.cc
 */
function netinfoProblems(c: Connection): string[] {
  const p: string[] = []
  if (c.rtt !== null && (c.rtt < 0 || c.rtt > 3000 || c.rtt % 50 !== 0)) p.push(`rtt ${c.rtt} is not rounded to 50 ms within 0–3000`)
  if (c.downlink !== null) {
    const kbps = c.downlink * 1000
    if (c.downlink < 0 || c.downlink > 10 || Math.abs(kbps - Math.round(kbps / 25) * 25) > 1e-6) p.push(`downlink ${c.downlink} is not rounded to 25 kbit/s within 0–10 Mbit/s`)
  }
  if (c.effectiveType !== null && !['slow-2g', '2g', '3g', '4g'].includes(c.effectiveType)) p.push(`effectiveType '${c.effectiveType}' is not one of slow-2g, 2g, 3g, 4g`)
  if (c.rtt && c.effectiveType === '4g' && c.rtt > 1000) p.push(`effectiveType 4g with rtt ${c.rtt} ms`)
  if (c.rtt && (c.effectiveType === '2g' || c.effectiveType === 'slow-2g') && c.rtt < 270) p.push(`effectiveType ${c.effectiveType} with rtt ${c.rtt} ms`)
  return p
}

function evidenceChecks(evidence: DnsEvidence | null, s: DnsLeakSignals, clientIp: string, nonceState: ServerObservation['nonce']): Check[] {
  const lookups = valueOf(s.lookups)
  const clientScope = ipScope(clientIp)
  const client = `client address ${clientIp}${clientScope ? ` (${clientScope})` : ''}`
  const defs = [DEFS.seen, DEFS.network, DEFS.ecs, DEFS.case0x20, DEFS.doh]
  if (!evidence) {
    const missing: Record<string, string> = {
      [DEFS.seen.id]: `needs ${LISTENER_MISSING}`,
      [DEFS.network.id]: `needs ${LISTENER_MISSING}, and the offline IP→country/ASN database to compare each resolver with the ${client}`,
      [DEFS.ecs.id]: `needs ${LISTENER_MISSING}: it reads the EDNS Client Subnet option of each query and compares it with the ${client}`,
      [DEFS.case0x20.id]: `needs ${LISTENER_MISSING}: it compares the case of the query names with the lower-case names the page asked for`,
      [DEFS.doh.id]: `a page cannot see whether its browser uses DNS over HTTPS; needs ${LISTENER_MISSING}, whose resolver addresses are then matched against the known DoH providers`,
    }
    return defs.map((d) => check(d, { verdict: 'na', observed: `no DNS evidence yet; ${client}`, expected: missing[d.id]! }))
  }
  // The DNS server files queries under the nonce it reads in the name, and only for a live
  // nonce: every query here is this page's, whatever nonce the page says it used.
  const queries = evidence.queries
  if (!queries.length && nonceState !== undefined && nonceState !== 'valid' && nonceState !== 'used') {
    return defs.map((d) => check(d, { verdict: 'na', observed: `page nonce ${nonceState}`, expected: 'a submission with the page\'s live nonce (<body data-nonce>): the DNS server files the resolvers it sees under it' }))
  }
  if (!queries.length && !lookups) {
    return defs.map((d) => check(d, { verdict: 'na', observed: null, expected: `the page made no lookups (${whyMissing(s.lookups)})` }))
  }
  const resolvers = [...new Set(queries.map((q) => normalizeIp(q.resolver)))]
  const nets = evidence.networks
  const label = (ip: string) => labelResolver(ip, nets?.[ip]?.asn ?? null)
  const out: Check[] = []

  out.push(check(DEFS.seen, queries.length
    ? { verdict: 'pass', observed: `${queries.length} quer${queries.length === 1 ? 'y' : 'ies'} from ${resolvers.join(', ')}`, expected: 'at least one query for the page\'s names' }
    : { verdict: 'warn', observed: `none of ${lookups?.names.length ?? 0} names reached the DNS server`, expected: 'at least one query for the page\'s names' }))

  const clientNet = nets?.[clientIp]
  if (!queries.length) out.push(check(DEFS.network, { verdict: 'na', observed: null, expected: 'no resolver was seen' }))
  else if (!clientNet || clientScope !== 'public') {
    out.push(check(DEFS.network, { verdict: 'na', observed: resolvers, expected: clientScope !== 'public' ? `the ${client} is not public: there is no network to compare with` : `needs the offline IP→country/ASN database to compare each resolver with the ${client}` }))
  } else {
    const rows = resolvers.map((ip) => {
      const n = nets?.[ip]
      const l = label(ip)
      if (n?.asn != null && n.asn === clientNet.asn) return { ip, verdict: 'pass' as const, why: 'same network as the HTTP address' }
      if (l) return { ip, verdict: 'pass' as const, why: `public resolver (${l.provider.name})` }
      if (!n || !n.country || !clientNet.country) return { ip, verdict: 'warn' as const, why: 'network unknown' }
      if (n.country !== clientNet.country) return { ip, verdict: 'fail' as const, why: `other country (${n.country}, HTTP address in ${clientNet.country})` }
      return { ip, verdict: 'warn' as const, why: `other network (AS${n.asn ?? '?'}) in the same country` }
    })
    const verdict = rows.some((r) => r.verdict === 'fail') ? 'fail' : rows.some((r) => r.verdict === 'warn') ? 'warn' : 'pass'
    out.push(check(DEFS.network, { verdict, observed: rows.map((r) => `${r.ip}: ${r.why}`), expected: `resolvers of AS${clientNet.asn ?? '?'} (${clientNet.country ?? '?'}) or known public resolvers` }))
  }

  const subnets = [...new Set(queries.map((q) => q.ecs).filter((e): e is string => !!e && !/\/0$/.test(e)))]
  const clientBytes = parseIp(clientIp)
  if (!queries.length) out.push(check(DEFS.ecs, { verdict: 'na', observed: null, expected: 'no resolver was seen' }))
  else if (!subnets.length) out.push(check(DEFS.ecs, { verdict: 'pass', observed: 'no EDNS Client Subnet sent', expected: 'no subnet, or one containing the HTTP address' }))
  else if (!clientBytes) out.push(check(DEFS.ecs, { verdict: 'na', observed: subnets, expected: `the ${client} cannot be compared` }))
  else {
    const rows = subnets.map((e) => {
      const c = parseCidr(e)
      if (!c) return { e, v: 'warn' as const }
      if (c.bytes.length !== clientBytes.length) return { e, v: 'warn' as const }
      return { e, v: cidrContains(c, clientBytes) ? ('pass' as const) : ('fail' as const) }
    })
    const verdict = rows.some((r) => r.v === 'fail') ? 'fail' : rows.some((r) => r.v === 'warn') ? 'warn' : 'pass'
    out.push(check(DEFS.ecs, { verdict, observed: rows.map((r) => `${r.e}: ${r.v === 'pass' ? 'contains the HTTP address' : r.v === 'fail' ? 'another network' : 'other address family or malformed'}`), expected: `subnets containing ${clientIp}` }))
  }

  if (!queries.length) out.push(check(DEFS.case0x20, { verdict: 'na', observed: null, expected: 'no resolver was seen' }))
  else {
    const mixed = queries.filter((q) => q.name !== q.name.toLowerCase()).length
    out.push(check(DEFS.case0x20, { verdict: mixed ? 'pass' : 'warn', observed: `${mixed} of ${queries.length} queries with randomised case`, expected: 'randomised letter case' }))
  }

  if (!queries.length) out.push(check(DEFS.doh, { verdict: 'na', observed: null, expected: 'no resolver was seen' }))
  else {
    const labelled = resolvers.map((ip) => [ip, label(ip)] as const)
    const known = labelled.filter(([, l]) => l)
    if (known.length) out.push(check(DEFS.doh, { verdict: 'pass', observed: known.map(([ip, l]) => `${ip}: ${l!.provider.name} (by ${l!.by})`), expected: 'a resolver of a known DoH/DoT provider' }))
    else if (!nets) out.push(check(DEFS.doh, { verdict: 'na', observed: resolvers, expected: 'needs the IP→ASN database: providers query from their own networks, not from the addresses users configure' }))
    else out.push(check(DEFS.doh, { verdict: 'warn', observed: resolvers.map((ip) => `${ip}: not a known DoH/DoT provider`), expected: 'a resolver of a known DoH/DoT provider' }))
  }
  return out
}

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

/** Judges the page's signals with what the server saw; `dns` is the DNS listener's evidence (dnsEvidenceOf). */
export function judgeDns(s: DnsLeakSignals, server: ServerObservation, dns: DnsEvidence | null = null) {
  const checks: Check[] = []
  const lookups = valueOf(s.lookups)
  const conn = valueOf(s.connection)
  const nav = valueOf(s.navigation)
  const clientIp = normalizeIp(server.ip)
  const noZone = !s.lookups.ok && s.lookups.error.message === NO_ZONE_MESSAGE

  if (lookups) {
    const settled = lookups.names.filter((n) => n.outcome !== 'timeout').length
    checks.push(check(DEFS.lookups, { verdict: lookups.names.length ? 'pass' : 'warn', observed: `${lookups.names.length} names under ${lookups.zone} requested (${settled} settled, ${lookups.names.length - settled} still pending at the time limit)`, expected: 'every name requested' }))
  } else {
    checks.push(check(DEFS.lookups, { verdict: 'na', observed: whyMissing(s.lookups), expected: noZone ? 'a DNS zone served by the service (DNS_ZONE): without one the page has no names to look up' : 'lookups made by the page' }))
  }

  if (conn) {
    const problems = netinfoProblems(conn)
    checks.push(check(DEFS.netinfo, { verdict: problems.length ? 'warn' : 'pass', observed: problems.length ? problems : `effectiveType ${conn.effectiveType ?? '—'}, rtt ${conn.rtt ?? '—'} ms, downlink ${conn.downlink ?? '—'} Mbit/s${conn.type ? `, type ${conn.type}` : ''}`, expected: 'values rounded as Chromium rounds them, effectiveType matching rtt' }))
  } else checks.push(check(DEFS.netinfo, { verdict: 'na', observed: whyMissing(s.connection), expected: 'navigator.connection (only Chromium-based browsers implement it)' }))

  checks.push(...evidenceChecks(dns, s, clientIp, server.nonce))

  const ipDatabase = { evidence: 'country and network (ASN) of each resolver and of the client address', needs: 'the offline IP→country/ASN database' }
  const pending = dns ? (dns.networks ? [] : [ipDatabase]) : [
    { evidence: 'resolvers that looked up this page\'s names, with their EDNS Client Subnet and query-name case', needs: LISTENER_MISSING },
    ipDatabase,
    ...(noZone ? [{ evidence: 'lookups from this browser', needs: 'a DNS zone for the page to look up names in (DNS_ZONE)' }] : []),
  ]
  const applicable = checks.filter((c) => c.verdict !== 'na').length
  const verdict = dns
    ? !dns.queries.length
      ? 'No resolver looked up this page\'s names at the service\'s DNS server: the lookups were blocked, answered elsewhere (a filtering resolver, a blocker), or did not arrive before the page submitted.'
      : checks.some((c) => c.id === DEFS.network.id && c.verdict === 'fail') || checks.some((c) => c.id === DEFS.ecs.id && c.verdict === 'fail')
      ? 'DNS leak: a resolver or its client subnet reveals a network other than the one this page was loaded from.'
      : 'No DNS leak seen: the resolvers that looked up this page\'s names match the HTTP address or are public resolvers.'
    : `The DNS leak test itself did not run: ${noZone ? 'no DNS zone is configured (DNS_ZONE) and ' : ''}the service has no DNS listener yet, so no resolver could be observed. The score covers only the ${applicable} check${applicable === 1 ? '' : 's'} the page could make on its own.`

  return {
    checks,
    sections: {
      dns: {
        zone: lookups?.zone ?? null,
        nonce: lookups?.nonce ?? null,
        names: lookups?.names ?? [],
        clientAddress: clientIp,
        clientScope: ipScope(clientIp),
        resolvers: dns ? resolverRows(dns) : [],
        dohDetectableByPage: false,
        connection: conn ?? null,
        page: nav ? { hostIsIp: nav.hostIsIp, dnsMs: nav.dnsMs, protocol: nav.protocol } : null,
      },
      pending,
      verdict,
    },
  }
}

export const DnsLeakSections = Type.Object({
  dns: Type.Object({
    zone: Nullable(Type.String()),
    nonce: Nullable(Type.String()),
    names: Type.Array(Type.Object({ name: Type.String(), via: Type.String(), outcome: Type.String(), ms: Num })),
    clientAddress: Type.String(),
    clientScope: Nullable(Type.String()),
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
    connection: Nullable(Type.Object({ type: Nullable(Type.String()), effectiveType: Nullable(Type.String()), rtt: Nullable(Num), downlink: Nullable(Num), saveData: Nullable(Type.Boolean()) })),
    page: Nullable(Type.Object({ hostIsIp: Type.Boolean(), dnsMs: Nullable(Num), protocol: Nullable(Type.String()) })),
  }),
  pending: Type.Array(Type.Object({ evidence: Type.String(), needs: Type.String() }), { description: 'Server-side evidence this task lacks, and what would provide it.' }),
  verdict: Type.String(),
})

export const dnsLeak = legacyTool({
  id: 'dns-leak',
  signals: DnsLeakSignals,
  sections: DnsLeakSections,
  judge: (s: DnsLeakSignals, server: ServerObservation, ctx?: JudgeContext) => judgeDns(s, server, dnsEvidenceOf(s, server, ctx)),
})

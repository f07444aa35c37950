// The DNS leak proper: which resolvers looked up this page's random names at the service's
// DNS server (./dns-evidence.ts), and whether they belong to the network or country of the
// HTTP address or to a known public (DoH/DoT) provider (src/core/doh-providers.ts).

import type { SignalResult } from '../../common/signal'
import type { DnsLookups } from '../../common/signals/dns-leak'
import { labelResolver } from '../core/doh-providers'
import { ipScope } from '../core/ip-scope'
import { checkOn, na } from './define'
import { LISTENER_MISSING, NO_RESOLVER, resolverEvidence, resolversOf, type DnsEvidence } from './dns-evidence'

/** The signal these checks read: the page's lookups in the service's zone (dns-leak and vpn-detector make them). */
export interface LookupSignals {
  lookups: SignalResult<DnsLookups>
}

const dnsCheck = checkOn<LookupSignals>()

const label = (ip: string, evidence: DnsEvidence) => labelResolver(ip, evidence.networks?.[ip]?.asn ?? null)

type Net = { country: string | null; asn: number | null } | undefined

/**
 * One resolver against the HTTP address's network: the same AS or a known public resolver
 * passes, another country fails (the leak), another network in the same country or one the
 * database cannot place warns. Also marks the resolvers on dns-leak's picture.
 */
export function resolverVerdict(n: Net, provider: string | null, clientNet: NonNullable<Net>): { verdict: 'pass' | 'warn' | 'fail'; why: string } {
  if (n?.asn != null && n.asn === clientNet.asn) return { verdict: 'pass', why: 'same network as the HTTP address' }
  if (provider) return { verdict: 'pass', why: `public resolver (${provider})` }
  if (!n?.country || !clientNet.country) return { verdict: 'warn', why: 'network unknown' }
  if (n.country !== clientNet.country) return { verdict: 'fail', why: `other country (${n.country}, HTTP address in ${clientNet.country})` }
  return { verdict: 'warn', why: `other network (AS${n.asn ?? '?'}) in the same country` }
}

export const resolverSeen = dnsCheck({
  id: 'resolver-seen',
  name: 'A resolver looked up the names',
  found: 'no resolver looked up the names',
  source: 'server',
  why: 'The random names exist nowhere else, so a query for them at the service\'s DNS server comes from a resolver working for this browser. No query at all means the lookups were blocked or answered elsewhere (a filtering resolver, a blocker).',
  needs: [],
  uses: ['lookups'],
  judge: ({ lookups }, { raw, server, ctx }) => {
    const r = resolverEvidence(raw, server, ctx, () => `needs ${LISTENER_MISSING}`)
    if (!r.ok) return r.outcome
    const { queries } = r.evidence
    const expected = 'at least one query for the page\'s names'
    return queries.length
      ? { verdict: 'pass', observed: `${queries.length} quer${queries.length === 1 ? 'y' : 'ies'} from ${resolversOf(queries).join(', ')}`, expected }
      : { verdict: 'warn', observed: `none of ${lookups?.names.length ?? 0} names reached the DNS server`, expected }
  },
})

export const resolverNetwork = dnsCheck({
  id: 'resolver-network',
  name: 'Resolvers are in the network or country of the HTTP address',
  found: 'a resolver is outside the network or country of the HTTP address',
  source: 'server',
  why: 'The DNS leak: behind a VPN or proxy, names should be resolved by the VPN\'s resolver or a public one; a resolver of another network in another country (typically the ISP\'s) reveals the real location and every site visited. Known public resolvers (Cloudflare, Google, Quad9…) pass. ISPs that run resolvers under a sister network are the false positive of the same-country case, which only warns.',
  needs: [],
  uses: ['lookups'],
  judge: (_, { raw, server, ctx }) => {
    const r = resolverEvidence(raw, server, ctx, (client) => `needs ${LISTENER_MISSING}, and the offline IP→country/ASN database to compare each resolver with the ${client}`)
    if (!r.ok) return r.outcome
    const { evidence, clientIp, client } = r
    if (!evidence.queries.length) return na(NO_RESOLVER)
    const resolvers = resolversOf(evidence.queries)
    const nets = evidence.networks
    const clientNet = nets?.[clientIp]
    if (!clientNet || ipScope(clientIp) !== 'public') {
      return { ...na(ipScope(clientIp) !== 'public' ? `the ${client} is not public: there is no network to compare with` : `needs the offline IP→country/ASN database to compare each resolver with the ${client}`), observed: resolvers }
    }
    const rows = resolvers.map((ip) => ({ ip, ...resolverVerdict(nets?.[ip], label(ip, evidence)?.provider.name ?? null, clientNet) }))
    const verdict = rows.some((x) => x.verdict === 'fail') ? 'fail' : rows.some((x) => x.verdict === 'warn') ? 'warn' : 'pass'
    return { verdict, observed: rows.map((x) => `${x.ip}: ${x.why}`), expected: `resolvers of AS${clientNet.asn ?? '?'} (${clientNet.country ?? '?'}) or known public resolvers` }
  },
})

export const dohProvider = dnsCheck({
  id: 'doh-provider',
  name: 'Encrypted DNS (DoH/DoT) provider',
  found: 'the resolver is not a known encrypted DNS (DoH/DoT) provider',
  source: 'server',
  why: 'A page cannot see whether its browser uses DNS over HTTPS. A resolver in the network of a known DoH/DoT provider (Cloudflare, Google, Quad9, NextDNS, AdGuard, OpenDNS, Mullvad, Control D) means encrypted DNS or at least a public resolver is likely; otherwise lookups probably travel unencrypted to the ISP. Self-hosted and ISP resolvers with DoT are the false positives.',
  needs: [],
  uses: ['lookups'],
  judge: (_, { raw, server, ctx }) => {
    const r = resolverEvidence(raw, server, ctx, () => `a page cannot see whether its browser uses DNS over HTTPS; needs ${LISTENER_MISSING}, whose resolver addresses are then matched against the known DoH providers`)
    if (!r.ok) return r.outcome
    const { evidence } = r
    if (!evidence.queries.length) return na(NO_RESOLVER)
    const resolvers = resolversOf(evidence.queries)
    const known = resolvers.map((ip) => [ip, label(ip, evidence)] as const).filter(([, l]) => l)
    if (known.length) return { verdict: 'pass', observed: known.map(([ip, l]) => `${ip}: ${l!.provider.name} (by ${l!.by})`), expected: 'a resolver of a known DoH/DoT provider' }
    if (!evidence.networks) return { ...na('needs the IP→ASN database: providers query from their own networks, not from the addresses users configure'), observed: resolvers }
    return { verdict: 'warn', observed: resolvers.map((ip) => `${ip}: not a known DoH/DoT provider`), expected: 'a resolver of a known DoH/DoT provider' }
  },
})

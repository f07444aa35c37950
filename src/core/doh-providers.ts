// Public resolvers that offer encrypted DNS (DoH/DoT), to label the resolvers the service's
// authoritative DNS server sees (issue 7). A page cannot tell whether its browser uses DoH:
// no API exposes the resolver. What the service can tell is *who* asked for the page's
// random names, and a resolver of one of these providers means DoH/DoT or at least a public
// resolver instead of the ISP's.
//
// Two ways to match, because an authoritative server does not see the address users type:
// - `serviceAddresses`: the anycast addresses users configure (1.1.1.1, 8.8.8.8…). They
//   match a configured resolver (e.g. a client that reports it) and the few providers whose
//   egress shares those prefixes (NextDNS).
// - `asns`: the networks the providers' recursive resolvers query authoritative servers
//   from. Cloudflare's egress is not 1.1.1.1 but other addresses in AS13335; Google's is in
//   AS15169. The AS of a resolver comes from the offline IP database (src/evidence/ipdb.ts,
//   ctx.lookupIp: dns-leak and the consistency section pass it to labelResolver). Only the
//   ASNs of the four largest providers are listed: the AS of a provider's service address is
//   not proof of where its resolvers query from, so the others stay empty until an egress
//   address seen by the DNS listener confirms one.
// Sources: each provider's setup page (linked per entry).

import { cidrContains, parseCidr, parseIp, type Cidr } from './ip'

export interface DohProvider {
  id: string
  name: string
  /** DNS-over-HTTPS endpoint (for the report). */
  doh: string
  /** Addresses or prefixes users configure, IPv4 and IPv6. */
  serviceAddresses: readonly string[]
  /** Autonomous systems the provider's resolvers query from. */
  asns: readonly number[]
}

export const DOH_PROVIDERS: readonly DohProvider[] = [
  {
    // https://developers.cloudflare.com/1.1.1.1/ip-addresses/
    id: 'cloudflare',
    name: 'Cloudflare 1.1.1.1',
    doh: 'https://cloudflare-dns.com/dns-query',
    serviceAddresses: [
      '1.1.1.1', '1.0.0.1', '1.1.1.2', '1.0.0.2', '1.1.1.3', '1.0.0.3',
      '2606:4700:4700::1111', '2606:4700:4700::1001', '2606:4700:4700::1112', '2606:4700:4700::1002', '2606:4700:4700::1113', '2606:4700:4700::1003',
    ],
    asns: [13335],
  },
  {
    // https://developers.google.com/speed/public-dns/docs/using
    id: 'google',
    name: 'Google Public DNS',
    doh: 'https://dns.google/dns-query',
    serviceAddresses: ['8.8.8.8', '8.8.4.4', '2001:4860:4860::8888', '2001:4860:4860::8844'],
    asns: [15169],
  },
  {
    // https://quad9.net/service/service-addresses-and-features
    id: 'quad9',
    name: 'Quad9',
    doh: 'https://dns.quad9.net/dns-query',
    serviceAddresses: [
      '9.9.9.9', '149.112.112.112', '9.9.9.10', '149.112.112.10', '9.9.9.11', '149.112.112.11',
      '2620:fe::fe', '2620:fe::9', '2620:fe::10', '2620:fe::fe:10', '2620:fe::11', '2620:fe::fe:11',
    ],
    asns: [19281],
  },
  {
    // https://www.opendns.com/setupguide/
    id: 'opendns',
    name: 'OpenDNS (Cisco Umbrella)',
    doh: 'https://doh.opendns.com/dns-query',
    serviceAddresses: ['208.67.222.222', '208.67.220.220', '208.67.222.123', '208.67.220.123', '2620:119:35::35', '2620:119:53::53', '2620:0:ccc::2', '2620:0:ccd::2'],
    asns: [36692],
  },
  {
    // https://adguard-dns.io/kb/general/dns-providers/
    id: 'adguard',
    name: 'AdGuard DNS',
    doh: 'https://dns.adguard-dns.com/dns-query',
    serviceAddresses: [
      '94.140.14.14', '94.140.15.15', '94.140.14.15', '94.140.15.16', '94.140.14.140', '94.140.14.141',
      '2a10:50c0::ad1:ff', '2a10:50c0::ad2:ff', '2a10:50c0::bad1:ff', '2a10:50c0::bad2:ff', '2a10:50c0::1:ff', '2a10:50c0::2:ff',
      '176.103.130.130', '176.103.130.131', // before 2020
    ],
    asns: [], // egress AS not confirmed yet (see the header)
  },
  {
    // https://nextdns.io: per-configuration addresses inside these prefixes.
    id: 'nextdns',
    name: 'NextDNS',
    doh: 'https://dns.nextdns.io',
    serviceAddresses: ['45.90.28.0/24', '45.90.30.0/24', '2a07:a8c0::/32', '2a07:a8c1::/32'],
    asns: [], // egress AS not confirmed yet (see the header)
  },
  {
    // https://mullvad.net/help/dns-over-https-and-dns-over-tls
    id: 'mullvad',
    name: 'Mullvad DNS',
    doh: 'https://dns.mullvad.net/dns-query',
    serviceAddresses: ['194.242.2.2', '194.242.2.3', '194.242.2.4', '194.242.2.5', '194.242.2.6', '194.242.2.9', '2a07:e340::2'],
    asns: [],
  },
  {
    // https://controld.com/free-dns
    id: 'controld',
    name: 'Control D',
    doh: 'https://freedns.controld.com/p0',
    serviceAddresses: ['76.76.2.0/24', '76.76.10.0/24', '2606:1a40::/48', '2606:1a40:1::/48'],
    asns: [],
  },
]

let prefixes: Array<readonly [Cidr, DohProvider]> | undefined
function compiled(): Array<readonly [Cidr, DohProvider]> {
  prefixes ??= DOH_PROVIDERS.flatMap((p) => p.serviceAddresses.map((a) => [parseCidr(a)!, p] as const))
  return prefixes
}

/** The provider whose service address (or prefix) this is, else null. */
export function dohProviderByAddress(address: string): DohProvider | null {
  const ip = parseIp(address)
  if (!ip) return null
  return compiled().find(([c]) => cidrContains(c, ip))?.[1] ?? null
}

/** The provider operating this autonomous system, else null. */
export function dohProviderByAsn(asn: number | null | undefined): DohProvider | null {
  if (asn === null || asn === undefined) return null
  return DOH_PROVIDERS.find((p) => p.asns.includes(asn)) ?? null
}

export interface ResolverLabel {
  provider: DohProvider
  /** How it was recognised: by its service address, or by the network it queries from. */
  by: 'address' | 'asn'
}

/** Labels a resolver address seen by the DNS listener, with its ASN when the IP database knows it. */
export function labelResolver(address: string, asn?: number | null): ResolverLabel | null {
  const byAddress = dohProviderByAddress(address)
  if (byAddress) return { provider: byAddress, by: 'address' }
  const byAsn = dohProviderByAsn(asn)
  return byAsn ? { provider: byAsn, by: 'asn' } : null
}

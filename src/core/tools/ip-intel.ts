// What the offline IP database (src/evidence/ipdb.ts, loaded at start-up and handed to the
// judges as ctx.lookupIp) says about an address, in the forms the network tools judge and
// publish: country, AS, organisation and the kind of network, and whether a time zone or a
// language list fits the country. Pure: the lookup comes in with the JudgeContext; without it
// (tests, or a service still loading the data) every answer says the database is missing.

import type { IpInfo } from '../../evidence/ipdb-core'
import type { NetworkKind } from '../../evidence/ipdb-hosting'
import { normalizeIp } from '../ip'
import { ipScope, sameNetwork } from '../ip-scope'
import type { Verdict } from '../scoring'
import { isUtcZone, languageRegion, zoneFitsRegions } from '../../../common/tz-offset'
import type { ToolId } from '../../../common/tools'
import type { JudgeContext } from '../../checks/define'

/** Tools whose results use the IP database: their pages show its data credits. */
export const IP_DATA_TOOLS: ReadonlySet<ToolId> = new Set<ToolId>(['bot-detector', 'ip-leak', 'timezone-geo', 'dns-leak', 'vpn-detector'])

export const IP_DATABASE_MISSING =
  'needs the offline IP database (country, AS, organisation, hosting/VPN/Tor networks), which this service has not loaded: it loads at start-up (see the service log)'

/** One address as the database sees it. */
export type AddressIntel =
  | { status: 'found'; info: IpInfo }
  /** No lookup in the context: the database is not loaded. */
  | { status: 'no-database' }
  /** Not a public unicast address (loopback, private, CGNAT…) or not an address: no table can place it. */
  | { status: 'not-public'; scope: string | null }
  /** Public, but in no range of the tables (unallocated or unrouted space). */
  | { status: 'unlisted' }

export function intelOf(ctx: JudgeContext | undefined, ip: string): AddressIntel {
  // Loopback and private addresses have no place in any database: say that, loaded or not.
  const scope = ipScope(ip)
  if (scope !== 'public') return { status: 'not-public', scope }
  if (!ctx?.lookupIp) return { status: 'no-database' }
  const r = ctx.lookupIp(ip)
  if (r.ok) return { status: 'found', info: r.info }
  return r.reason === 'unlisted' ? { status: 'unlisted' } : { status: 'not-public', scope: r.scope }
}

/** "US, AS15169 Google LLC (cloud: Google)". */
export function networkText(info: IpInfo): string {
  const as = info.asn !== null ? `AS${info.asn}${info.org ? ` ${info.org}` : ''}` : 'no AS'
  const kind = info.hostingReason
    ? ` (${info.hostingReason.kind}: ${info.hostingReason.label}${info.hostingReason.source === 'org-name-heuristic' ? ', by the organisation name' : ''})`
    : ''
  return `${info.country ?? 'no country'}, ${as}${kind}`
}

/** Why there is nothing to compare, for an `expected` text; null when the address was found. */
export function whyNoIntel(intel: AddressIntel, ip: string): string | null {
  switch (intel.status) {
    case 'found':
      return null
    case 'no-database':
      return IP_DATABASE_MISSING
    case 'not-public':
      return `a public address: ${ip} is ${intel.scope ? `a ${intel.scope} address` : 'not an IP address'}, which no database can place`
    case 'unlisted':
      return `an address the database places: ${ip} is in no range of its tables (unallocated or unrouted space)`
  }
}

/** The `lookup` object of the ip-leak and vpn-detector sections. */
export interface LookupSection {
  status: AddressIntel['status']
  country: string | null
  asn: number | null
  organization: string | null
  /** On a server network of any kind (cloud, hosting, CDN, VPN or Tor operator). */
  datacenter: boolean | null
  vpn: boolean | null
  tor: boolean | null
  network: NetworkKind | null
  /** How the network kind was decided: a curated AS list, or a word in the organisation name. */
  networkSource: 'known-asn' | 'org-name-heuristic' | null
  provider: string | null
}

export function lookupSection(intel: AddressIntel): LookupSection {
  if (intel.status !== 'found') {
    return { status: intel.status, country: null, asn: null, organization: null, datacenter: null, vpn: null, tor: null, network: null, networkSource: null, provider: null }
  }
  const { info } = intel
  const reason = info.hostingReason
  return {
    status: 'found',
    country: info.country,
    asn: info.asn,
    organization: info.org,
    datacenter: info.hosting,
    vpn: reason?.kind === 'vpn',
    tor: reason?.kind === 'tor',
    network: reason?.kind ?? null,
    networkSource: reason?.source ?? null,
    provider: reason?.label ?? null,
  }
}

/** Verdicts per kind of server network; `heuristic` applies to any kind guessed from the name. */
export type HostingPolicy = Record<NetworkKind | 'heuristic', Exclude<Verdict, 'na'>>

/** pass for a home or mobile line, else the policy's verdict for the network's kind. */
export function hostingVerdict(info: IpInfo, policy: HostingPolicy): Exclude<Verdict, 'na'> {
  const r = info.hostingReason
  if (!r) return 'pass'
  return r.source === 'org-name-heuristic' ? policy.heuristic : policy[r.kind]
}

/** Addresses as a WebRTC or STUN comparison needs them: each with its network, and whether it is the HTTP address's. */
export interface ComparedAddress {
  address: string
  /** Same address, same IPv6 /64, or the same AS as the HTTP address. */
  sameAsHttp: boolean
  network: string | null
  country: string | null
  asn: number | null
}

/**
 * Public addresses compared with the HTTP address: the same address or /64, or (with the
 * database) the same AS, is the same network, e.g. a dual-stack line's IPv6 next to its IPv4.
 */
export function compareWithHttp(ctx: JudgeContext | undefined, addresses: readonly string[], httpIp: string): ComparedAddress[] {
  const http = intelOf(ctx, httpIp)
  const httpAsn = http.status === 'found' ? http.info.asn : null
  return addresses.map((a) => {
    const intel = intelOf(ctx, a)
    const info = intel.status === 'found' ? intel.info : null
    const sameAsHttp = sameNetwork(a, httpIp) || (httpAsn !== null && info?.asn === httpAsn)
    return { address: normalizeIp(a), sameAsHttp, network: info ? networkText(info) : null, country: info?.country ?? null, asn: info?.asn ?? null }
  })
}

/** Does `zone` belong to `country`, or share its January and July offsets with one of its zones? Null for UTC zones, which belong to no country. */
export function zoneFitsCountry(zone: string, country: string, year: number): boolean | null {
  if (isUtcZone(zone)) return null
  return zoneFitsRegions(zone, [country], year)
}

const base = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase()

/** The likely language of a country (CLDR likely subtags through Intl.Locale): AT → de. */
export function likelyLanguage(country: string): string | null {
  try {
    const lang = new Intl.Locale(`und-${country}`).maximize().language
    return lang && lang !== 'und' ? lang : null
  } catch {
    return null
  }
}

/**
 * Whether the languages fit the country: one names it (de-AT), is its likely language (de for
 * AT), or is likely spoken there (fr → FR). English is used everywhere: it can fit (en-GB in
 * GB) but never contradicts, so `null` when only English languages are listed and none fits.
 */
export function languagesFitCountry(languages: readonly string[], country: string): boolean | null {
  const likely = likelyLanguage(country)
  if (languages.some((l) => languageRegion(l) === country || base(l) === likely)) return true
  return languages.some((l) => base(l) !== 'en') ? false : null
}

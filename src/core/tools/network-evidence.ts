// Evidence about the client's network that ip-leak and vpn-detector both judge (and the
// consistency section compares): the addresses WebRTC revealed to the page (parsed with
// src/core/ice.ts, as webrtc-leak does) and a label for the HTTP address; what the offline IP
// database says of them is in ip-intel.ts.

import { Type } from '@sinclair/typebox'
import type { IceGathering } from '../../../common/signals/webrtc-leak'
import { parseCandidate, parseSdp, type AddressKind } from '../ice'
import { normalizeIp } from '../ip'
import { ipScope, LOCAL_SCOPES, sameNetwork, type IpScope } from '../ip-scope'

export interface RevealedByWebrtc {
  /** Every distinct candidate address (IP or name) with its kind and candidate types. */
  addresses: Array<{ address: string; kind: AddressKind; types: string[] }>
  candidates: number
  /** Host candidates, and how many of them hide their address behind an mDNS name. */
  hosts: number
  mdnsHosts: number
}

/** Addresses in the ICE candidates (events and SDP) and the SDP's connection lines. */
export function webrtcAddresses(ice: IceGathering): RevealedByWebrtc {
  const byAddress = new Map<string, { kind: AddressKind; types: Set<string> }>()
  const seen = new Set<string>()
  let hosts = 0
  let mdnsHosts = 0
  const add = (address: string, kind: AddressKind, type: string) => {
    if (kind === 'unspecified') return
    const e = byAddress.get(address) ?? { kind, types: new Set<string>() }
    e.types.add(type)
    byAddress.set(address, e)
  }
  const sdp = parseSdp(ice.sdp)
  for (const c of [...ice.candidates.map(parseCandidate), ...sdp.candidates]) {
    if (!c) continue
    const key = `${c.transport} ${c.address} ${c.port} ${c.type}`
    if (seen.has(key)) continue
    seen.add(key)
    if (c.type === 'host') {
      hosts++
      if (c.kind === 'mdns') mdnsHosts++
    }
    add(c.address, c.kind, c.type)
    if (c.relatedAddress && c.relatedKind) add(c.relatedAddress, c.relatedKind, `${c.type} raddr`)
  }
  for (const a of sdp.connectionAddresses) {
    const scope = ipScope(a)
    if (scope) add(normalizeIp(a), scope, 'sdp c=')
  }
  return { addresses: [...byAddress].map(([address, e]) => ({ address, kind: e.kind, types: [...e.types] })), candidates: seen.size, hosts, mdnsHosts }
}

/** "3 candidate(s), 2 of 2 host candidate(s) behind mDNS names". */
export function gatheredText(r: RevealedByWebrtc): string {
  return `${r.candidates} candidate(s), ${r.mdnsHosts} of ${r.hosts} host candidate(s) behind mDNS names`
}

/** Raw local-network addresses (private, CGNAT, link-local…) among them. */
export function localAddresses(r: RevealedByWebrtc): string[] {
  return r.addresses.filter((a) => (LOCAL_SCOPES as readonly string[]).includes(a.kind)).map((a) => `${a.address} (${a.kind})`)
}

/** Public addresses, split into those of the HTTP address's network and the others. */
export function publicAddresses(r: RevealedByWebrtc, httpIp: string): { same: string[]; other: string[] } {
  const pub = r.addresses.filter((a) => a.kind === 'public').map((a) => a.address)
  return { same: pub.filter((a) => sameNetwork(a, httpIp)), other: pub.filter((a) => !sameNetwork(a, httpIp)) }
}

/** What the offline IP database says about an address (ip-intel.ts lookupSection). */
export const IpLookupSchema = Type.Object({
  status: Type.Union(['found', 'no-database', 'not-public', 'unlisted'].map((s) => Type.Literal(s)), {
    description: '`found`; `no-database` when the service has not loaded it; `not-public` for loopback, private and similar addresses; `unlisted` for public space in no range of the tables.',
  }),
  country: Type.Union([Type.String(), Type.Null()], { description: 'ISO 3166-1 alpha-2.' }),
  asn: Type.Union([Type.Integer(), Type.Null()]),
  organization: Type.Union([Type.String(), Type.Null()]),
  datacenter: Type.Union([Type.Boolean(), Type.Null()], { description: 'On a server network of any kind: cloud, hosting, CDN, VPN or Tor operator.' }),
  vpn: Type.Union([Type.Boolean(), Type.Null()]),
  tor: Type.Union([Type.Boolean(), Type.Null()]),
  network: Type.Union([Type.String(), Type.Null()], { description: 'cloud, hosting, cdn, vpn or tor; null for a home or mobile line.' }),
  networkSource: Type.Union([Type.Literal('known-asn'), Type.Literal('org-name-heuristic'), Type.Null()]),
  provider: Type.Union([Type.String(), Type.Null()]),
})

/** A human label for an address: "203.0.113.9 (public, IPv4)". */
export function describeAddress(ip: string): { scope: IpScope | null; family: 4 | 6 | null; text: string } {
  const scope = ipScope(ip)
  const family = scope === null ? null : normalizeIp(ip).includes(':') ? 6 : 4
  return { scope, family, text: scope ? `${normalizeIp(ip)} (${scope}, IPv${family})` : `${ip} (not an IP address)` }
}

// What kind of address an IP is: reachable on the Internet (`public`) or only meaningful inside
// a network (private, CGNAT, link-local, loopback…). The leak tools need it to tell "WebRTC
// revealed your LAN address" (a privacy warning) from "WebRTC revealed a second public address"
// (the VPN leak), and the DNS and VPN tools to know whether the address the server saw can be
// compared with anything at all. Ranges: IANA special-purpose registries (RFC 6890) for IPv4
// https://www.iana.org/assignments/iana-ipv4-special-registry and IPv6
// https://www.iana.org/assignments/iana-ipv6-special-registry.

import { cidrContains, parseCidr, parseIp, type Cidr } from './ip'

export const IP_SCOPES = ['public', 'private', 'cgnat', 'link-local', 'loopback', 'unspecified', 'multicast', 'documentation', 'reserved'] as const
export type IpScope = (typeof IP_SCOPES)[number]

/** Scopes that only make sense inside one network: exposing them tells a page about the LAN. */
export const LOCAL_SCOPES: readonly IpScope[] = ['private', 'cgnat', 'link-local', 'documentation', 'reserved']

// First match wins, so more specific ranges come before the ranges that contain them.
const RANGES: ReadonlyArray<readonly [string, IpScope]> = [
  ['0.0.0.0/32', 'unspecified'],
  ['0.0.0.0/8', 'reserved'], // "this network"
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'], // RFC 6598 shared address space (carrier-grade NAT)
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'documentation'], // TEST-NET-1
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'documentation'], // TEST-NET-2
  ['203.0.113.0/24', 'documentation'], // TEST-NET-3
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // includes 255.255.255.255
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'private'], // local-use NAT64 (RFC 8215)
  ['100::/64', 'reserved'], // discard-only
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'], // RFC 9637
  ['fc00::/7', 'private'], // unique local addresses
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'private'], // deprecated site-local
  ['ff00::/8', 'multicast'],
]

let compiled: Array<readonly [Cidr, IpScope]> | undefined
function ranges(): Array<readonly [Cidr, IpScope]> {
  compiled ??= RANGES.map(([c, s]) => [parseCidr(c)!, s] as const)
  return compiled
}

const NAT64 = parseCidr('64:ff9b::/96')!
const SIX_TO_FOUR = parseCidr('2002::/16')!
const GLOBAL_UNICAST = parseCidr('2000::/3')!

function scopeOfBytes(ip: Uint8Array): IpScope {
  for (const [cidr, scope] of ranges()) if (cidrContains(cidr, ip)) return scope
  if (ip.length === 4) return 'public'
  // Well-known NAT64 and 6to4 carry an IPv4 address: the scope is that address's.
  if (cidrContains(NAT64, ip)) return scopeOfBytes(ip.slice(12))
  if (cidrContains(SIX_TO_FOUR, ip)) return scopeOfBytes(ip.slice(2, 6))
  return cidrContains(GLOBAL_UNICAST, ip) ? 'public' : 'reserved'
}

/** The scope of an address (IPv4-mapped IPv6 counts as IPv4), or null when it is not an IP. */
export function ipScope(address: string): IpScope | null {
  const bytes = parseIp(address)
  return bytes ? scopeOfBytes(bytes) : null
}

/**
 * Whether two addresses belong to the same network as far as a leak test can tell: equal, or
 * both IPv6 in the same /64 (a host rotates temporary addresses inside its /64, RFC 8981, so
 * a WebRTC address in the HTTP address's /64 reveals nothing new).
 */
export function sameNetwork(a: string, b: string): boolean {
  const x = parseIp(a)
  const y = parseIp(b)
  if (!x || !y || x.length !== y.length) return false
  const n = x.length === 4 ? 4 : 8
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return false
  return true
}

// Proxy headers on a request, and the addresses they reveal. A browser never sends Via,
// Forwarded or X-Forwarded-For itself: they are added by proxies on the way (and forged by
// scripts that hope a server trusts them). The service's own reverse proxy adds them too, so
// the client address the service resolved (TRUSTED_PROXIES, src/core/ip.ts) separates its
// hops from what arrived at it: X-Forwarded-For entries right of the client address are the
// service's trusted hops, entries left of it came from the client's side.

import { normalizeIp, parseIp, stripAddress } from './ip'
import { ipScope, type IpScope } from './ip-scope'
import { PROXY_HEADERS, type ServerObservation } from './tools/observation'

export interface RevealedAddress {
  header: string
  address: string
  scope: IpScope
}

export interface ProxyEvidence {
  /** Every proxy header present, as sent. */
  headers: Array<[string, string]>
  /** Addresses named in those headers other than the client's own. */
  foreign: RevealedAddress[]
  /**
   * X-Forwarded-For contains the client address the service resolved, so a trusted proxy of
   * the service added it: the presence of proxy headers alone then says nothing.
   */
  viaServiceProxy: boolean
}

const ADDRESS_LIST_HEADERS = new Set(['x-forwarded-for', 'x-real-ip', 'true-client-ip', 'client-ip', 'cf-connecting-ip', 'fastly-client-ip', 'x-cluster-client-ip'])

/** Addresses a proxy header names (for= of Forwarded, every entry of the X-…-IP lists, IPs in Via). */
export function addressesIn(name: string, value: string): string[] {
  if (ADDRESS_LIST_HEADERS.has(name)) return value.split(',').map(stripAddress).filter(Boolean)
  if (name === 'forwarded') {
    // RFC 7239 for= nodes (by= names the proxy itself); "unknown" and obfuscated "_hidden"
    // identifiers are not addresses.
    const out: string[] = []
    for (const m of value.matchAll(/(?:^|[;,\s])for\s*=\s*("[^"]*"|[^;,\s]+)/gi)) {
      const a = stripAddress(m[1]!)
      if (a && a.toLowerCase() !== 'unknown' && !a.startsWith('_')) out.push(a)
    }
    return out
  }
  if (name === 'via') {
    // "1.1 10.0.0.5:3128, 1.0 fred": a received-by is a host, a pseudonym or an address.
    return value
      .split(',')
      .map((hop) => stripAddress(hop.trim().split(/\s+/)[1] ?? ''))
      .filter((a) => parseIp(a) !== null)
  }
  return []
}

const sameAddress = (a: string, b: string) => parseIp(a) !== null && normalizeIp(a) === normalizeIp(b)

export function proxyEvidence(obs: Pick<ServerObservation, 'headers' | 'ip'>): ProxyEvidence {
  const names: readonly string[] = PROXY_HEADERS
  const headers = obs.headers.filter(([n]) => names.includes(n))
  const xff = headers.filter(([n]) => n === 'x-forwarded-for').flatMap(([, v]) => addressesIn('x-forwarded-for', v))
  let clientAt = -1
  for (let i = xff.length - 1; i >= 0; i--) {
    if (sameAddress(xff[i]!, obs.ip)) {
      clientAt = i
      break
    }
  }
  const foreign: RevealedAddress[] = []
  const seen = new Set<string>()
  const add = (header: string, address: string) => {
    const key = `${header} ${address}`
    const scope = ipScope(address)
    // Names that are not addresses (hosts, pseudonyms, garbage) reveal nothing to classify.
    if (!scope || sameAddress(address, obs.ip) || seen.has(key)) return
    seen.add(key)
    foreign.push({ header, address: normalizeIp(address), scope })
  }
  // Only the client's side of X-Forwarded-For: the entries right of the client are our hops.
  for (const a of xff.slice(0, clientAt >= 0 ? clientAt : xff.length)) add('x-forwarded-for', a)
  // Via names proxies, not clients: the service's own proxy may add one, so only count it
  // when no trusted hop is involved.
  for (const [n, v] of headers) {
    if (n === 'x-forwarded-for' || (n === 'via' && clientAt >= 0)) continue
    for (const a of addressesIn(n, v)) add(n, a)
  }
  return { headers, foreign, viaServiceProxy: clientAt >= 0 }
}

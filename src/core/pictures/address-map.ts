// What ip-leak, webrtc-leak and dns-leak draw: every address the visit revealed, grouped by
// where it was seen — the HTTP request (and proxy headers on it), the page's WebRTC
// candidates, the service's STUN/TURN listener, its DNS server — each with its country and
// network where the IP database placed it, and the leak marked: a public address outside the
// HTTP address's network (same address, IPv6 /64 or AS), or a resolver in another country.
// Read from the stored results, as the tools' own checks judged them.

import { stunEvidenceOf, matchAddress } from '../../checks/stun-evidence'
import { resolverVerdict } from '../../checks/resolver-network'
import { sameNetwork } from '../ip-scope'
import type { EvidenceItemSchema } from '../tools/observation'
import type { Static } from '@sinclair/typebox'

export const SEEN_BY = ['http', 'proxy', 'webrtc', 'stun', 'dns'] as const
export type SeenBy = (typeof SEEN_BY)[number]

export interface MappedAddress {
  address: string
  /** What kind of address or how it was seen: "srflx", "private", "A, AAAA · 3 queries". */
  detail: string | null
  /** "DE, AS3320 Deutsche Telekom AG"; null when the database did not place it. */
  place: string | null
  /** `leak`: outside the HTTP address's network; `local`: a local-network address shown to the page; `other`: another network, not a leak by itself. */
  mark: 'leak' | 'local' | 'other' | null
  why: string | null
}

export interface AddressGroup {
  seenBy: SeenBy
  addresses: MappedAddress[]
}

type Evidence = Static<ReturnType<typeof EvidenceItemSchema>>
interface ServerPart {
  nonce: string
  evidence: Evidence[]
}

const placeText = (country: string | null | undefined, asn: number | null | undefined, org: string | null | undefined) =>
  country || asn != null ? `${country ?? 'no country'}${asn != null ? `, AS${asn}${org ? ` ${org}` : ''}` : ''}` : null

const LOCAL_KINDS = new Set(['private', 'cgnat', 'link-local', 'loopback', 'unique-local', 'mdns'])

function stunGroup(server: ServerPart | undefined, httpIp: string): AddressGroup | null {
  // Only evidence filed under this page's valid nonce counts (as the checks read it).
  const seen = server ? stunEvidenceOf({ nonce: server.nonce === 'valid' ? 'valid' : undefined, evidence: server.evidence }) : null
  if (!seen || !(seen.bindings.length + seen.allocations.length)) return null
  const rows = new Map<string, MappedAddress>()
  for (const [what, list] of [['STUN binding', seen.bindings], ['TURN allocation', seen.allocations]] as const) {
    for (const b of list) {
      const m = matchAddress(b.address, httpIp)
      const prev = rows.get(b.address)
      rows.set(b.address, {
        address: b.address,
        detail: prev ? `${prev.detail}, ${what}` : `${what} from port ${b.port}/${b.transport}`,
        place: null,
        mark: m === 'leak' ? 'leak' : m === 'local-vs-public' ? 'local' : null,
        why: m === 'leak' ? 'the browser’s UDP leaves from another public address than its HTTP requests' : null,
      })
    }
  }
  return { seenBy: 'stun', addresses: [...rows.values()] }
}

/** ip-leak's results: the HTTP address with its lookup, proxy headers, WebRTC addresses compared with it, STUN/TURN. */
export function ipLeakMap(r: {
  ip: {
    address: string
    scope: string | null
    lookup: { country: string | null; asn: number | null; organization: string | null; network: string | null }
    proxy: { forwarded: Array<{ header: string; address: string; scope: string }> }
    webrtc: { addresses: Array<{ address: string; kind: string; types: string[] }>; public: Array<{ address: string; sameAsHttp: boolean; network: string | null }> } | null
  }
  server?: ServerPart
}): AddressGroup[] {
  const { ip } = r
  const groups: AddressGroup[] = [
    { seenBy: 'http', addresses: [{ address: ip.address, detail: [ip.scope, ip.lookup.network].filter(Boolean).join(', ') || null, place: placeText(ip.lookup.country, ip.lookup.asn, ip.lookup.organization), mark: null, why: null }] },
  ]
  if (ip.proxy.forwarded.length) {
    groups.push({
      seenBy: 'proxy',
      addresses: ip.proxy.forwarded.map((f) => {
        const leak = f.scope === 'public' && !sameNetwork(f.address, ip.address)
        return { address: f.address, detail: `${f.header} (${f.scope})`, place: null, mark: leak ? 'leak' : f.scope === 'public' ? null : 'local', why: leak ? 'a proxy forwards another public address' : null }
      }),
    })
  }
  if (ip.webrtc) {
    const pub = new Map(ip.webrtc.public.map((p) => [p.address, p]))
    groups.push({
      seenBy: 'webrtc',
      addresses: ip.webrtc.addresses.map((a) => {
        const p = pub.get(a.address)
        const leak = a.kind === 'public' && p ? !p.sameAsHttp : false
        return { address: a.address, detail: `${a.kind}: ${a.types.join(', ')}`, place: p?.network ?? null, mark: leak ? 'leak' : LOCAL_KINDS.has(a.kind) && a.kind !== 'mdns' ? 'local' : null, why: leak ? 'a public address outside the HTTP address’s network' : null }
      }),
    })
  }
  const stun = stunGroup(r.server, ip.address)
  return stun ? [...groups, stun] : groups
}

/** webrtc-leak's results: the HTTP address, the addresses in the candidates, STUN/TURN. */
export function webrtcLeakMap(r: { webrtc: { httpAddress: string; addresses: Array<{ address: string; kind: string }>; candidates: Array<{ address: string; type: string }> }; server?: ServerPart }): AddressGroup[] {
  const { webrtc } = r
  const http = webrtc.httpAddress
  const groups: AddressGroup[] = [{ seenBy: 'http', addresses: [{ address: http, detail: null, place: null, mark: null, why: null }] }]
  {
    groups.push({
      seenBy: 'webrtc',
      addresses: webrtc.addresses.map((a) => {
        const types = [...new Set(webrtc.candidates.filter((c) => c.address === a.address).map((c) => c.type))]
        const leak = a.kind === 'public' && !sameNetwork(a.address, http)
        return { address: a.address, detail: `${a.kind}${types.length ? `: ${types.join(', ')}` : ''}`, place: null, mark: leak ? 'leak' : LOCAL_KINDS.has(a.kind) && a.kind !== 'mdns' ? 'local' : null, why: leak ? 'a public address other than the HTTP one' : null }
      }),
    })
  }
  const stun = stunGroup(r.server, http)
  return stun ? [...groups, stun] : groups
}

/** dns-leak's results: the client address and the resolvers that looked up the page's names, each judged as resolver-network judges it. */
export function dnsLeakMap(r: {
  dns: {
    clientAddress: string
    clientNetwork?: { country: string | null; asn: number | null; org: string | null } | null
    resolvers: Array<{ address: string; provider: string | null; country: string | null; asn: number | null; org: string | null; queries: number; types: string[] }>
  }
}): AddressGroup[] {
  const { dns } = r
  const client = dns.clientNetwork ?? null
  const groups: AddressGroup[] = [{ seenBy: 'http', addresses: [{ address: dns.clientAddress, detail: null, place: client ? placeText(client.country, client.asn, client.org) : null, mark: null, why: null }] }]
  {
    groups.push({
      seenBy: 'dns',
      addresses: dns.resolvers.map((res) => {
        const v = client ? resolverVerdict(res, res.provider, client) : null
        return {
          address: res.address,
          detail: `${res.provider ? `${res.provider} · ` : ''}${res.types.join(', ')} · ${res.queries} ${res.queries === 1 ? 'query' : 'queries'}`,
          place: placeText(res.country, res.asn, res.org),
          mark: v?.verdict === 'fail' ? 'leak' : v?.verdict === 'warn' ? 'other' : null,
          why: v && v.verdict !== 'pass' ? v.why : null,
        }
      }),
    })
  }
  return groups
}

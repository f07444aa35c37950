// What the service's STUN/TURN listener (src/listeners/stun.ts) filed under a page's nonce,
// and how an address it saw compares with the HTTP one. The listener sees the address the
// browser's UDP traffic really leaves from, whatever the page's JavaScript reports.

import { normalizeIp } from '../core/ip'
import { ipScope, sameNetwork } from '../core/ip-scope'
import { evidenceOf, type ServerObservation } from '../core/tools/observation'

/** What the service's STUN/TURN listener (src/listeners/stun.ts) filed under this page's nonce. */
export interface StunEvidence {
  /** Binding requests from a socket that also allocated with this page's credentials: the source address and port as the server saw them. */
  bindings: Array<{ address: string; port: number; transport: 'udp' | 'tcp' }>
  /** TURN Allocate requests whose MESSAGE-INTEGRITY verified with this page's credentials. */
  allocations: Array<{ address: string; port: number; transport: 'udp' | 'tcp' }>
}

export type Seen = StunEvidence['bindings'][number]

function asSeen(d: unknown): Seen[] {
  const x = d as { address?: unknown; port?: unknown; transport?: unknown } | null
  if (!x || typeof x.address !== 'string' || typeof x.port !== 'number') return []
  return [{ address: normalizeIp(x.address), port: x.port, transport: x.transport === 'tcp' ? 'tcp' : 'udp' }]
}

/**
 * The listener's `stun` and `turn` evidence for this submission; null when it carried no valid
 * page nonce (then nothing the listener saw can be tied to it).
 */
export function stunEvidenceOf(server: Pick<ServerObservation, 'nonce' | 'evidence'>): StunEvidence | null {
  if (server.nonce !== 'valid' || !server.evidence) return null
  return { bindings: evidenceOf(server, 'stun').flatMap(asSeen), allocations: evidenceOf(server, 'turn').flatMap(asSeen) }
}

export type AddressMatch = 'same' | 'leak' | 'local' | 'local-vs-public'

/**
 * How an address the listener saw compares with the HTTP one: `same` network (IPv6: same /64);
 * `leak`, a different public address; `local`, a non-public address while HTTP came from a
 * non-public one too (the service runs on this machine or network, where UDP and HTTP take
 * different local routes: nothing reaches the Internet); `local-vs-public`, a non-public UDP
 * source next to a public HTTP address (the service is on the browser's network, but HTTP went
 * out through a proxy or another route).
 */
export function matchAddress(seen: string, httpIp: string): AddressMatch {
  if (sameNetwork(seen, httpIp)) return 'same'
  if (ipScope(seen) === 'public') return 'leak'
  return ipScope(httpIp) === 'public' ? 'local-vs-public' : 'local'
}

export const LOCAL_NOTE = 'the service runs on this machine or network: UDP and HTTP arrived from different local addresses, and no address reached the Internet'
export const fmtSeen = (b: Seen) => `${b.address}:${b.port}/${b.transport}`

/** The worst match among the addresses seen: a leak fails, a local source next to a public HTTP address warns. */
export function worstMatch(seen: Seen[], httpIp: string): 'pass' | 'warn' | 'fail' {
  const m = seen.map((b) => matchAddress(b.address, httpIp))
  return m.includes('leak') ? 'fail' : m.includes('local-vs-public') ? 'warn' : 'pass'
}

/** `{ note }` when one of the addresses seen is a local one next to a local HTTP address. */
export const localNote = (seen: Seen[], httpIp: string) => (seen.some((b) => matchAddress(b.address, httpIp) === 'local') ? { note: LOCAL_NOTE } : {})

/**
 * The TURN-observed UDP sources against the HTTP address, for tools that fold them into their
 * own WebRTC check (vpn-detector); null when the listener filed no allocation for this page.
 */
export function turnAgainstHttp(evidence: StunEvidence | null, httpIp: string): { verdict: 'pass' | 'warn' | 'fail'; seen: string[]; note?: string } | null {
  if (!evidence?.allocations.length) return null
  const ip = normalizeIp(httpIp)
  return { verdict: worstMatch(evidence.allocations, ip), seen: evidence.allocations.map(fmtSeen), ...localNote(evidence.allocations, ip) }
}

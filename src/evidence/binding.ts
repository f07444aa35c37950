// Whose evidence is it? (issue 24) A page nonce is no secret from the client that loaded the
// page, so anyone it hands the nonce to can file under it: a bot at one address could have a
// real browser elsewhere open the HTTPS listener with its nonce (`GET /evidence/<nonce>`) and
// be judged on that browser's handshake. So each record of the HTTPS listener carries the
// address of the client whose connection it was, and a task is judged only on the records of
// its own submitter's network; the others are set aside and reported (`evidence_elsewhere`,
// and the check `listener-address`).
//
// What binds each kind:
// - tls, http2, http1 (the HTTPS listener): the connection's client address — the socket peer,
//   or what a trusted proxy (TRUSTED_PROXIES) says through a PROXY protocol header or
//   X-Forwarded-For — against the submitting request's address (same address; for IPv6 the
//   same /64, where a host rotates its temporary addresses, RFC 8981).
// - dns: nothing but the name. Queries come from resolvers, never from the client, and which
//   resolver asks is exactly what dns-leak judges; only the page knows its nonce's names.
// - stun, turn: the TURN allocation must carry MESSAGE-INTEGRITY keyed with the page's own TURN
//   secret, and the address it came from is the finding itself: webrtc-leak and vpn-detector
//   compare it with the HTTP address, so a record from elsewhere is a leak (or a fail), never
//   a borrowed pass.
//
// Capping: records of another network than the page load's are filed under caps of their own
// (AWAY_ITEMS per kind), so that whoever knows a nonce cannot crowd out the page's own records.

import { normalizeIp } from '../core/ip'
import { sameNetwork } from '../core/ip-scope'

/** The kinds a task is judged on only when they come from its submitter's address. */
export const ADDRESS_BOUND_KINDS: ReadonlySet<string> = new Set(['tls', 'http2', 'http1'])

/** Items per kind kept for a nonce from networks other than its page load's (the rest are counted). */
export const AWAY_ITEMS = 2

/**
 * Whether two client addresses are one client's as far as binding goes: equal (an IPv4-mapped
 * IPv6 address as its IPv4), or in one IPv6 /64. A value that is no address (`unknown`, an app
 * driven in-process without a socket) is only itself.
 */
export function sameClient(a: string, b: string): boolean {
  const x = normalizeIp(a)
  const y = normalizeIp(b)
  return x === y || sameNetwork(x, y)
}

/**
 * Whether a record is filed "away" from its nonce: an address-bound record from another network
 * than the page load's. Records of other kinds, and nonces issued before the page's address
 * was kept, are never away.
 */
export function isAway(kind: string, recordClient: string | null, pageClient: string | null): boolean {
  if (!ADDRESS_BOUND_KINDS.has(kind) || pageClient === null) return false
  return recordClient === null || !sameClient(recordClient, pageClient)
}

export interface Elsewhere {
  kind: string
  /** The client address the record was filed from; null for a record filed without one. */
  address: string | null
  observedAt: string
}

/**
 * Splits a nonce's evidence into what the submitter may be judged on and what came from
 * another client: address-bound kinds only when their address is the submitter's network.
 */
export function bindEvidence<T extends { kind: string; clientIp: string | null; observedAt: string }>(items: readonly T[], submitter: string): { bound: T[]; elsewhere: Elsewhere[] } {
  const bound: T[] = []
  const elsewhere: Elsewhere[] = []
  for (const item of items) {
    if (!ADDRESS_BOUND_KINDS.has(item.kind) || (item.clientIp !== null && sameClient(item.clientIp, submitter))) bound.push(item)
    else elsewhere.push({ kind: item.kind, address: item.clientIp, observedAt: item.observedAt })
  }
  return { bound, elsewhere }
}

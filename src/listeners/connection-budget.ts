// What one client network, and one range of networks, may hold of the HTTPS listener at once
// (issues 33 and 45): open connections, and — more tightly — connections that have not yet
// finished their TLS handshake and sent their first request head (those hold up to a 64 KiB
// ClientHello buffer each and cost a handshake). A client network is an IPv4 address or an IPv6
// /64 (src/core/ip.ts networkKey), as for every other per-client limit; a range is an IPv4 /24 or
// an IPv6 /48 (what one site or one provider's customer gets: a home /56 lies in one /48). The
// listener asks `admit` at accept (for a trusted proxy's connection: once its PROXY protocol
// header named the client) and refuses the connection when it says no; a refused connection is
// closed before a byte of it is read or answered.
//
// A total over all networks bounds what many ranges together can make the process hold. At the
// total, a newcomer from a range holding fewer connections than the largest holder is let in by
// closing one of the largest holder's — its oldest idle connection, else its oldest still in
// handshake, else its oldest — so that no range, however many networks it has, can take the
// listener from everyone else (issue 45: 17 addresses of one /24 held all 1,024 places and every
// other client was refused). Only a newcomer from the largest holder itself is refused there.

import { networkKey, rangeKey } from '../core/ip'

export interface ConnectionLimits {
  /** Open connections per client network (HTTPS_CONNECTIONS_PER_NETWORK). */
  perNetwork: number
  /** Of those, connections still before their first request head (HTTPS_HANDSHAKES_PER_NETWORK). */
  handshakesPerNetwork: number
  /** Open connections per range: IPv4 /24, IPv6 /48 (HTTPS_CONNECTIONS_PER_RANGE). */
  perRange: number
  /** Open connections over all networks (HTTPS_MAX_CONNECTIONS). */
  total: number
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { perNetwork: 64, handshakesPerNetwork: 16, perRange: 256, total: 1024 }

/** Which limit refused a connection (the metric's label, the log line's word). */
export type ConnectionRefusal = 'connections_per_network' | 'handshakes_per_network' | 'connections_per_range' | 'connections_total'

export interface ConnectionTicket {
  readonly network: string
  readonly range: string
  /** The connection finished its handshake and first request head: it no longer counts as one in handshake. */
  established(): void
  /** Whether a request of the connection is in flight (an idle connection is the first to make room). */
  busy(inFlight: boolean): void
  /** The connection closed (idempotent). */
  release(): void
}

export interface ConnectionBudget {
  /**
   * Admits a connection from `address`, or says which limit refuses it. `evict` closes the
   * connection, should the budget need its place for a newcomer from a smaller holder; its
   * ticket counts as released from then on.
   */
  admit(address: string, evict?: () => void): ConnectionTicket | ConnectionRefusal
  /** Open connections of a network, and of them the ones still in handshake (for tests). */
  held(address: string): { open: number; handshaking: number }
  /** Open connections of the address's range (for tests). */
  heldByRange(address: string): number
  readonly total: number
  /** Connections closed to make room for newcomers, since the start. */
  readonly evicted: number
}


interface Held {
  open: number
  handshaking: number
}

interface Entry {
  /** Admission order: the lower, the older. */
  seq: number
  handshaking: boolean
  inFlight: boolean
  evict: () => void
  release(): void
}

export function connectionBudget(limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS): ConnectionBudget {
  const byNetwork = new Map<string, Held>()
  /** Each range's connections, oldest first (a Set keeps insertion order). */
  const byRange = new Map<string, Set<Entry>>()
  let total = 0
  let evicted = 0
  let seq = 0

  /**
   * Closes one connection of the largest holder if it holds more than `own` would with the
   * newcomer; whether it did. Among holders of the same largest size, an idle connection is
   * taken before one in handshake, and that before one with a request in flight; the oldest first.
   */
  const makeRoom = (own: string): boolean => {
    const ownCount = (byRange.get(own)?.size ?? 0) + 1
    let max = 0
    for (const entries of byRange.values()) max = Math.max(max, entries.size)
    if (max <= ownCount) return false
    const rank = (e: Entry) => (!e.handshaking && !e.inFlight ? 0 : e.handshaking ? 1 : 2)
    let victim: Entry | undefined
    for (const entries of byRange.values()) {
      if (entries.size !== max) continue
      for (const e of entries) if (!victim || rank(e) < rank(victim) || (rank(e) === rank(victim) && e.seq < victim.seq)) victim = e
    }
    if (!victim) return false
    victim.release()
    evicted++
    victim.evict()
    return true
  }

  return {
    admit(address, evict = () => {}) {
      const network = networkKey(address)
      const range = rangeKey(address)
      const held = byNetwork.get(network) ?? { open: 0, handshaking: 0 }
      if (held.open >= limits.perNetwork) return 'connections_per_network'
      if (held.handshaking >= limits.handshakesPerNetwork) return 'handshakes_per_network'
      if ((byRange.get(range)?.size ?? 0) >= limits.perRange) return 'connections_per_range'
      if (total >= limits.total && !makeRoom(range)) return 'connections_total'
      held.open++
      held.handshaking++
      total++
      byNetwork.set(network, held)
      const entries = byRange.get(range) ?? new Set<Entry>()
      byRange.set(range, entries)
      let released = false
      const entry: Entry = {
        seq: seq++,
        handshaking: true,
        inFlight: false,
        evict,
        release() {
          if (released) return
          released = true
          total--
          held.open--
          if (entry.handshaking) held.handshaking--
          if (held.open === 0) byNetwork.delete(network)
          entries.delete(entry)
          if (entries.size === 0) byRange.delete(range)
        },
      }
      entries.add(entry)
      return {
        network,
        range,
        established() {
          if (!entry.handshaking || released) return
          entry.handshaking = false
          held.handshaking--
        },
        busy(inFlight) {
          entry.inFlight = inFlight
        },
        release: () => entry.release(),
      }
    },
    held(address) {
      const h = byNetwork.get(networkKey(address))
      return { open: h?.open ?? 0, handshaking: h?.handshaking ?? 0 }
    },
    heldByRange(address) {
      return byRange.get(rangeKey(address))?.size ?? 0
    },
    get total() {
      return total
    },
    get evicted() {
      return evicted
    },
  }
}

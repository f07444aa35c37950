// What one client network may hold of the HTTPS listener at once (issue 33): open connections,
// and — more tightly — connections that have not yet finished their TLS handshake and sent their
// first request head (those hold up to a 64 KiB ClientHello buffer each and cost a handshake).
// A client network is an IPv4 address or an IPv6 /64 (src/core/ip.ts networkKey), as for every
// other per-client limit. The listener asks `admit` at accept (for a trusted proxy's connection:
// once its PROXY protocol header named the client) and refuses the connection when it says no;
// a refused connection is closed before a byte of it is read or answered.
//
// A total over all networks bounds what many networks together can make the process hold (an
// IPv6 attacker has 65,536 /64s in a /48): past it, new connections are refused for everyone
// until some close. That trades availability under such an attack for staying alive in a small
// container, which is the point.

import { networkKey } from '../core/ip'

export interface ConnectionLimits {
  /** Open connections per client network (HTTPS_CONNECTIONS_PER_NETWORK). */
  perNetwork: number
  /** Of those, connections still before their first request head (HTTPS_HANDSHAKES_PER_NETWORK). */
  handshakesPerNetwork: number
  /** Open connections over all networks (HTTPS_MAX_CONNECTIONS). */
  total: number
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { perNetwork: 64, handshakesPerNetwork: 16, total: 1024 }

/** Which limit refused a connection (the metric's label, the log line's word). */
export type ConnectionRefusal = 'connections_per_network' | 'handshakes_per_network' | 'connections_total'

export interface ConnectionTicket {
  readonly network: string
  /** The connection finished its handshake and first request head: it no longer counts as one in handshake. */
  established(): void
  /** The connection closed (idempotent). */
  release(): void
}

export interface ConnectionBudget {
  admit(address: string): ConnectionTicket | ConnectionRefusal
  /** Open connections of a network, and of them the ones still in handshake (for tests). */
  held(address: string): { open: number; handshaking: number }
  readonly total: number
}

export function connectionBudget(limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS): ConnectionBudget {
  const open = new Map<string, { open: number; handshaking: number }>()
  let total = 0
  return {
    admit(address) {
      const network = networkKey(address)
      const held = open.get(network) ?? { open: 0, handshaking: 0 }
      if (total >= limits.total) return 'connections_total'
      if (held.open >= limits.perNetwork) return 'connections_per_network'
      if (held.handshaking >= limits.handshakesPerNetwork) return 'handshakes_per_network'
      held.open++
      held.handshaking++
      total++
      open.set(network, held)
      let handshaking = true
      let released = false
      return {
        network,
        established() {
          if (!handshaking || released) return
          handshaking = false
          held.handshaking--
        },
        release() {
          if (released) return
          released = true
          total--
          held.open--
          if (handshaking) held.handshaking--
          if (held.open === 0) open.delete(network)
        },
      }
    },
    held(address) {
      const h = open.get(networkKey(address))
      return { open: h?.open ?? 0, handshaking: h?.handshaking ?? 0 }
    },
    get total() {
      return total
    },
  }
}

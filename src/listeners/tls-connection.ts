// What every stage of one HTTPS listener connection shares (src/listeners/tls.ts, and
// https-serve.ts for a connection handed to the app): the socket, its deadline and TCP round
// trip, whose connection it is, and the small answer to `/evidence/<nonce>`.

import type { Socket } from 'node:net'
import type { Db } from '../../db/client'
import { clientAddress, normalizeIp, type Cidr } from '../core/ip'
import type { Http1Record, Http2Record, TlsRecord } from '../evidence/tls-records'
import type { ConnectionTicket } from './connection-budget'
import type { ConnectionRecords } from './https-requests'

export interface TlsListenerDeps {
  db: Db
  clock: () => Date
  log?: (line: string) => void
  /** TRUSTED_PROXIES: peers whose PROXY protocol header and X-Forwarded-For are believed. */
  trustedProxies?: readonly Cidr[]
  /** Told the name of a limit each time it refuses a connection or a request (for metrics). */
  onLimited?: (limit: string) => void
}

/** The app's fetch handler (Elysia's `app.handle`). */
export type FetchHandler = (request: Request) => Promise<Response>

export interface Connection {
  raw: Socket
  /**
   * The client's address as far as the connection shows it: the socket peer, or the source a
   * trusted proxy's PROXY protocol header named. A request's X-Forwarded-For may add to it
   * (connectionClient).
   */
  peer: string
  /** tcpi_rtt in µs read at accept: the TCP handshake's round trip; null off Linux. */
  tcpRttMicros: number | null
  /** The SYN the kernel kept for it, read at accept (tcp-info.ts savedSyn); null when none was kept. */
  syn?: Uint8Array | null
  /** Whether the socket's peer is a trusted proxy (its SYN is then the proxy's). */
  viaProxy?: boolean
  /** performance.now() at which the connection deadline drops it. */
  deadline: number
  /** The deadline's timer, cleared when the connection is handed to the app. */
  timer: ReturnType<typeof setTimeout>
  /** Its place in the client network's connection budget (connection-budget.ts), once admitted. */
  ticket?: ConnectionTicket
}

/**
 * The address a connection's records are filed as the client's (src/evidence/binding.ts):
 * its peer, or — when the peer is a trusted proxy — the address its X-Forwarded-For names,
 * walked as on the HTTP port (src/core/ip.ts clientAddress).
 */
export function connectionClient(peer: string, forwardedFor: string | null | undefined, trusted: readonly Cidr[] | undefined): string {
  return clientAddress(normalizeIp(peer), forwardedFor ?? null, trusted ?? [])
}

/** A header's values joined as one list (X-Forwarded-For sent twice counts as one list). */
export function joinedHeader(fields: ReadonlyArray<{ name: string; value: string }>, name: string): string | null {
  const values = fields.filter((f) => f.name.toLowerCase() === name).map((f) => f.value)
  return values.length ? values.join(', ') : null
}

export const EVIDENCE_RESPONSE_HEADERS: Array<[string, string]> = [
  ['content-type', 'application/json'],
  ['access-control-allow-origin', '*'],
  ['cache-control', 'no-store'],
]

/** The JSON answer to `/evidence/<nonce>`: whether it was recorded, and the fingerprints read. */
export function evidenceAnswer(records: ConnectionRecords, recorded: boolean): string {
  const tls = records[0]![1] as TlsRecord
  const second = records[1]!
  return JSON.stringify({ recorded, ja4: tls.ja4, ...(second[0] === 'http2' ? { akamai: (second[1] as Http2Record).akamai } : { http: (second[1] as Http1Record).version }) })
}

// Requests that reached the app over the HTTPS listener (src/listeners/tls.ts), and what the
// listener knows about their connection: the socket peer's address and the connection's
// ClientHello and HTTP/2 (or HTTP/1) evidence. The listener registers each Request it hands to
// the app here, keyed by the Request object itself, before calling `app.handle`: nothing a
// client sends (no header, no URL) can put a request in this map or change what is in it, and
// a request that came in over the plain HTTP listener is never in it.
//
// The app reads it in two places: requestClientIp (src/http/client-ip.ts) takes the peer
// address from here, since Bun's `server.requestIP` knows only its own sockets; and the tool
// page route (src/http/tools.ts) files the connection's evidence under the nonce it just
// issued, so a page loaded over HTTPS is judged on the handshake it was loaded with.

import type { Db } from '../../db/client'
import { fileEvidence } from '../../db/nonces'

export type ConnectionEvidenceKind = 'tls' | 'http2' | 'http1'
export type ConnectionRecords = Array<[ConnectionEvidenceKind, unknown]>

export interface ListenerRequestInfo {
  /** The TCP peer's address, as the socket reports it. */
  peer: string
  /**
   * The connection's 'tls' record and its 'http2' or 'http1' record with this request's header
   * order; waits for the connection's PING round trips (bounded by the listener).
   */
  records(): Promise<ConnectionRecords>
  /** Nonces the connection's evidence is already filed under (one filing per page nonce). */
  filed: Set<string>
}

const byRequest = new WeakMap<Request, ListenerRequestInfo>()

/** Called by the listener only, for a Request it is about to hand to the app. */
export function registerListenerRequest(request: Request, info: ListenerRequestInfo): void {
  byRequest.set(request, info)
}

/** What the listener knows of this request's connection; undefined for plain-HTTP requests. */
export function listenerRequest(request: Request): ListenerRequestInfo | undefined {
  return byRequest.get(request)
}

/** The socket peer of a request that came over the HTTPS listener. */
export function listenerPeer(request: Request): string | undefined {
  return byRequest.get(request)?.peer
}

/**
 * Files records under a nonce, one by one (each kind is capped per nonce: db/nonces.ts), with
 * the address of the client whose connection they describe (`clientIp`: the socket peer, or
 * what a trusted proxy forwarded). `recorded`: every record was stored; `live`: the nonce
 * exists and has not expired.
 */
export async function fileRecords(db: Db, nonce: string, records: ConnectionRecords, now: Date, clientIp: string): Promise<{ recorded: boolean; live: boolean }> {
  let recorded = true
  let live = false
  for (const [kind, data] of records) {
    const outcome = await fileEvidence(db, { nonce, kind, data, now, clientIp })
    recorded &&= outcome === 'filed'
    live ||= outcome !== 'no-nonce'
  }
  return { recorded, live }
}

/**
 * For a tool page served over the HTTPS listener: files the page connection's evidence under
 * the nonce just issued for it, as the client's at `clientIp` (the page request's client
 * address). Does nothing for a request that came over plain HTTP.
 */
export async function fileListenerEvidence(db: Db, request: Request, nonce: string, now: Date, clientIp: string): Promise<void> {
  const info = byRequest.get(request)
  if (!info || info.filed.has(nonce)) return
  info.filed.add(nonce)
  await fileRecords(db, nonce, await info.records(), now, clientIp)
}

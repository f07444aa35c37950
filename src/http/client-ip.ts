import { cidrContains, clientAddress, normalizeIp, parseIp, type Cidr } from '../core/ip'
import { redactHeaderValue } from '../core/redact'
import type { ServerObservation } from '../core/tools/observation'
import { listenerPeer } from '../listeners/https-requests'

interface SocketInfo {
  requestIP(request: Request): { address: string } | null
}

/** The client's address for a request: the socket peer, or X-Forwarded-For from trusted proxies. */
export function requestClientIp(server: SocketInfo | null | undefined, request: Request, trusted: readonly Cidr[]): string {
  const peer = socketPeer(server, request)
  // No socket when the app is driven in-process (app.handle in tests).
  if (!peer) return 'unknown'
  return clientAddress(normalizeIp(peer), request.headers.get('x-forwarded-for'), trusted)
}

/**
 * The TCP peer of a request: the HTTPS listener's socket for requests that came over it
 * (src/listeners/https-requests.ts; Bun's requestIP knows only its own sockets), else Bun's.
 */
function socketPeer(server: SocketInfo | null | undefined, request: Request): string | undefined {
  return listenerPeer(request) ?? server?.requestIP(request)?.address
}

/** Whether the request's socket peer is one of TRUSTED_PROXIES (false without a socket). */
export function peerIsTrustedProxy(server: SocketInfo | null | undefined, request: Request, trusted: readonly Cidr[]): boolean {
  const peer = socketPeer(server, request)
  const ip = peer ? parseIp(peer) : null
  return !!ip && trusted.some((c) => cidrContains(c, ip))
}

/**
 * What the server saw of a request, for the tools to judge beside the page's signals. Stored
 * with the task, so credentials never stay in it: a credential-bearing header keeps its name and
 * its place (header-order checks need both) and its value becomes `(redacted)`
 * (src/core/redact.ts says which headers).
 */
export function observeRequest(request: Request, ip: string, now: Date): ServerObservation {
  const headers: Array<[string, string]> = []
  request.headers.forEach((value, name) => {
    headers.push([name, redactHeaderValue(name, value)])
  })
  const userAgent = request.headers.get('user-agent')
  return { ip, userAgent: userAgent === null ? '' : redactHeaderValue('user-agent', userAgent), headers, receivedAt: now.getTime() }
}

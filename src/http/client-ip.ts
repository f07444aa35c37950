import { cidrContains, clientAddress, normalizeIp, parseIp, type Cidr } from '../core/ip'
import type { ServerObservation } from '../core/tools/observation'

interface SocketInfo {
  requestIP(request: Request): { address: string } | null
}

/** The client's address for a request: the socket peer, or X-Forwarded-For from trusted proxies. */
export function requestClientIp(server: SocketInfo | null | undefined, request: Request, trusted: readonly Cidr[]): string {
  const peer = server?.requestIP(request)?.address
  // No socket when the app is driven in-process (app.handle in tests).
  if (!peer) return 'unknown'
  return clientAddress(normalizeIp(peer), request.headers.get('x-forwarded-for'), trusted)
}

/** Whether the request's socket peer is one of TRUSTED_PROXIES (false without a socket). */
export function peerIsTrustedProxy(server: SocketInfo | null | undefined, request: Request, trusted: readonly Cidr[]): boolean {
  const peer = server?.requestIP(request)?.address
  const ip = peer ? parseIp(peer) : null
  return !!ip && trusted.some((c) => cidrContains(c, ip))
}

/** What the server saw of a request, for the tools to judge beside the page's signals. */
export function observeRequest(request: Request, ip: string, now: Date): ServerObservation {
  const headers: Array<[string, string]> = []
  request.headers.forEach((value, name) => {
    // Never keep credentials in stored evidence.
    if (name === 'cookie' || name === 'authorization') value = '(redacted)'
    headers.push([name, value])
  })
  return { ip, userAgent: request.headers.get('user-agent') ?? '', headers, receivedAt: now.getTime() }
}

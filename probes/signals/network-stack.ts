// What the page can see of the connection its requests use: the protocol negotiated for the
// page itself (navigation entry) and for a fresh same-origin fetch (resource entry) —
// "http/1.1", "h2" or "h3", chosen by ALPN inside the TLS handshake — whether the navigation
// did a TLS handshake, and whether this is a secure context. The TLS fingerprint itself
// (ClientHello) is only visible to the server's TLS listener (issue 7).
// nextHopProtocol is "" when the browser hides it (cross-origin without Timing-Allow-Origin).
// https://developer.mozilla.org/docs/Web/API/PerformanceResourceTiming/nextHopProtocol

import type { NetworkStack } from '../../common/signals/tls-fingerprint'

const proto = (e: PerformanceResourceTiming | undefined) => (e?.nextHopProtocol ? e.nextHopProtocol.slice(0, 32) : null)

export async function networkStack(path = '/healthz'): Promise<NetworkStack> {
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined
  const url = new URL(`${path}?stack=${Date.now()}`, location.href).href
  const res = await fetch(url, { cache: 'no-store' })
  await res.arrayBuffer()
  const entry = performance.getEntriesByName(url).pop() as PerformanceResourceTiming | undefined
  return {
    pageProtocol: location.protocol.slice(0, 16),
    secureContext: window.isSecureContext,
    navigationProtocol: proto(nav),
    fetchProtocol: proto(entry),
    // secureConnectionStart is 0 when no TLS handshake happened (plain HTTP, or a reused connection).
    navigationTls: nav ? nav.secureConnectionStart > 0 : null,
  }
}

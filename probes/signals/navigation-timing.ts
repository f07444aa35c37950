// How this page's own host name was resolved and connected: the DNS phase of the navigation
// (0 when cached, or when the page was opened by IP address), connect and TLS time, and the
// protocol. https://developer.mozilla.org/docs/Web/API/PerformanceNavigationTiming
import type { NavigationTiming } from '../../common/signals/dns-leak'
import { ProbeError } from '../core/probe-error'

export function navigationTiming(): NavigationTiming {
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined
  if (!nav) throw new ProbeError('unsupported', 'no navigation timing entry')
  const ms = (a: number, b: number) => (a > 0 && b >= a ? Math.round((b - a) * 10) / 10 : null)
  const host = location.hostname
  return {
    hostIsIp: /^[\d.]+$/.test(host) || host.includes(':'),
    dnsMs: ms(nav.domainLookupStart, nav.domainLookupEnd),
    connectMs: ms(nav.connectStart, nav.connectEnd),
    tlsMs: nav.secureConnectionStart > 0 ? ms(nav.secureConnectionStart, nav.connectEnd) : null,
    protocol: nav.nextHopProtocol ? nav.nextHopProtocol.slice(0, 32) : null,
  }
}

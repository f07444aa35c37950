// Round-trip time measured by the page: small sequential requests to the service, after one
// warm-up that may open the connection, median of the rest. Through a VPN or proxy this is the
// time to the exit and back through the tunnel; the TLS listener's TCP-handshake RTT only sees
// the last hop, and a large gap between the two is a relay tell (vpn-detector compares the
// handshake with HTTP/2 PINGs on the same connection, and with this when there are none).
// There is no WebSocket echo yet, so this uses fetch(): HTTP adds the server's handling time
// (/healthz pings the database), a little more than a pure echo.
// cache: 'no-store' makes every request reach the server.

import type { FetchRtt } from '../../common/signals/vpn-detector'

export function median(values: readonly number[]): number | null {
  if (!values.length) return null
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const round = (n: number) => Math.round(n * 10) / 10

export function fetchRtt(count = 5, path = '/healthz') {
  return async (): Promise<FetchRtt> => {
    const samples: number[] = []
    let protocol: string | null = null
    for (let i = 0; i <= count; i++) {
      const url = `${path}?rtt=${i}`
      const t0 = performance.now()
      const res = await fetch(url, { cache: 'no-store' })
      const t1 = performance.now()
      await res.arrayBuffer()
      if (i === 0) continue
      // Resource timing excludes the page's own event-loop delay when it is available.
      const entry = performance.getEntriesByName(new URL(url, location.href).href).pop() as PerformanceResourceTiming | undefined
      const timed = entry && entry.responseStart > 0 && entry.requestStart > 0 ? entry.responseStart - entry.requestStart : t1 - t0
      samples.push(round(timed))
      protocol = entry?.nextHopProtocol || protocol
    }
    return { samples, medianMs: median(samples) ?? 0, minMs: Math.min(...samples), protocol }
  }
}

// TCP-handshake RTT against the end-to-end RTT of the same client: the classic test for a
// proxy that terminates TCP. The TLS listener (src/listeners/tls.ts) reads the kernel's RTT
// of the TCP handshake (to whatever opened the connection: the browser, or a SOCKS/HTTP
// CONNECT proxy or Tor exit relaying it) and times HTTP/2 PINGs on that same connection, which
// the browser's own HTTP/2 stack answers through every relay. A proxy far from its user makes
// the second much longer than the first. A layer-3 VPN (WireGuard, OpenVPN, IPsec) tunnels
// packets: the browser's TCP reaches the service, so both round trips include the tunnel and
// agree; this check cannot see it (the other vpn-detector checks can).

import type { RttRecord } from '../evidence/tls-records'
import { evidenceOf, type ServerObservation } from '../core/tools/observation'

/** A gap above this (ms) and a ratio above FAIL_RATIO fails. */
export const RTT_GAP_FAIL_MS = 100
export const RTT_GAP_FAIL_RATIO = 3
/** A gap above this (ms) and a ratio above WARN_RATIO warns. */
export const RTT_GAP_WARN_MS = 50
export const RTT_GAP_WARN_RATIO = 2
/**
 * A handshake faster than this (ms) from a public address is not the client's: the port is
 * reached through a forwarder on the service's own host that terminates TCP (a userland port
 * forwarder such as rootless Podman's or docker-proxy, an L4 proxy), and every client would
 * look relayed.
 */
export const LOCAL_FORWARDER_MS = 0.5

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const msOrNull = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0)

/**
 * The round trips the TLS listener measured on the page's connection: the `rtt` member of its
 * 'http2' (or 'http1') record. Only the listener's own records (a proxy's headers carry none);
 * null when there is none or it has an odd shape.
 */
export function rttEvidenceOf(server: Pick<ServerObservation, 'evidence'>): RttRecord | null {
  const listener = { evidence: (server.evidence ?? []).filter((e) => e.source !== 'proxy') }
  // Each of the page's connections to the listener has its own handshake and PINGs: over HTTPS
  // the one the page came over (timed while the browser loads the page) and the side connection
  // of its /evidence fetch. A relay lengthens the PINGs of every connection it carries; a
  // browser or machine busy for a moment, those of one. So the connection whose PINGs came
  // closest to its handshake is judged (a Firefox person over HTTPS beside stress-ng answered the
  // page connection's PINGs after 377 ms, issue 44).
  let best: RttRecord | null = null
  for (const kind of ['http2', 'http1']) {
    for (const record of evidenceOf(listener, kind)) {
      const rtt = isRecord(record) ? record.rtt : undefined
      if (!isRecord(rtt) || !msOrNull(rtt.tcp_rtt_ms) || !msOrNull(rtt.h2_ping_rtt_ms)) continue
      const samples = Array.isArray(rtt.ping_samples) ? rtt.ping_samples.filter((n): n is number => typeof n === 'number' && Number.isFinite(n)) : []
      const candidate: RttRecord = { tcp_rtt_ms: rtt.tcp_rtt_ms, h2_ping_rtt_ms: rtt.h2_ping_rtt_ms, ping_samples: samples, transport: rtt.transport === 'http/1.1' ? 'http/1.1' : 'h2' }
      if (!best || gapOf(candidate) < gapOf(best)) best = candidate
    }
  }
  return best
}

/** A record's PING-over-handshake gap; a record without both is the least useful. */
const gapOf = (r: RttRecord) => (r.tcp_rtt_ms !== null && r.h2_ping_rtt_ms !== null ? r.h2_ping_rtt_ms - r.tcp_rtt_ms : Number.POSITIVE_INFINITY)

export type RttGapOutcome =
  | { verdict: 'pass' | 'warn' | 'fail'; observed: string; expected: string }
  | { verdict: 'na'; why: string; observed: string | null }

/** Why the check is `na` without the listener's record. */
export const RTT_EVIDENCE_MISSING = "needs the service's TLS evidence listener (TLS_PORT), which reads the TCP handshake's RTT of the page's connection to it and times HTTP/2 PINGs on that connection; the HTTP layer does not see the handshake"

const EXPECTED = `an end-to-end round trip within ${RTT_GAP_WARN_MS} ms of the TCP handshake's, or under ${RTT_GAP_WARN_RATIO}× it`

/** Milliseconds as text: µs precision under 1 ms, tenths above. */
export function msText(ms: number): string {
  return `${Number(ms.toFixed(ms < 1 ? 3 : 1))} ms`
}

/**
 * Compares the listener's TCP-handshake RTT with the end-to-end RTT: the fastest HTTP/2 PING
 * on the same connection, or else the page's own median (fetches on another connection, with
 * the server's handling time in it: weaker, so at most a warning).
 */
export function judgeRttGap(ev: RttRecord | null, page: { medianMs: number; samples: number } | null, clientScope: string | null): RttGapOutcome {
  const pageText = page ? `in-page median ${msText(page.medianMs)} over ${page.samples} requests` : null
  if (!ev) return { verdict: 'na', why: RTT_EVIDENCE_MISSING, observed: pageText }
  if (ev.tcp_rtt_ms === null) return { verdict: 'na', why: 'the TLS listener could not read the TCP handshake\'s RTT: it reads TCP_INFO from the kernel, on Linux only', observed: pageText }
  const tcp = ev.tcp_rtt_ms
  const tcpText = `TCP handshake ${msText(tcp)} (kernel, TLS listener)`
  const fromPing = ev.h2_ping_rtt_ms !== null
  const e2e = ev.h2_ping_rtt_ms ?? page?.medianMs ?? null
  if (e2e === null) return { verdict: 'na', why: 'an end-to-end round trip: the client answered no HTTP/2 PING on that connection and the page measured none', observed: tcpText }
  if ((clientScope === 'public' || clientScope === 'cgnat') && tcp < LOCAL_FORWARDER_MS) {
    return {
      verdict: 'na',
      why: `a TCP handshake with the client itself: ${msText(tcp)} from a public address means TLS_PORT is reached through a forwarder on this host that terminates TCP (rootless Podman's or Docker's userland port forwarding, an L4 proxy); forward the port at the packet level (NAT) instead`,
      observed: tcpText,
    }
  }
  const e2eText = fromPing
    ? `HTTP/2 PING ${msText(e2e)} (fastest of ${ev.ping_samples.length || 1}, same connection)`
    : `in-page median ${msText(e2e)} (fetches from the page, another connection; no HTTP/2 PING answered)`
  const gap = e2e - tcp
  const observed = `${tcpText}; ${e2eText}; gap ${msText(Math.max(0, gap))}`
  const over = (ms: number, ratio: number) => gap > ms && e2e > ratio * tcp
  const verdict = over(RTT_GAP_FAIL_MS, RTT_GAP_FAIL_RATIO) ? (fromPing ? 'fail' : 'warn') : over(RTT_GAP_WARN_MS, RTT_GAP_WARN_RATIO) ? 'warn' : 'pass'
  return { verdict, observed, expected: EXPECTED }
}

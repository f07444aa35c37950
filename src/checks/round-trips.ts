// Round trips: the page's own median to the service, and the TLS listener's TCP-handshake RTT
// against the end-to-end RTT of the same connection (./rtt-gap.ts), the classic test for a
// proxy that terminates TCP (SOCKS, HTTP CONNECT, Tor).

import type { VpnDetectorSignals } from '../../common/signals/vpn-detector'
import { describeAddress } from '../core/tools/network-evidence'
import { checkOn, na } from './define'
import { judgeRttGap, RTT_GAP_FAIL_MS, RTT_GAP_FAIL_RATIO, RTT_GAP_WARN_MS, RTT_GAP_WARN_RATIO, rttEvidenceOf } from './rtt-gap'

const rttCheck = checkOn<VpnDetectorSignals>()

export const inPageRtt = rttCheck({
  id: 'in-page-rtt',
  name: 'Round trip measured in the page',
  found: 'the round trip measured in the page is long',
  source: 'client',
  why: 'The median of five small requests from the page to the service. Through Tor or a distant VPN exit it is typically hundreds of milliseconds; above 400 ms warns. Satellite and poor mobile links are the false positives; the TCP-handshake comparison below is the decisive one.',
  expected: 'under 400 ms',
  needs: ['rtt'],
  judge: ({ rtt }) => {
    if (!rtt.samples.length) return na('no samples')
    return { verdict: rtt.medianMs > 400 ? 'warn' : 'pass', observed: `median ${rtt.medianMs} ms over ${rtt.samples.length} requests (${rtt.samples.join(', ')})${rtt.protocol ? ` over ${rtt.protocol}` : ''}` }
  },
})

export const rttVsTcpHandshake = rttCheck({
  id: 'rtt-vs-tcp-handshake',
  name: 'End-to-end RTT close to the TCP-handshake RTT',
  found: 'the end-to-end RTT is far above the TCP-handshake RTT',
  source: 'server',
  why: `A SOCKS or HTTP CONNECT proxy, and Tor, terminate TCP: the kernel's RTT of the TCP handshake, read by the service's TLS listener, is the round trip to the proxy, while HTTP/2 PINGs on the same connection are answered by the browser itself, through the proxy. So a PING round trip much longer than the handshake's means the connection is relayed. Fails when the PING RTT exceeds the handshake's by more than ${RTT_GAP_FAIL_MS} ms and is over ${RTT_GAP_FAIL_RATIO}× it; warns above ${RTT_GAP_WARN_MS} ms and ${RTT_GAP_WARN_RATIO}× (a closer proxy, or a busy browser). Both conditions are needed: on a long path jitter alone can add tens of milliseconds to the PINGs (the ratio guards that), and on a short path a handshake of microseconds makes any ratio large (the gap guards that). Without a PING answer the page's own median stands in, which only warns (another connection, with the server's handling time). A layer-3 VPN (WireGuard, OpenVPN, IPsec) carries the browser's own TCP to the service, so both round trips include the tunnel and this check cannot see it. False positives: links whose operator splits TCP (satellite accelerators, some mobile carriers' proxies), a link saturated by other traffic while the PINGs wait in its queue, and TLS_PORT behind a TCP-terminating forwarder on the service's side.`,
  ref: 'https://man7.org/linux/man-pages/man7/tcp.7.html',
  needs: [],
  uses: ['rtt'],
  judge: ({ rtt }, { server, raw, missing }) => {
    const ev = rttEvidenceOf(server)
    const gap = judgeRttGap(ev, rtt?.samples.length ? { medianMs: rtt.medianMs, samples: rtt.samples.length } : null, describeAddress(server.ip).scope)
    if (gap.verdict !== 'na') return gap
    const page = raw.tlsEvidence
    const reach = page === undefined || ev ? '' : page.ok ? (page.value.reached ? '' : '; the page could not reach it (an untrusted certificate or a blocked port)') : `; the page's connection to it: ${missing('tlsEvidence')}`
    return { ...na(`${gap.why}${reach}`), observed: gap.observed }
  },
})

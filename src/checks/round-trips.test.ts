import { describe, expect, test } from 'bun:test'
import type { VpnDetectorSignals } from '../../common/signals/vpn-detector'
import { runChecks } from '../core/judge'
import { inPageRtt, rttVsTcpHandshake } from './round-trips'

const rtt = (samples: number[]) => ({ ok: true as const, value: { samples, medianMs: [...samples].sort((a, b) => a - b)[samples.length >> 1] ?? 0, minMs: Math.min(...samples), protocol: 'h2' }, ms: 1 })
const signals = (over: Partial<VpnDetectorSignals>) => over as VpnDetectorSignals
const record = (tcp: number, ping: number | null) => [{ kind: 'http2', data: { rtt: { transport: 'h2', tcp_rtt_ms: tcp, h2_ping_rtt_ms: ping, ping_samples: ping === null ? [] : [ping] } }, observedAt: '2026-06-01T00:00:00+00:00' }]
const run = (s: VpnDetectorSignals, evidence?: ReturnType<typeof record>) => {
  const [page, gap] = runChecks([[inPageRtt, 10], [rttVsTcpHandshake, 30]], s, { ip: '81.2.69.23', userAgent: 'x', headers: [], receivedAt: 0, ...(evidence ? { nonce: 'valid' as const, evidence } : {}) }, {}).checks
  return { page: page!, gap: gap! }
}

describe('in-page-rtt and rtt-vs-tcp-handshake', () => {
  test('a short in-page round trip passes; above 400 ms warns; no samples is not applicable', () => {
    expect(run(signals({ rtt: rtt([20, 21, 22]) })).page).toMatchObject({ verdict: 'pass', observed: 'median 21 ms over 3 requests (20, 21, 22) over h2' })
    expect(run(signals({ rtt: rtt([450, 480, 500]) })).page.verdict).toBe('warn')
    expect(run(signals({ rtt: { ok: true, value: { samples: [], medianMs: 0, minMs: 0, protocol: null }, ms: 1 } })).page).toMatchObject({ verdict: 'na', expected: 'no samples' })
  })
  test('without the listener\'s record the gap check says why, and why the page did not reach it', () => {
    const r = run(signals({ rtt: rtt([20]), tlsEvidence: { ok: true, value: { port: 8443, nonce: 'a'.repeat(26), reached: false, ms: 5 }, ms: 5 } }))
    expect(r.gap).toMatchObject({ verdict: 'na', observed: 'in-page median 20 ms over 1 requests' })
    expect(r.gap.expected).toEndWith('; the page could not reach it (an untrusted certificate or a blocked port)')
    const off = run(signals({ tlsEvidence: { ok: false, error: { kind: 'unsupported', message: 'TLS_PORT is not set' }, ms: 1 } }))
    expect(off.gap.expected).toEndWith("; the page's connection to it: unsupported: TLS_PORT is not set")
  })
  test('a PING far slower than the TCP handshake fails', () => {
    expect(run(signals({}), record(9, 310)).gap).toMatchObject({ verdict: 'fail', points: 30 })
  })
})

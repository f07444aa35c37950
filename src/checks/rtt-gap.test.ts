import { describe, expect, test } from 'bun:test'
import type { RttRecord } from '../evidence/tls-records'
import { judgeRttGap, rttEvidenceOf } from './rtt-gap'

const rec = (tcp: number | null, ping: number | null, samples = ping === null ? [] : [ping]): RttRecord => ({ tcp_rtt_ms: tcp, h2_ping_rtt_ms: ping, ping_samples: samples, transport: 'h2' })
const item = (kind: string, data: unknown, source?: 'proxy') => ({ kind, data, observedAt: '2026-06-01T00:00:00+00:00', ...(source ? { source } : {}) })

describe('rttEvidenceOf', () => {
  test("reads the listener's http2 record, else its http1 record", () => {
    expect(rttEvidenceOf({ evidence: [item('tls', {}), item('http2', { akamai: 'x', rtt: rec(20, 24, [30, 24]) })] })).toEqual(rec(20, 24, [30, 24]))
    expect(rttEvidenceOf({ evidence: [item('http1', { version: 'HTTP/1.1', rtt: { ...rec(20, null), transport: 'http/1.1' } })] })).toMatchObject({ tcp_rtt_ms: 20, transport: 'http/1.1' })
  })

  test("of the page's connections, the one whose PINGs came closest to its handshake: a busy moment lengthens one, a relay every one", () => {
    // Over HTTPS: the page's own connection, timed while the browser loaded the page (a Firefox person beside stress-ng), and its /evidence side connection.
    const busy = item('http2', { akamai: 'x', path: '/tools/vpn-detector', rtt: rec(0.021, 377.4, [377.4, 402, 391]) })
    const side = item('http2', { akamai: 'x', path: '/evidence/x', rtt: rec(0.03, 0.6, [0.6, 0.9]) })
    expect(rttEvidenceOf({ evidence: [item('tls', {}), busy, item('tls', {}), side] })).toEqual(rec(0.03, 0.6, [0.6, 0.9]))
    expect(judgeRttGap(rttEvidenceOf({ evidence: [busy, side] }), null, 'loopback').verdict).toBe('pass')
    // A relay lengthens both: still judged, still failed.
    const relayed = [item('http2', { rtt: rec(0.5, 240) }), item('http2', { rtt: rec(0.4, 236) })]
    expect(rttEvidenceOf({ evidence: relayed })).toEqual(rec(0.4, 236))
    expect(judgeRttGap(rttEvidenceOf({ evidence: relayed }), null, 'loopback').verdict).toBe('fail')
  })

  test("none without a record, from a proxy's headers, from an older record without rtt, or from an odd shape", () => {
    expect(rttEvidenceOf({})).toBeNull()
    expect(rttEvidenceOf({ evidence: [item('http2', { akamai: 'x', rtt: rec(20, 24) }, 'proxy')] })).toBeNull()
    expect(rttEvidenceOf({ evidence: [item('http2', { akamai: 'x' })] })).toBeNull()
    for (const rtt of [null, 'x', { tcp_rtt_ms: '20', h2_ping_rtt_ms: 1 }, { tcp_rtt_ms: -1, h2_ping_rtt_ms: 1 }, { tcp_rtt_ms: 1, h2_ping_rtt_ms: Number.NaN }]) {
      expect(rttEvidenceOf({ evidence: [item('http2', { rtt })] })).toBeNull()
    }
  })
})

describe('judgeRttGap', () => {
  test('no record: na, naming the TLS listener', () => {
    const r = judgeRttGap(null, { medianMs: 20, samples: 5 }, 'public')
    expect(r).toMatchObject({ verdict: 'na', observed: 'in-page median 20 ms over 5 requests' })
    expect(r.verdict === 'na' && r.why).toContain('TLS_PORT')
  })

  test('no TCP RTT (not Linux) or no end-to-end RTT at all: na with the reason', () => {
    expect(judgeRttGap(rec(null, 20), null, 'public')).toMatchObject({ verdict: 'na', why: expect.stringContaining('Linux only') })
    expect(judgeRttGap(rec(20, null), null, 'public')).toMatchObject({ verdict: 'na', why: expect.stringContaining('no HTTP/2 PING') })
  })

  test('close round trips pass: loopback, a nearby and a distant user', () => {
    expect(judgeRttGap(rec(0.016, 0.09), null, 'loopback').verdict).toBe('pass')
    expect(judgeRttGap(rec(12, 14), null, 'public').verdict).toBe('pass')
    // A far user: both long; jitter adds tens of ms, but the ratio stays small.
    expect(judgeRttGap(rec(180, 250), null, 'public').verdict).toBe('pass')
  })

  test('a TCP-terminating proxy far from its user fails, with both numbers and their sources', () => {
    const r = judgeRttGap(rec(8.5, 240.25, [260, 240.25, 251]), null, 'public')
    expect(r.verdict).toBe('fail')
    expect(r.observed).toBe('TCP handshake 8.5 ms (kernel, TLS listener); HTTP/2 PING 240.3 ms (fastest of 3, same connection); gap 231.8 ms')
  })

  test('a smaller clear gap warns; a large gap on a long path needs the ratio too', () => {
    expect(judgeRttGap(rec(20, 90), null, 'public').verdict).toBe('warn')
    // 120 ms more, but only 1.6× a 200 ms handshake: what jitter does to a distant user.
    expect(judgeRttGap(rec(200, 320), null, 'public').verdict).toBe('pass')
    expect(judgeRttGap(rec(100, 250), null, 'public').verdict).toBe('warn')
  })

  test("without a PING answer the page's median stands in and only warns", () => {
    const r = judgeRttGap(rec(5, null), { medianMs: 300, samples: 5 }, 'public')
    expect(r.verdict).toBe('warn')
    expect(r.observed).toContain('in-page median 300 ms (fetches from the page')
    expect(judgeRttGap(rec(5, null), { medianMs: 9, samples: 5 }, 'public').verdict).toBe('pass')
  })

  test('a sub-millisecond handshake from a public address is a forwarder on this host, not the client: na', () => {
    const r = judgeRttGap(rec(0.03, 45), null, 'public')
    expect(r.verdict).toBe('na')
    expect(r.verdict === 'na' && r.why).toContain('terminates TCP')
    // The same on loopback is simply a local client.
    expect(judgeRttGap(rec(0.03, 0.1), null, 'loopback').verdict).toBe('pass')
  })
})

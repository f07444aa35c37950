// vpn-detector's WebRTC check once the STUN/TURN listener filed the browser's UDP source
// under the page nonce (src/listeners/stun.ts): the service's observation decides.
import { describe, expect, test } from 'bun:test'
import type { ServerObservation } from './observation'
import type { VpnDetectorSignals } from '../../../common/signals/vpn-detector'
import { vpnDetector } from './vpn-detector'
import { ok } from '../../../tests/support/signals'

const MDNS = 'candidate:1 1 udp 2113937151 84ce2050-4a6f-4292-ac6b-10002bbebe5b.local 48666 typ host generation 0'
const SERVERS = ['turn:antibot.example:3478?transport=udp', 'stun:antibot.example:3478']
const signals = (lines: string[]): VpnDetectorSignals => ({
  ice: ok({ candidates: lines, sdp: lines.map((l) => `a=${l}`).join('\r\n'), gathering: 'complete' as const, gatheringMs: 150, errors: [], servers: SERVERS }),
  zone: ok({ timeZone: 'Europe/Berlin', locale: 'de-DE', calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h23', language: 'de-DE', languages: ['de-DE', 'de'] }),
  languages: ok({ language: 'de-DE', languages: ['de-DE', 'de'] }),
  rtt: ok({ samples: [20, 21, 22], medianMs: 21, minMs: 20, protocol: 'http/1.1' }),
  lookups: { ok: false, error: { kind: 'unsupported', message: 'no DNS zone configured (DNS_ZONE)' }, ms: 0 },
})
const turn = (address: string) => ({ kind: 'turn', data: { address, port: 50000, family: 'IPv4', transport: 'udp', requestedTransport: 17, realm: 'antibot', software: null }, observedAt: '2026-06-01T00:00:00+00:00' })
const obs = (ip: string, evidence: ServerObservation['evidence'], nonce: ServerObservation['nonce'] = 'valid'): ServerObservation => ({
  ip, userAgent: 'Mozilla/5.0', headers: [['accept-language', 'de-DE,de;q=0.9']], receivedAt: Date.UTC(2026, 5, 1), nonce, evidence,
})
const webrtc = (s: VpnDetectorSignals, o: ServerObservation) => vpnDetector.judge(s, o).checks.find((c) => c.id === 'webrtc-vs-http')!

describe('vpn-detector with TURN evidence', () => {
  test('UDP from the HTTP address: the check passes and is the server’s', () => {
    const c = webrtc(signals([MDNS]), obs('81.2.69.23', [turn('81.2.69.23')]))
    expect([c.verdict, c.source]).toEqual(['pass', 'server'])
    expect(c.observed).toMatchObject({ seenByService: ['81.2.69.23:50000/udp'], http: '81.2.69.23' })
  })

  test('UDP from another public address fails, even when the page reported only mDNS names', () => {
    const c = webrtc(signals([MDNS]), obs('185.65.134.77', [turn('81.2.69.23')]))
    expect([c.verdict, c.source]).toEqual(['fail', 'server'])
  })

  test('a leak among the page’s candidates still fails when TURN saw the HTTP address', () => {
    const v6 = 'candidate:2 1 udp 2122262783 2a01:e0a:1:2::5 56144 typ host generation 0'
    expect(webrtc(signals([v6]), obs('81.2.69.23', [turn('81.2.69.23')])).verdict).toBe('fail')
  })

  test('no TURN evidence, or no valid nonce: the page’s own check, as before', () => {
    expect(webrtc(signals([MDNS]), obs('81.2.69.23', [])).source).toBe('client')
    expect(webrtc(signals([MDNS]), obs('185.65.134.77', [turn('81.2.69.23')], 'used')).source).toBe('client')
  })
})

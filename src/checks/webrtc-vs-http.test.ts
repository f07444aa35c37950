import { describe, expect, test } from 'bun:test'
import type { ServerObservation } from '../core/tools/observation'
import { runChecks } from '../core/judge'
import { webrtcVsHttp, type IceSignals } from './webrtc-vs-http'

const MDNS = 'candidate:1 1 udp 2113937151 84ce2050-4a6f-4292-ac6b-10002bbebe5b.local 48666 typ host generation 0'
const PUBLIC = 'candidate:2 1 udp 2122260223 81.2.69.160 54400 typ host generation 0'
const ice = (lines: string[]): IceSignals => ({ ice: { ok: true, value: { candidates: lines, sdp: lines.map((l) => `a=${l}`).join('\r\n'), gathering: 'complete', gatheringMs: 150, errors: [] }, ms: 1 } })
const turn = (address: string) => ({ kind: 'turn', data: { address, port: 50000, family: 'IPv4', transport: 'udp', requestedTransport: 17, realm: 'antibot', software: null }, observedAt: '2026-06-01T00:00:00+00:00' })
const obs = (ip: string, evidence?: ServerObservation['evidence']): ServerObservation => ({ ip, userAgent: 'x', headers: [], receivedAt: 0, ...(evidence ? { nonce: 'valid' as const, evidence } : {}) })
const run = (s: IceSignals, o: ServerObservation) => runChecks([[webrtcVsHttp, 60]], s, o, {}).checks[0]!

describe('webrtc-vs-http', () => {
  test('passes mDNS-only candidates, saying what was gathered', () => {
    expect(run(ice([MDNS]), obs('81.2.69.23'))).toMatchObject({ verdict: 'pass', source: 'client', observed: 'no public address (1 candidate(s), 1 of 1 host candidate(s) behind mDNS names)' })
  })
  test('fails a public address outside the HTTP address network, naming both', () => {
    expect(run(ice([MDNS, PUBLIC]), obs('185.220.101.4'))).toMatchObject({ verdict: 'fail', points: 60, observed: { webrtc: ['81.2.69.160'], http: '185.220.101.4' } })
  })
  test('is not applicable when ICE gathering did not run', () => {
    const r = run({ ice: { ok: false, error: { kind: 'unsupported', message: 'no RTCPeerConnection' }, ms: 1 } }, obs('81.2.69.23'))
    expect(r).toMatchObject({ verdict: 'na', expected: 'ICE gathering did not run (unsupported: no RTCPeerConnection): nothing can leak through WebRTC' })
  })
  test("the TURN listener's observation decides with the page's candidates, and the check is then the server's", () => {
    expect(run(ice([MDNS]), obs('185.65.134.77', [turn('81.2.69.23')]))).toMatchObject({ verdict: 'fail', source: 'server', observed: { seenByService: ['81.2.69.23:50000/udp'], http: '185.65.134.77' } })
    expect(run(ice([PUBLIC]), obs('81.2.69.23', [turn('81.2.69.23')]))).toMatchObject({ verdict: 'fail', source: 'server' })
  })
})

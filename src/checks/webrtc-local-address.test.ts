import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import { webrtcLocalAddress } from './webrtc-local-address'
import type { IceSignals } from './webrtc-vs-http'

const ice = (lines: string[]): IceSignals => ({ ice: { ok: true, value: { candidates: lines, sdp: '', gathering: 'complete', gatheringMs: 150, errors: [] }, ms: 1 } })
const run = (s: IceSignals) => runChecks([[webrtcLocalAddress, 20]], s, { ip: '81.2.69.23', userAgent: 'x', headers: [], receivedAt: 0 }, {}).checks[0]!

describe('webrtc-local-address', () => {
  test('mDNS host names pass', () => {
    expect(run(ice(['candidate:1 1 udp 2113937151 84ce2050-4a6f-4292-ac6b-10002bbebe5b.local 48666 typ host generation 0']))).toMatchObject({ verdict: 'pass', observed: '1 candidate(s), 1 of 1 host candidate(s) behind mDNS names' })
  })
  test('a raw private address warns, named with its scope', () => {
    expect(run(ice(['candidate:2 1 udp 2122194687 192.168.1.20 54401 typ host generation 0']))).toMatchObject({ verdict: 'warn', points: 10, observed: '192.168.1.20 (private)' })
  })
})

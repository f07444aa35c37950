import { describe, expect, test } from 'bun:test'
import type { RtcApi, WebrtcLeakSignals } from '../../common/signals/webrtc-leak'
import { runChecks } from '../core/judge'
import { nativeApi, server } from '../core/tools/webrtc-leak.fixture'
import { webrtcApi } from './webrtc-api'

const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
const api = (o: Partial<RtcApi>) => ({ ok: true as const, ms: 0, value: { ...nativeApi.value, ...o } })
const run = (s: Partial<WebrtcLeakSignals>, ua?: string) => runChecks([[webrtcApi, 10]], s as WebrtcLeakSignals, server('81.2.69.160', ua), {}).checks[0]!

describe('webrtc-api', () => {
  test("passes a person's Chrome and Firefox with the native constructor", () => {
    expect(run({ api: nativeApi })).toMatchObject({ verdict: 'pass', points: 0, observed: 'RTCPeerConnection (native)' })
    expect(run({ api: nativeApi }, FIREFOX_UA).verdict).toBe('pass')
  })

  test('Firefox with media.peerconnection.enabled off only warns', () => {
    const r = run({ api: api({ peerConnection: false, dataChannel: false, native: false }) }, FIREFOX_UA)
    expect(r).toMatchObject({ verdict: 'warn', points: 5, observed: 'no RTCPeerConnection' })
  })

  test('names a prefixed constructor when only that one exists', () => {
    expect(run({ api: api({ peerConnection: false, prefixed: 'webkitRTCPeerConnection', native: false }) }).observed).toBe('no RTCPeerConnection, only webkitRTCPeerConnection')
  })

  test('a constructor replaced by a stealth script or extension warns', () => {
    expect(run({ api: api({ native: false }) })).toMatchObject({ verdict: 'warn', observed: 'RTCPeerConnection replaced by a script (source is not [native code])' })
  })

  test('is na with the reason when the probe did not answer', () => {
    expect(run({ api: { ok: false, ms: 3000, error: { kind: 'timeout', message: 'no answer within 3000 ms' } } })).toMatchObject({ verdict: 'na', expected: 'timeout: no answer within 3000 ms' })
  })
})

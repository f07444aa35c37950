import { describe, expect, test } from 'bun:test'
import type { WebrtcLeakSignals } from '../../common/signals/webrtc-leak'
import { runChecks } from '../core/judge'
import { devices, server } from '../core/tools/webrtc-leak.fixture'
import { mediaDevicesListed } from './media-devices-listed'

const run = (mediaDevices: WebrtcLeakSignals['mediaDevices'] | undefined) => runChecks([[mediaDevicesListed, 10]], { mediaDevices } as WebrtcLeakSignals, server('81.2.69.160'), {}).checks[0]!

describe('media-devices', () => {
  test("passes a person's Chrome laptop: a microphone, a camera and speakers", () => {
    expect(run(devices(1, 1, 1))).toMatchObject({ verdict: 'pass', source: 'client', observed: '1 microphone(s), 1 camera(s), 1 audio output(s)', expected: 'at least one device kind' })
  })

  test('passes Firefox on a desktop without a camera', () => {
    expect(run(devices(1, 0, 0))).toMatchObject({ verdict: 'pass', observed: '1 microphone(s), 0 camera(s), 0 audio output(s)' })
  })

  test('says when labels show an earlier permission', () => {
    expect(run(devices(2, 3, 1, 6)).observed).toBe('2 microphone(s), 1 camera(s), 3 audio output(s), 6 with labels (permission granted earlier)')
  })

  test('counts devices of other kinds', () => {
    expect(run({ ok: true, ms: 3, value: { audioinput: 0, audiooutput: 0, videoinput: 0, other: 1, labelled: 0 } }).verdict).toBe('pass')
  })

  test('only warns on an empty list (headless Chromium in a container), for half the weight', () => {
    expect(run(devices(0, 0, 0))).toMatchObject({ verdict: 'warn', points: 5, observed: '0 microphone(s), 0 camera(s), 0 audio output(s)' })
  })

  test('is not applicable without the signal, saying why', () => {
    expect(run({ ok: false, ms: 1, error: { kind: 'unsupported', message: 'no navigator.mediaDevices' } })).toMatchObject({ verdict: 'na', expected: 'unsupported: no navigator.mediaDevices' })
    expect(run(undefined)).toMatchObject({ verdict: 'na', expected: 'not collected' })
  })
})

// The audio fingerprint of FingerprintJS (https://fingerprint.com/blog/audio-fingerprinting/,
// after https://github.com/cozylife/audio-fingerprint): an OfflineAudioContext renders a
// 10 kHz triangle wave through a DynamicsCompressor; the sum of |sample| over frames
// 4500..5000 depends on the engine's DSP code, the CPU's floating-point path and the build,
// not on the sound card (nothing is played). Noise is what anti-fingerprinting adds: Brave
// scales samples by a per-session factor, Safari 17+ adds per-render noise in private mode,
// so the render is done twice and a known signal is passed through untouched (known answer).

import type { AudioContextInfo, AudioKnownAnswer, AudioSum } from '../../common/signals/audio-fingerprint'
import { ProbeError } from '../core/probe-error'

type Ctx = OfflineAudioContext

function offline(channels: number, length: number, rate: number): Ctx {
  const C = window.OfflineAudioContext || (window as unknown as { webkitOfflineAudioContext?: typeof OfflineAudioContext }).webkitOfflineAudioContext
  if (!C) throw new ProbeError('unsupported', 'no OfflineAudioContext')
  return new C(channels, length, rate)
}

/**
 * Renders and resolves with the buffer. Some WebKit builds leave a context 'suspended' after
 * startRendering (a background tab on iOS); FingerprintJS retries, so do we.
 */
function render(ctx: Ctx): Promise<AudioBuffer> {
  return new Promise((resolve, reject) => {
    let tries = 0
    ctx.oncomplete = (ev) => resolve(ev.renderedBuffer)
    const start = () => {
      try {
        const p = ctx.startRendering()
        // Promise form in current engines; swallow its rejection, the event decides.
        if (p && typeof p.catch === 'function') p.catch(reject)
      } catch (e) {
        reject(e)
        return
      }
      setTimeout(() => {
        if (ctx.state === 'suspended' && ++tries < 3) start()
      }, 300)
    }
    start()
  })
}

export async function audioSum(): Promise<AudioSum> {
  const ctx = offline(1, 5000, 44100)
  const osc = ctx.createOscillator()
  osc.type = 'triangle'
  osc.frequency.value = 10000
  const comp = ctx.createDynamicsCompressor()
  comp.threshold.value = -50
  comp.knee.value = 40
  comp.ratio.value = 12
  comp.attack.value = 0
  comp.release.value = 0.25
  osc.connect(comp)
  comp.connect(ctx.destination)
  osc.start(0)
  const buffer = await render(ctx)
  const sumOf = (a: ArrayLike<number>) => {
    let s = 0
    for (let i = 4500; i < 5000; i++) s += Math.abs(a[i]!)
    return s
  }
  let copySum: number | null = null
  if (typeof buffer.copyFromChannel === 'function') {
    const copy = new Float32Array(5000)
    buffer.copyFromChannel(copy, 0)
    copySum = sumOf(copy)
  }
  const r = comp.reduction as unknown
  const reduction = typeof r === 'number' ? r : typeof (r as { value?: unknown })?.value === 'number' ? (r as { value: number }).value : null
  return { sum: sumOf(buffer.getChannelData(0)), copySum, reduction }
}

/**
 * A buffer of exactly representable values played through an AudioBufferSourceNode straight
 * into the destination: at the context's own rate this is a copy, bit for bit, in every
 * engine, so any change is noise added to the read-back.
 */
export async function audioKnownAnswer(): Promise<AudioKnownAnswer> {
  const n = 512
  const ctx = offline(1, n, 44100)
  const input = ctx.createBuffer(1, n, 44100)
  const data = input.getChannelData(0)
  for (let i = 0; i < n; i++) data[i] = ((i % 64) - 32) / 64
  const src = ctx.createBufferSource()
  src.buffer = input
  src.connect(ctx.destination)
  src.start(0)
  const out = (await render(ctx)).getChannelData(0)
  let wrong = 0
  let maxDelta = 0
  for (let i = 0; i < n; i++) {
    const d = Math.abs(out[i]! - ((i % 64) - 32) / 64)
    if (d) wrong++
    if (d > maxDelta) maxDelta = d
  }
  return { samples: n, wrong, maxDelta }
}

/**
 * The real output device as an AudioContext describes it (FingerprintJS audioBaseLatency).
 * Created without a user gesture it stays 'suspended', which is fine for reading properties.
 */
export async function audioContextInfo(): Promise<AudioContextInfo> {
  const C = window.AudioContext || (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext
  if (!C) throw new ProbeError('unsupported', 'no AudioContext')
  const ctx = new C()
  try {
    return { sampleRate: ctx.sampleRate, maxChannelCount: ctx.destination.maxChannelCount, baseLatency: typeof ctx.baseLatency === 'number' ? ctx.baseLatency : null, state: ctx.state }
  } finally {
    void ctx.close().catch(() => undefined)
  }
}

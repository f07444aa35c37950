// The audio fingerprint of FingerprintJS (https://fingerprint.com/blog/audio-fingerprinting/,
// after https://github.com/cozylife/audio-fingerprint): an OfflineAudioContext renders a
// 10 kHz triangle wave through a DynamicsCompressor; the sum of |sample| over frames
// 4500..5000 depends on the engine's DSP code, the CPU's floating-point path and the build,
// not on the sound card (nothing is played). Noise is what anti-fingerprinting adds: Brave
// scales samples by a per-session factor, Safari 17+ adds per-render noise in private mode,
// so the render is done twice and a known signal is passed through untouched (known answer).

import type { AudioContextInfo, AudioKnownAnswer, AudioPlot, AudioSum } from '../../common/signals/audio-fingerprint'
import { PLOT_BANDS, PLOT_ENVELOPE, PLOT_SAMPLES } from '../../common/picture-limits'
import { canonicalJson } from '../../common/hash'
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
  return (await renderSum()).sum
}

async function renderSum(): Promise<{ sum: AudioSum; data: Float32Array; sampleRate: number }> {
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
  const data = buffer.getChannelData(0)
  return { sum: { sum: sumOf(data), copySum, reduction }, data, sampleRate: buffer.sampleRate }
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits

/** The rendered signal as AudioPlotSchema keeps it: samples from frame 4500, the envelope, the spectrum of the last 512 frames. */
export function audioPlot(data: Float32Array, sampleRate: number): AudioPlot {
  const from = 4500
  const samples = Array.from(data.subarray(from, from + PLOT_SAMPLES), (v) => round(v, 4))
  const envelope: number[] = []
  const step = data.length / PLOT_ENVELOPE
  for (let i = 0; i < PLOT_ENVELOPE; i++) {
    let peak = 0
    for (let j = Math.floor(i * step); j < Math.floor((i + 1) * step); j++) peak = Math.max(peak, Math.abs(data[j]!))
    envelope.push(round(peak, 4))
  }
  // A 512-point DFT with a Hann window: 256 bins of sampleRate/512, the peak of each 4 a band.
  const N = 512
  const win = data.subarray(data.length - N)
  const cos = new Float64Array(N)
  const sin = new Float64Array(N)
  for (let i = 0; i < N; i++) {
    cos[i] = Math.cos((2 * Math.PI * i) / N)
    sin[i] = Math.sin((2 * Math.PI * i) / N)
  }
  const spectrum: number[] = []
  const perBand = N / 2 / PLOT_BANDS
  for (let band = 0; band < PLOT_BANDS; band++) {
    let peak = 0
    for (let k = band * perBand; k < (band + 1) * perBand; k++) {
      let re = 0
      let im = 0
      for (let n = 0; n < N; n++) {
        const x = win[n]! * (0.5 - 0.5 * cos[n]!)
        re += x * cos[(k * n) % N]!
        im -= x * sin[(k * n) % N]!
      }
      peak = Math.max(peak, (2 * Math.hypot(re, im)) / (N / 2))
    }
    spectrum.push(round(Math.max(-120, 20 * Math.log10(peak || 1e-12)), 1))
  }
  return { from, sampleRate, samples, envelope, spectrum }
}

/** The sum rendered twice, as readTwice(audioSum) reports it, with a plot of the first render. */
export async function audioPictured(): Promise<{ value: AudioSum; again?: AudioSum; plot: AudioPlot }> {
  const a = await renderSum()
  const b = await renderSum()
  const plot = audioPlot(a.data, a.sampleRate)
  return canonicalJson(a.sum) === canonicalJson(b.sum) ? { value: a.sum, plot } : { value: a.sum, again: b.sum, plot }
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

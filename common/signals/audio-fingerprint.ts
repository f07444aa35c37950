// audio-fingerprint: what probes/signals/audio.ts reports (probes/entries/audio-fingerprint.ts).

import { Type, type Static } from '@sinclair/typebox'
import { NNum, Num, Str } from '../shorthands'
import { Signal } from '../signal'
import { JsEngineSchema } from './shared'

export const AudioSumSchema = Type.Object({
  /** Σ|sample| over frames 4500..4999 from getChannelData (the FingerprintJS value). */
  sum: Num,
  /** The same sum from copyFromChannel; null where copyFromChannel is missing. */
  copySum: NNum,
  /** DynamicsCompressorNode.reduction after rendering (CreepJS keys its table on it). */
  reduction: NNum,
})
export type AudioSum = Static<typeof AudioSumSchema>

import { PLOT_BANDS, PLOT_ENVELOPE, PLOT_SAMPLES } from '../picture-limits'

export { PLOT_BANDS, PLOT_ENVELOPE, PLOT_SAMPLES }

/**
 * The rendered signal, small enough to keep: samples from frame `from` on (the start of the
 * window the sum adds up), the peak |sample| over each of PLOT_ENVELOPE stretches of the whole
 * render (the compressor's attack shows), and the spectrum of the last 512 frames (Hann
 * window) in PLOT_BANDS bands up to half the sample rate, in dB (peak per band, -120 at least).
 */
export const AudioPlotSchema = Type.Object({
  from: Type.Integer({ minimum: 0 }),
  sampleRate: Num,
  samples: Type.Array(Num, { maxItems: PLOT_SAMPLES }),
  envelope: Type.Array(Num, { maxItems: PLOT_ENVELOPE }),
  spectrum: Type.Array(Num, { maxItems: PLOT_BANDS }),
})
export type AudioPlot = Static<typeof AudioPlotSchema>

export const AudioKnownAnswerSchema = Type.Object({
  samples: Type.Integer(),
  /** Samples that did not come back exactly as given. */
  wrong: Type.Integer(),
  maxDelta: Num,
})
export type AudioKnownAnswer = Static<typeof AudioKnownAnswerSchema>

export const AudioContextInfoSchema = Type.Object({ sampleRate: Num, maxChannelCount: Num, baseLatency: NNum, state: Str(20) })
export type AudioContextInfo = Static<typeof AudioContextInfoSchema>

export const AudioFingerprintSignals = Type.Object({
  /** Rendered twice; `again` only when the second render differed; `plot` of the first (optional: pages from before it do not send it). */
  audio: Signal(Type.Object({ value: AudioSumSchema, again: Type.Optional(AudioSumSchema), plot: Type.Optional(AudioPlotSchema) })),
  knownAnswer: Signal(AudioKnownAnswerSchema),
  context: Signal(AudioContextInfoSchema),
  /** probes/signals/js-engine.ts: the engine the page runs on, told by its error messages, which the engine-dependent checks judge by. Optional: pages from before this signal do not send it. */
  engine: Type.Optional(Signal(JsEngineSchema)),
})
export type AudioFingerprintSignals = Static<typeof AudioFingerprintSignals>

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
  /** Rendered twice; `again` only when the second render differed. */
  audio: Signal(Type.Object({ value: AudioSumSchema, again: Type.Optional(AudioSumSchema) })),
  knownAnswer: Signal(AudioKnownAnswerSchema),
  context: Signal(AudioContextInfoSchema),
  /** probes/signals/js-engine.ts: the engine the page runs on, told by its error messages, which the engine-dependent checks judge by. Optional: pages from before this signal do not send it. */
  engine: Type.Optional(Signal(JsEngineSchema)),
})
export type AudioFingerprintSignals = Static<typeof AudioFingerprintSignals>

// audio-fingerprint: the FingerprintJS audio sum and whether it can be trusted (src/checks/audio-integrity.ts).

import { Type } from '@sinclair/typebox'
import { NNum, NStr } from '../../../common/shorthands'
import { AudioFingerprintSignals } from '../../../common/signals/audio-fingerprint'
import { classifyAudioSum } from '../../checks/audio-sums'
import { audioAvailable, audioChannelCopy, audioContext, audioEngine, audioKnownAnswer, audioStable, audioSumKnown, cleanSum } from '../../checks/audio-integrity'
import { signalValue } from '../../../common/signal'
import { defineTool } from './types'

export const AudioFingerprintSections = Type.Object({
  audio: Type.Object({
    sum: Type.Union([Type.Number(), Type.Null()], { description: 'The FingerprintJS value; null when noised (not an identity then).' }),
    stable: Type.Union([Type.Boolean(), Type.Null()]),
    farbling: Type.Union([Type.Literal('none'), Type.Literal('noise'), Type.Literal('unknown')]),
    cluster: NStr(64),
    knownValue: Type.Boolean({ description: 'The sum equals a value seen in the wild.' }),
    sampleRate: NNum,
  }),
})

export const audioFingerprint = defineTool({
  id: 'audio-fingerprint',
  signals: AudioFingerprintSignals,
  sections: AudioFingerprintSections,
  checks: [
    [audioAvailable, 16],
    [audioStable, 30],
    [audioChannelCopy, 25],
    [audioKnownAnswer, 30],
    [audioSumKnown, 12],
    [audioEngine, 30],
    [audioContext, 8],
  ],
  addSections(s) {
    const a = signalValue(s.audio)
    const ka = signalValue(s.knownAnswer)
    const stable = a ? a.again === undefined : null
    const sum = a ? cleanSum(a, ka) : null
    const cls = sum === null ? null : classifyAudioSum(sum)
    const farbling = stable === false || (!!ka && ka.wrong > 0) ? 'noise' : stable && ka ? 'none' : 'unknown'
    return {
      audio: { sum: a && farbling !== 'noise' ? a.value.sum : null, stable, farbling, cluster: cls?.cluster?.id ?? null, knownValue: !!cls?.exact, sampleRate: signalValue(s.context)?.sampleRate ?? null },
    }
  },
})

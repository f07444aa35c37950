// audio-fingerprint: the FingerprintJS audio sum and whether it can be trusted: rendered twice
// (per-render noise, Safari 17+), getChannelData against copyFromChannel (a patched read),
// a known signal passed through untouched (Brave's session-stable farbling), and the sum
// against the table of known values per engine (src/core/tools/audio-sums.ts) for the engine
// the User-Agent header claims.

import { Type, type Static } from '@sinclair/typebox'
import { check, type Check, type CheckDef } from '../checks'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { engineClaim } from '../../../common/user-agent'
import { audioFitsEngine, classifyAudioSum } from './audio-sums'
import type { ServerObservation } from './observation'
import { defineTool } from './types'

const NNum = Type.Union([Type.Number(), Type.Null()])
const Sum = Type.Object({ sum: Type.Number(), copySum: NNum, reduction: NNum })

export const AudioFingerprintSignals = Type.Object({
  /** Rendered twice; `again` only when the second render differed. */
  audio: Signal(Type.Object({ value: Sum, again: Type.Optional(Sum) })),
  knownAnswer: Signal(Type.Object({ samples: Type.Integer(), wrong: Type.Integer(), maxDelta: Type.Number() })),
  context: Signal(Type.Object({ sampleRate: Type.Number(), maxChannelCount: Type.Number(), baseLatency: NNum, state: Type.String({ maxLength: 20 }) })),
})
export type AudioFingerprintSignals = Static<typeof AudioFingerprintSignals>

const NStr = Type.Union([Type.String(), Type.Null()])
export const AudioFingerprintSections = Type.Object({
  audio: Type.Object({
    sum: Type.Union([Type.Number(), Type.Null()], { description: 'The FingerprintJS value; null when noised (not an identity then).' }),
    stable: Type.Union([Type.Boolean(), Type.Null()]),
    farbling: Type.Union([Type.Literal('none'), Type.Literal('noise'), Type.Literal('unknown')]),
    cluster: NStr,
    knownValue: Type.Boolean({ description: 'The sum equals a value seen in the wild.' }),
    sampleRate: NNum,
  }),
})

const DEFS = {
  available: { id: 'audio-available', name: 'OfflineAudioContext renders', source: 'client', weight: 16, why: 'Every current browser renders an OfflineAudioContext without a user gesture. No rendering means the API is disabled or blocked (Tor, privacy extensions) or stuck (old iOS Safari in a background tab).' },
  stable: { id: 'audio-stable', name: 'Two renders give the same sum', source: 'client', weight: 30, why: 'The rendering is deterministic: the same graph gives the same samples every time. A different second sum is noise added per render (Safari 17+ Advanced Fingerprinting Protection, extensions): farbling detected, and the sum is not an identity.' },
  channelCopy: { id: 'audio-channel-copy', name: 'getChannelData and copyFromChannel agree', source: 'client', weight: 25, why: 'Both read the same rendered buffer. Extensions that spoof audio often patch only getChannelData (the FingerprintJS read), so copyFromChannel still shows the real samples (CreepJS checks the same).' },
  knownAnswer: { id: 'audio-known-answer', name: 'A known signal passes through unchanged', source: 'client', weight: 30, why: 'A buffer of exact values played straight into the destination at the context’s own rate is copied bit for bit by every engine. Changed samples are read-back farbling, including Brave’s, which is stable per session and so escapes the two-render test.' },
  known: { id: 'audio-sum-known', name: 'The sum is a known value', source: 'server', weight: 12, why: 'Sums cluster by engine, CPU and OS build (Blink ≈ 124.04/124.08, Gecko ≈ 35.74, WebKit ≈ 35.11). A sum in no known cluster is a new build or CPU, or a modified audio stack; informative only, so at most a small warning.' },
  engine: { id: 'audio-engine', name: 'The sum fits the claimed engine', source: 'server', weight: 30, why: 'Blink’s compressor output sums to about 124, Gecko’s and WebKit’s to about 35.7 and 35.1. A sum from another engine’s cluster than the one the User-Agent header names means the User-Agent lies about the browser. It fails only on that confident case; an unknown sum does not count here.' },
  context: { id: 'audio-context', name: 'The audio device looks real', source: 'client', weight: 8, why: 'An AudioContext reports the output device’s sample rate (44.1 or 48 kHz on almost every device) and channel count. Odd rates or no channels suggest no audio device at all: servers, containers, some headless setups, and desktops with audio disabled.' },
} as const satisfies Record<string, CheckDef>

const COMMON_RATES = [44100, 48000, 88200, 96000, 176400, 192000, 16000, 22050, 24000, 32000]

export const audioFingerprint = defineTool({
  id: 'audio-fingerprint',
  signals: AudioFingerprintSignals,
  sections: AudioFingerprintSections,
  judge(s: AudioFingerprintSignals, server: ServerObservation) {
    const checks: Check[] = []
    const na = (def: CheckDef, why: string) => check(def, { verdict: 'na', observed: null, expected: why })
    const a = valueOf(s.audio)
    const ka = valueOf(s.knownAnswer)
    const stable = a ? a.again === undefined : null
    const noisyKa = !!ka && ka.wrong > 0
    const claimed = engineClaim(server.userAgent)

    checks.push(
      a
        ? check(DEFS.available, { verdict: 'pass', observed: `sum ${a.value.sum}`, expected: 'a rendered buffer' })
        : check(DEFS.available, { verdict: 'warn', observed: whyMissing(s.audio), expected: 'a rendered buffer' }),
    )

    if (a) {
      checks.push(check(DEFS.stable, { verdict: stable ? 'pass' : 'warn', observed: stable ? `both renders ${a.value.sum}` : `farbling detected: ${a.value.sum} then ${a.again!.sum}`, expected: 'the same sum twice' }))
      const { sum, copySum } = a.value
      checks.push(
        copySum === null
          ? na(DEFS.channelCopy, 'no AudioBuffer.copyFromChannel in this engine')
          : check(DEFS.channelCopy, { verdict: copySum === sum ? 'pass' : 'fail', observed: copySum === sum ? `both ${sum}` : { getChannelData: sum, copyFromChannel: copySum }, expected: 'the same sum from both reads' }),
      )
    } else checks.push(na(DEFS.stable, whyMissing(s.audio)), na(DEFS.channelCopy, whyMissing(s.audio)))

    checks.push(
      ka
        ? check(DEFS.knownAnswer, { verdict: ka.wrong ? 'warn' : 'pass', observed: ka.wrong ? `farbling detected: ${ka.wrong} of ${ka.samples} samples changed, by up to ${ka.maxDelta}` : `all ${ka.samples} samples exact`, expected: 'every sample exactly as given' })
        : na(DEFS.knownAnswer, whyMissing(s.knownAnswer)),
    )

    // The table, only for a sum that is not noise.
    const cls = a && stable && !noisyKa ? classifyAudioSum(a.value.sum) : null
    if (a && cls) {
      checks.push(check(DEFS.known, { verdict: cls.cluster ? 'pass' : 'warn', observed: cls.cluster ? `${a.value.sum}: ${cls.exact ? 'a known value' : 'inside the cluster'} of ${cls.cluster.label}` : `${a.value.sum}: in no known cluster`, expected: 'a sum in a known cluster' }))
      const fit = audioFitsEngine(a.value.sum, claimed.engine)
      checks.push(
        cls.cluster
          ? check(DEFS.engine, { verdict: fit.verdict, observed: { sum: a.value.sum, claimedEngine: claimed.engine, reason: fit.reason }, expected: `a sum ${claimed.engine} produces` })
          : na(DEFS.engine, 'the sum is in no known cluster: nothing to compare with the claimed engine'),
      )
    } else {
      const why = !a ? whyMissing(s.audio) : 'the sum is noised (farbling), so it says nothing about the engine'
      checks.push(na(DEFS.known, why), na(DEFS.engine, why))
    }

    const ctx = valueOf(s.context)
    if (ctx) {
      const problems: string[] = []
      if (!COMMON_RATES.includes(ctx.sampleRate)) problems.push(`sample rate ${ctx.sampleRate} Hz`)
      if (!(ctx.maxChannelCount >= 1)) problems.push(`${ctx.maxChannelCount} output channels`)
      checks.push(check(DEFS.context, { verdict: problems.length ? 'warn' : 'pass', observed: problems.length ? problems.join('; ') : ctx, expected: 'a common sample rate and at least one output channel' }))
    } else checks.push(na(DEFS.context, whyMissing(s.context)))

    const farbling = stable === false || noisyKa ? 'noise' : stable && ka ? 'none' : 'unknown'
    return {
      checks,
      sections: {
        audio: {
          sum: a && farbling !== 'noise' ? a.value.sum : null,
          stable,
          farbling,
          cluster: cls?.cluster?.id ?? null,
          knownValue: !!cls?.exact,
          sampleRate: ctx?.sampleRate ?? null,
        },
      },
    }
  },
})

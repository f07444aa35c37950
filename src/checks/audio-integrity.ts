// The audio fingerprint of FingerprintJS and whether it can be trusted: rendered twice
// (per-render noise, Safari 17+), getChannelData against copyFromChannel (a patched read), a
// known signal passed through untouched (Brave's session-stable farbling), and the sum against
// the table of known values per engine (./audio-sums.ts).
// https://fingerprint.com/blog/audio-fingerprinting/

import type { AudioFingerprintSignals } from '../../common/signals/audio-fingerprint'
import { engineClaim } from '../../common/user-agent'
import { audioAgainstEngines, classifyAudioSum } from './audio-sums'
import { checkOn, na, type SignalValues } from './define'
import { pageEngine } from './page-engine'

type V = SignalValues<AudioFingerprintSignals>
const audioCheck = checkOn<AudioFingerprintSignals>()

/** The sum when neither render-to-render nor known-answer noise was seen: then it is an identity. */
export function cleanSum(audio: V['audio'], knownAnswer: V['knownAnswer'] | undefined): number | null {
  return audio.again === undefined && !(knownAnswer && knownAnswer.wrong > 0) ? audio.value.sum : null
}

const NOISED = 'the sum is noised (farbling), so it says nothing about the engine'

export const audioAvailable = audioCheck({
  id: 'audio-available',
  name: 'OfflineAudioContext renders',
  found: 'OfflineAudioContext does not render',
  source: 'client',
  why: 'Every current browser renders an OfflineAudioContext without a user gesture. No rendering means the API is disabled or blocked (Tor, privacy extensions) or stuck (old iOS Safari in a background tab).',
  needs: [],
  uses: ['audio'],
  judge: ({ audio }, { missing }) =>
    audio ? { verdict: 'pass', observed: `sum ${audio.value.sum}`, expected: 'a rendered buffer' } : { verdict: 'warn', observed: missing('audio'), expected: 'a rendered buffer' },
})

export const audioStable = audioCheck({
  id: 'audio-stable',
  name: 'Two renders give the same sum',
  found: 'two renders give different sums',
  source: 'client',
  why: 'The rendering is deterministic: the same graph gives the same samples every time. A different second sum is noise added per render (Safari 17+ Advanced Fingerprinting Protection, extensions): farbling detected, and the sum is not an identity.',
  ref: 'https://fingerprint.com/blog/audio-fingerprinting/',
  needs: ['audio'],
  judge: ({ audio }) =>
    audio.again === undefined
      ? { verdict: 'pass', observed: `both renders ${audio.value.sum}`, expected: 'the same sum twice' }
      : { verdict: 'warn', observed: `farbling detected: ${audio.value.sum} then ${audio.again.sum}`, expected: 'the same sum twice' },
})

export const audioChannelCopy = audioCheck({
  id: 'audio-channel-copy',
  name: 'getChannelData and copyFromChannel agree',
  found: 'getChannelData and copyFromChannel disagree',
  source: 'client',
  why: 'Both read the same rendered buffer. Extensions that spoof audio often patch only getChannelData (the FingerprintJS read), so copyFromChannel still shows the real samples (CreepJS checks the same).',
  ref: 'https://webaudio.github.io/web-audio-api/#dom-audiobuffer-copyfromchannel',
  needs: ['audio'],
  judge: ({ audio: { value: { sum, copySum } } }) => {
    if (copySum === null) return na('no AudioBuffer.copyFromChannel in this engine')
    return copySum === sum
      ? { verdict: 'pass', observed: `both ${sum}`, expected: 'the same sum from both reads' }
      : { verdict: 'fail', observed: { getChannelData: sum, copyFromChannel: copySum }, expected: 'the same sum from both reads' }
  },
})

export const audioKnownAnswer = audioCheck({
  id: 'audio-known-answer',
  name: 'A known signal passes through unchanged',
  found: 'a known signal comes out changed',
  source: 'client',
  why: 'A buffer of exact values played straight into the destination at the context’s own rate is copied bit for bit by every engine. Changed samples are read-back farbling, including Brave’s, which is stable per session and so escapes the two-render test.',
  needs: ['knownAnswer'],
  judge: ({ knownAnswer: ka }) => ({
    verdict: ka.wrong ? 'warn' : 'pass',
    observed: ka.wrong ? `farbling detected: ${ka.wrong} of ${ka.samples} samples changed, by up to ${ka.maxDelta}` : `all ${ka.samples} samples exact`,
    expected: 'every sample exactly as given',
  }),
})

export const audioSumKnown = audioCheck({
  id: 'audio-sum-known',
  name: 'The sum is a known value',
  found: 'the sum is not a known value',
  source: 'server',
  why: 'Sums cluster by engine, CPU and OS build (Blink ≈ 124.04/124.08, Gecko ≈ 35.74, WebKit ≈ 35.11). A sum in no known cluster is a new build or CPU, or a modified audio stack; informative only, so at most a small warning.',
  needs: ['audio'],
  uses: ['knownAnswer'],
  judge: ({ audio, knownAnswer }) => {
    const sum = cleanSum(audio, knownAnswer)
    if (sum === null) return na(NOISED)
    const cls = classifyAudioSum(sum)
    return cls.cluster
      ? { verdict: 'pass', observed: `${sum}: ${cls.exact ? 'a known value' : 'inside the cluster'} of ${cls.cluster.label}`, expected: 'a sum in a known cluster' }
      : { verdict: 'warn', observed: `${sum}: in no known cluster`, expected: 'a sum in a known cluster' }
  },
})

export const audioEngine = audioCheck({
  id: 'audio-engine',
  name: 'The sum fits the claimed engine',
  found: 'the sum fits another engine than the claimed one',
  source: 'server',
  why: 'Blink’s compressor output sums to about 124, Gecko’s and WebKit’s to about 35.7 and 35.1. A sum from another engine’s cluster than the one the User-Agent header names means the User-Agent lies about the browser; one from another cluster than the engine the page runs on (told by its error messages, not the user agent) means the audio was replaced. It fails only on those confident cases; an unknown sum does not count here.',
  needs: ['audio'],
  uses: ['knownAnswer', 'engine'],
  judge: ({ audio, knownAnswer, engine }, { server }) => {
    const sum = cleanSum(audio, knownAnswer)
    if (sum === null) return na(NOISED)
    if (!classifyAudioSum(sum).cluster) return na('the sum is in no known cluster: nothing to compare with the claimed engine')
    const claimed = engineClaim(server.userAgent)
    const page = pageEngine(engine)
    const fit = audioAgainstEngines(sum, claimed.engine, page)
    return { verdict: fit.verdict, observed: { sum, claimedEngine: claimed.engine, pageEngine: page.engine, reason: fit.reason }, expected: fit.expected }
  },
})

const COMMON_RATES = [44100, 48000, 88200, 96000, 176400, 192000, 16000, 22050, 24000, 32000]

export const audioContext = audioCheck({
  id: 'audio-context',
  name: 'The audio device looks real',
  found: 'the audio device looks emulated',
  source: 'client',
  why: 'An AudioContext reports the output device’s sample rate (44.1 or 48 kHz on almost every device) and channel count. Odd rates or no channels suggest no audio device at all: servers, containers, some headless setups, and desktops with audio disabled.',
  needs: ['context'],
  judge: ({ context: ctx }) => {
    const problems: string[] = []
    if (!COMMON_RATES.includes(ctx.sampleRate)) problems.push(`sample rate ${ctx.sampleRate} Hz`)
    if (!(ctx.maxChannelCount >= 1)) problems.push(`${ctx.maxChannelCount} output channels: no audio output device`)
    return { verdict: problems.length ? 'warn' : 'pass', observed: problems.length ? problems.join('; ') : ctx, expected: 'a common sample rate and at least one output channel' }
  },
})

// audio-fingerprint: the FingerprintJS OfflineAudioContext sum rendered twice (noise shows as
// a difference), getChannelData against copyFromChannel, a known signal passed through
// untouched (session-stable farbling), the output device an AudioContext describes, and the
// JavaScript engine (its error messages), which the sum is judged against. The first render
// also goes as a small plot (samples, envelope, spectrum), which the report draws.
import { definePlan, type ToolPlan } from '../core/runner'
import { jsEngine } from '../signals/js-engine'
import { audioContextInfo, audioKnownAnswer, audioPictured } from '../signals/audio'

/** audio-fingerprint's sources, made when its run starts (they read the page's nonce then). */
export function audioFingerprintPlan(): ToolPlan {
  return definePlan('audio-fingerprint', {
    audio: audioPictured,
    knownAnswer: audioKnownAnswer,
    context: audioContextInfo,
    engine: jsEngine,
  })
}

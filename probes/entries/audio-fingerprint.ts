// audio-fingerprint: the FingerprintJS OfflineAudioContext sum rendered twice (noise shows as
// a difference), getChannelData against copyFromChannel, a known signal passed through
// untouched (session-stable farbling), the output device an AudioContext describes, and the
// JavaScript engine (its error messages), which the sum is judged against. The first render
// also goes as a small plot (samples, envelope, spectrum), which the report draws.
import { runToolPage } from '../core/runner'
import { jsEngine } from '../signals/js-engine'
import { audioContextInfo, audioKnownAnswer, audioPictured } from '../signals/audio'

void runToolPage('audio-fingerprint', {
  audio: audioPictured,
  knownAnswer: audioKnownAnswer,
  context: audioContextInfo,
  engine: jsEngine,
})

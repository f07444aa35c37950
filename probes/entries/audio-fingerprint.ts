// audio-fingerprint: the FingerprintJS OfflineAudioContext sum rendered twice (noise shows as
// a difference), getChannelData against copyFromChannel, a known signal passed through
// untouched (session-stable farbling), the output device an AudioContext describes, and the
// JavaScript engine (its error messages), which the sum is judged against.
import { runToolPage } from '../core/runner'
import { jsEngine } from '../signals/js-engine'
import { audioContextInfo, audioKnownAnswer, audioSum } from '../signals/audio'
import { readTwice } from '../signals/read-twice'

void runToolPage('audio-fingerprint', {
  audio: readTwice(audioSum),
  knownAnswer: audioKnownAnswer,
  context: audioContextInfo,
  engine: jsEngine,
})

// audio-fingerprint: the FingerprintJS OfflineAudioContext sum rendered twice (noise shows as
// a difference), getChannelData against copyFromChannel, a known signal passed through
// untouched (session-stable farbling), and the output device an AudioContext describes.
import { runToolPage } from '../core/runner'
import { audioContextInfo, audioKnownAnswer, audioSum } from '../signals/audio'
import { readTwice } from '../signals/read-twice'

void runToolPage('audio-fingerprint', {
  audio: readTwice(audioSum),
  knownAnswer: audioKnownAnswer,
  context: audioContextInfo,
})

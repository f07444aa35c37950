// Which kinds of media devices enumerateDevices lists before any permission
// (probes/signals/media-devices.ts).

import type { WebrtcLeakSignals } from '../../common/signals/webrtc-leak'
import { checkOn } from './define'

export const mediaDevicesListed = checkOn<WebrtcLeakSignals>()({
  id: 'media-devices',
  name: 'Media devices are listed',
  found: 'no media devices are listed',
  source: 'client',
  why: 'enumerateDevices lists the kinds of microphones, cameras and speakers (labels stay empty until permission is granted; this page never asks). Desktops list at least an audio output; an empty list is typical of servers, containers and headless browsers. Machines without audio hardware and Safari, which lists little before permission, are the false positives, so it only warns.',
  ref: 'https://developer.mozilla.org/docs/Web/API/MediaDevices/enumerateDevices',
  expected: 'at least one device kind',
  needs: ['mediaDevices'],
  judge: ({ mediaDevices: m }) => {
    const total = m.audioinput + m.audiooutput + m.videoinput + m.other
    const observed = `${m.audioinput} microphone(s), ${m.videoinput} camera(s), ${m.audiooutput} audio output(s)${m.labelled ? `, ${m.labelled} with labels (permission granted earlier)` : ''}`
    return { verdict: total ? 'pass' : 'warn', observed }
  },
})

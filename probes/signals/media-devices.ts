// How many microphones, cameras and audio outputs the browser lists, without asking for
// permission: labels (and, in Chrome, device ids) stay empty until getUserMedia was allowed,
// so a non-empty label means this site was granted access before. Chrome lists at most one
// device per kind before permission; an empty list is typical of servers and containers.
// navigator.mediaDevices only exists in secure contexts (HTTPS, localhost).
// https://developer.mozilla.org/docs/Web/API/MediaDevices/enumerateDevices
import type { MediaDeviceKinds } from '../../common/signals/webrtc-leak'
import { ProbeError } from '../core/probe-error'

export async function mediaDeviceKinds(): Promise<MediaDeviceKinds> {
  const md = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined
  if (!md?.enumerateDevices) {
    throw new ProbeError('unsupported', isSecureContext ? 'no navigator.mediaDevices.enumerateDevices' : 'navigator.mediaDevices only exists on HTTPS pages (or localhost)')
  }
  const counts: MediaDeviceKinds = { audioinput: 0, audiooutput: 0, videoinput: 0, other: 0, labelled: 0 }
  for (const d of await md.enumerateDevices()) {
    const k = d.kind as string
    if (k === 'audioinput' || k === 'audiooutput' || k === 'videoinput') counts[k]++
    else counts.other++
    if (d.label) counts.labelled++
  }
  return counts
}

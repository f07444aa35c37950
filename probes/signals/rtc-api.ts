// Whether the page can use WebRTC at all, and whether the constructor is the browser's own.
// WebRTC is absent when switched off (Firefox media.peerconnection.enabled = false) and
// replaced or deleted by privacy extensions ("WebRTC Control", "WebRTC Leak Shield"), which
// wrap RTCPeerConnection in a script function whose source is not `[native code]`.
// Prefixed constructors only remain in old engines.
// https://developer.mozilla.org/docs/Web/API/RTCPeerConnection

import type { RtcApi } from '../../common/signals/webrtc-leak'
import { isNativeFunction } from './native'

export function rtcApi(): RtcApi {
  const g = globalThis as unknown as Record<string, unknown>
  const pc = g.RTCPeerConnection
  return {
    peerConnection: typeof pc === 'function',
    prefixed: ['webkitRTCPeerConnection', 'mozRTCPeerConnection'].find((n) => typeof g[n] === 'function' && g[n] !== pc) ?? null,
    dataChannel: typeof g.RTCDataChannel === 'function',
    native: isNativeFunction(pc, 'RTCPeerConnection'),
  }
}

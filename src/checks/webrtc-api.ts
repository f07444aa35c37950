// Whether the page can use WebRTC at all, and whether the constructor is the browser's own
// (probes/signals/rtc-api.ts).

import type { WebrtcLeakSignals } from '../../common/signals/webrtc-leak'
import { checkOn } from './define'

export const webrtcApi = checkOn<WebrtcLeakSignals>()({
  id: 'webrtc-api',
  name: 'WebRTC is available and native',
  found: 'WebRTC is missing or not native',
  source: 'client',
  why: 'Every current browser ships RTCPeerConnection. It is missing when WebRTC is switched off (Firefox media.peerconnection.enabled, an enterprise policy) or removed by a privacy extension, and a constructor whose source is not [native code] was replaced by an extension or a stealth script. Both also prevent leaks, so this only warns: it is a tell about the browser, not a fault.',
  ref: 'https://developer.mozilla.org/docs/Web/API/RTCPeerConnection',
  expected: 'a native RTCPeerConnection, as every current browser ships',
  needs: ['api'],
  judge: ({ api }) => {
    const observed = api.peerConnection
      ? api.native ? 'RTCPeerConnection (native)' : 'RTCPeerConnection replaced by a script (source is not [native code])'
      : `no RTCPeerConnection${api.prefixed ? `, only ${api.prefixed}` : ''}`
    return { verdict: api.peerConnection && api.native ? 'pass' : 'warn', observed }
  },
})

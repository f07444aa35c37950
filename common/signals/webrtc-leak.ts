// webrtc-leak: what probes/signals/rtc-api.ts, ice-candidates.ts and media-devices.ts report
// (probes/entries/webrtc-leak.ts). ip-leak and vpn-detector collect the same ICE signal.

import { Type, type Static } from '@sinclair/typebox'
import { Bool, List, Num, NStr, Str } from '../shorthands'
import { Signal } from '../signal'

const Count = Type.Integer({ minimum: 0 })

export const RtcApiSchema = Type.Object({
  peerConnection: Bool,
  /** `webkitRTCPeerConnection` / `mozRTCPeerConnection` when only a prefixed constructor exists. */
  prefixed: NStr(64),
  dataChannel: Bool,
  /** The constructor's source reads `[native code]` (not replaced by a script or extension). */
  native: Bool,
})
export type RtcApi = Static<typeof RtcApiSchema>

export const IceGatheringSchema = Type.Object({
  /** `candidate` strings of the icecandidate events, as the browser gave them. */
  candidates: List(1024, 100),
  /** The candidate, c= and a=rtcp lines of the final local SDP (nothing else is sent). */
  sdp: Str(32000),
  /** `complete`: gathering finished; `timeout`: the page stopped waiting. */
  gathering: Type.Union([Type.Literal('complete'), Type.Literal('timeout')]),
  gatheringMs: Num,
  /** icecandidateerror events (unreachable STUN/TURN servers). */
  errors: Type.Array(Type.Object({ code: Num, text: Str(200), url: Str(300) }), { maxItems: 20 }),
  /** URLs of the ICE servers the page configured (the service's STUN/TURN listener, or none). */
  servers: Type.Optional(List(300, 4)),
})
export type IceGathering = Static<typeof IceGatheringSchema>

export const MediaDeviceKindsSchema = Type.Object({ audioinput: Count, audiooutput: Count, videoinput: Count, other: Count, labelled: Count })
export type MediaDeviceKinds = Static<typeof MediaDeviceKindsSchema>

export const WebrtcLeakSignals = Type.Object({
  api: Signal(RtcApiSchema),
  ice: Signal(IceGatheringSchema),
  mediaDevices: Signal(MediaDeviceKindsSchema),
})
export type WebrtcLeakSignals = Static<typeof WebrtcLeakSignals>

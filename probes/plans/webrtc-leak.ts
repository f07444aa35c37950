import { definePlan, type ToolPlan } from '../core/runner'
import { iceCandidates } from '../signals/ice-candidates'
import { mediaDeviceKinds } from '../signals/media-devices'
import { rtcApi } from '../signals/rtc-api'

/** webrtc-leak's sources, made when its run starts (they read the page's nonce then). */
export function webrtcLeakPlan(): ToolPlan {
  // Gathering stops after 2 s (host candidates take ~150 ms, the service's STUN/TURN listener
  // answers in a few ms more; only unreachable servers take longer), under the collector's 3 s
  // per-signal limit.
  return definePlan(
    'webrtc-leak',
    {
      api: rtcApi,
      ice: iceCandidates(2000, { serviceStun: true }),
      mediaDevices: mediaDeviceKinds,
    },
    { timeoutMs: 3000 },
  )
}

// ip-leak: what probes/signals/ice-candidates.ts and ip-families.ts report
// (probes/entries/ip-leak.ts).

import { Type, type Static } from '@sinclair/typebox'
import { Bool, NStr, Num, Str } from '../shorthands'
import { Signal } from '../signal'
import { IceGatheringSchema } from './webrtc-leak'

/** One request to a literal address of one family: whether it answered, and how fast. */
export const FamilyReachSchema = Type.Object({ url: Str(300), reachable: Bool, ms: Num, error: NStr(200) })
export type FamilyReach = Static<typeof FamilyReachSchema>

export const IpFamiliesSchema = Type.Object({ ipv4: FamilyReachSchema, ipv6: FamilyReachSchema })
export type IpFamilies = Static<typeof IpFamiliesSchema>

export const IpLeakSignals = Type.Object({
  ice: Signal(IceGatheringSchema),
  families: Signal(IpFamiliesSchema),
})
export type IpLeakSignals = Static<typeof IpLeakSignals>

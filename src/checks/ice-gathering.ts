// The ICE candidates a page gathered, as the WebRTC checks read them: the `icecandidate`
// events and the candidate lines of the final local SDP merged into one list (each candidate
// marked with where it was seen), and every IP address they name, with its scope. Parsing
// is src/core/ice.ts (RFC 8839 §5.1).

import type { IceGathering, MediaDeviceKinds } from '../../common/signals/webrtc-leak'
import { candidateKey, parseCandidate, parseSdp, type AddressKind, type IceCandidate } from '../core/ice'
import { ipScope } from '../core/ip-scope'

export interface Merged {
  candidate: IceCandidate
  inEvents: boolean
  inSdp: boolean
}

export interface Gathered {
  merged: Merged[]
  /** Every IP address of the candidates (their related addresses too) and of the c=/a=rtcp lines, with its scope. */
  addresses: Map<string, AddressKind>
}

const isIpKind = (k: AddressKind | null): boolean => k !== null && k !== 'mdns' && k !== 'hostname'

function mergeCandidates(eventLines: string[], sdpText: string) {
  const merged = new Map<string, Merged>()
  for (const line of eventLines) {
    if (!line.trim()) continue // an empty candidate string marks the end of a generation
    const c = parseCandidate(line)
    if (!c) continue
    const k = candidateKey(c)
    const m = merged.get(k)
    if (m) m.inEvents = true
    else merged.set(k, { candidate: c, inEvents: true, inSdp: false })
  }
  const sdp = parseSdp(sdpText)
  for (const c of sdp.candidates) {
    const k = candidateKey(c)
    const m = merged.get(k)
    if (m) m.inSdp = true
    else merged.set(k, { candidate: c, inEvents: false, inSdp: true })
  }
  return { merged: [...merged.values()], connectionAddresses: sdp.connectionAddresses }
}

function addressesOf(merged: Merged[], connection: string[]): Map<string, AddressKind> {
  const out = new Map<string, AddressKind>()
  for (const { candidate: c } of merged) {
    if (isIpKind(c.kind)) out.set(c.address, c.kind)
    if (c.relatedAddress && isIpKind(c.relatedKind)) out.set(c.relatedAddress, c.relatedKind!)
  }
  for (const a of connection) {
    const scope = ipScope(a)
    if (scope) out.set(a, scope)
  }
  for (const [a, k] of out) if (k === 'unspecified') out.delete(a)
  return out
}

export function gathered(ice: IceGathering): Gathered {
  const m = mergeCandidates(ice.candidates, ice.sdp)
  return { merged: m.merged, addresses: addressesOf(m.merged, m.connectionAddresses) }
}

/** "3 candidate(s), gathering completed after 150 ms": what an observation without findings says. */
export function gatheringText(ice: IceGathering, merged: Merged[]): string {
  return `${merged.length} candidate(s), gathering ${ice.gathering === 'complete' ? 'completed' : 'stopped by the page'} after ${Math.round(ice.gatheringMs)} ms`
}

/** Whether every host candidate hides its address behind an mDNS name; null without host candidates. */
export function hostsHidden(merged: Merged[]): boolean | null {
  const hosts = merged.filter((x) => x.candidate.type === 'host')
  return hosts.length ? hosts.every((x) => x.candidate.kind === 'mdns') : null
}

/** Server-reflexive candidates as `address:port`. */
export const srflxOf = (merged: Merged[]): string[] => merged.filter((x) => x.candidate.type === 'srflx').map((x) => `${x.candidate.address}:${x.candidate.port}`)

/** Browsers stop hiding addresses once camera or microphone permission was granted: labelled devices show it. */
export function permissionNote(media: MediaDeviceKinds | undefined): string {
  return media && media.labelled > 0 ? ' (device labels are visible: camera or microphone permission was granted, and browsers stop hiding addresses then)' : ''
}

/** Why the candidate checks do not apply when the ICE signal has no value. */
export const iceDidNotRun = (why: string) => `ICE gathering did not run (${why}): nothing can leak through it`

// webrtc-leak: which addresses WebRTC hands to any page. The page opens an RTCPeerConnection
// with a data channel, makes an offer and reports every ICE candidate it saw, from the
// `icecandidate` events and from the local SDP; the server parses and classifies them
// (src/checks/ice-gathering.ts). A public address other than the one the HTTP request came
// from is the classic VPN leak; raw private addresses tell the page about the LAN;
// `<uuid>.local` names (mDNS) hide both.
//
// The strongest form of the test needs the service's own STUN/TURN listener (issue 7,
// src/listeners/stun.ts): the page then uses it as its ICE server, with TURN credentials that
// name this page's nonce, and the service files under that nonce the address the browser's UDP
// traffic really leaves from, whatever the page's JavaScript reports afterwards. Without the
// listener (STUN_PORT=off) the page configures no ICE servers, gathers host candidates only,
// and the STUN/TURN checks are `na` (src/checks/stun-turn-address.ts).

import { Type } from '@sinclair/typebox'
import { Bool, Num, Nullable } from '../../../common/shorthands'
import { signalValue } from '../../../common/signal'
import { WebrtcLeakSignals } from '../../../common/signals/webrtc-leak'
import { gathered, hostsHidden } from '../../checks/ice-gathering'
import { mediaDevicesListed } from '../../checks/media-devices-listed'
import { stunObservedAddress, turnRelayAddress } from '../../checks/stun-turn-address'
import { webrtcApi } from '../../checks/webrtc-api'
import { candidatesEventSdp, mdnsHostCandidates, privateAddressExposed, publicAddressLeak } from '../../checks/webrtc-addresses'
import { normalizeIp } from '../ip'
import type { Check } from '../scoring'
import { defineTool } from './types'

const Count = Type.Integer({ minimum: 0 })

export const WebrtcLeakSections = Type.Object({
  webrtc: Type.Object({
    available: Nullable(Bool),
    gathering: Nullable(Type.Object({ state: Type.String(), ms: Num })),
    mdns: Nullable(Bool),
    candidates: Type.Array(Type.Object({
      type: Type.String(), transport: Type.String(), address: Type.String(), port: Num, kind: Type.String(),
      relatedAddress: Nullable(Type.String()), tcpType: Nullable(Type.String()), seenIn: Type.String(),
    })),
    addresses: Type.Array(Type.Object({ address: Type.String(), kind: Type.String() })),
    httpAddress: Type.String(),
    mediaDevices: Nullable(Type.Object({ audioinput: Count, audiooutput: Count, videoinput: Count, labelled: Count })),
  }),
  pending: Type.Array(Type.Object({ evidence: Type.String(), needs: Type.String() }), { description: 'Server-side evidence this task lacks, and what would provide it.' }),
  verdict: Type.String(),
})

function verdictText(checks: Check[], stunMissing: boolean): string {
  const v = (id: string) => checks.find((c) => c.id === id)?.verdict
  const head =
    v(publicAddressLeak.id) === 'fail' || v(stunObservedAddress.id) === 'fail' || v(turnRelayAddress.id) === 'fail'
      ? 'WebRTC leaks a public address other than the one this page was loaded from.'
      : v(publicAddressLeak.id) === 'na'
        ? 'WebRTC did not run in this browser, so nothing can leak through it.'
        : v(privateAddressExposed.id) === 'warn'
          ? 'WebRTC exposes local network addresses to any page, but no second public address.'
          : 'No address leak among the candidates this page could gather.'
  return stunMissing ? `${head} Not tested: the STUN/TURN checks, which need the service's own STUN/TURN listener (STUN_PORT) and this page's nonce.` : head
}

const PENDING: Record<string, string> = {
  [stunObservedAddress.id]: 'server-reflexive address seen by the service (STUN)',
  [turnRelayAddress.id]: 'relay allocation tied to this task (TURN)',
}

export const webrtcLeak = defineTool({
  id: 'webrtc-leak',
  signals: WebrtcLeakSignals,
  sections: WebrtcLeakSections,
  checks: [
    [webrtcApi, 10],
    [mdnsHostCandidates, 10],
    [privateAddressExposed, 20],
    [publicAddressLeak, 60],
    [candidatesEventSdp, 10],
    [mediaDevicesListed, 6],
    [stunObservedAddress, 60],
    [turnRelayAddress, 40],
  ],
  addSections(s, { checks }, server) {
    const api = signalValue(s.api)
    const ice = signalValue(s.ice)
    const media = signalValue(s.mediaDevices)
    const { merged, addresses } = ice ? gathered(ice) : { merged: [], addresses: new Map<string, string>() }
    const pending = checks.filter((c) => c.id in PENDING && c.verdict === 'na').map((c) => ({ evidence: PENDING[c.id]!, needs: c.expected }))
    return {
      webrtc: {
        available: api ? api.peerConnection : null,
        gathering: ice ? { state: ice.gathering, ms: Math.round(ice.gatheringMs) } : null,
        mdns: hostsHidden(merged),
        candidates: merged.map(({ candidate: c, inEvents, inSdp }) => ({
          type: c.type, transport: c.transport, address: c.address, port: c.port, kind: c.kind,
          relatedAddress: c.relatedAddress, tcpType: c.tcpType, seenIn: inEvents && inSdp ? 'both' : inEvents ? 'events' : 'sdp',
        })),
        addresses: [...addresses].map(([address, kind]) => ({ address, kind })),
        httpAddress: normalizeIp(server.ip),
        mediaDevices: media ? { audioinput: media.audioinput, audiooutput: media.audiooutput, videoinput: media.videoinput, labelled: media.labelled } : null,
      },
      pending,
      verdict: verdictText(checks, pending.length > 0),
    }
  },
})

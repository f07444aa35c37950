// What the ICE candidates any page can gather tell about the machine's addresses: host
// addresses hidden behind mDNS names or not, private addresses, a public address other than
// the HTTP one (the classic WebRTC leak), and whether the events and the SDP agree.

import type { WebrtcLeakSignals } from '../../common/signals/webrtc-leak'
import { candidateKey } from '../core/ice'
import { normalizeIp } from '../core/ip'
import { LOCAL_SCOPES, sameNetwork } from '../core/ip-scope'
import { checkOn, na } from './define'
import { gathered, gatheringText, hostsHidden, iceDidNotRun, permissionNote } from './ice-gathering'

const iceCheck = checkOn<WebrtcLeakSignals>()

export const mdnsHostCandidates = iceCheck({
  id: 'mdns-host-candidates',
  name: 'Local addresses are hidden behind mDNS names',
  found: 'local addresses are not hidden behind mDNS names',
  source: 'client',
  why: 'Chrome (76+), Firefox and Safari replace the interface address of host candidates with a random <uuid>.local name unless the page holds camera or microphone permission. A raw host address means the protection is off: an old browser, a flag (WebRtcHideLocalIpsWithMdns), a granted permission, or a WebRTC-enabled app shell.',
  ref: 'https://datatracker.ietf.org/doc/html/draft-ietf-mmusic-mdns-ice-candidates',
  expected: 'host candidates named <uuid>.local',
  needs: [],
  uses: ['ice', 'mediaDevices'],
  judge: ({ ice, mediaDevices }, { missing }) => {
    if (!ice) return na(iceDidNotRun(missing('ice')))
    const { merged } = gathered(ice)
    const hidden = hostsHidden(merged)
    if (hidden === null) return { ...na('no host candidate was gathered (no usable network interface, or a policy that forbids non-proxied UDP), so there was nothing to hide'), observed: gatheringText(ice, merged) }
    const hosts = merged.filter((x) => x.candidate.type === 'host')
    const raw = [...new Set(hosts.filter((x) => x.candidate.kind !== 'mdns').map((x) => x.candidate.address))]
    return {
      verdict: hidden ? 'pass' : 'warn',
      observed: hidden ? `${hosts.length} host candidate(s), all <uuid>.local names` : `raw host address(es): ${raw.join(', ')}${permissionNote(mediaDevices)}`,
    }
  },
})

export const privateAddressExposed = iceCheck({
  id: 'private-address-exposed',
  name: 'No private address exposed',
  found: 'a private address is exposed',
  source: 'client',
  why: 'A raw private (RFC 1918, IPv6 unique-local), CGNAT or link-local address in a candidate tells any page where the machine sits in its network: a stable tracking value that a VPN does not change. Networks without mDNS support and a granted camera permission are the usual causes; it is a privacy warning, not a leak to the Internet.',
  expected: 'no raw private, CGNAT or link-local address',
  needs: [],
  uses: ['ice', 'mediaDevices'],
  judge: ({ ice, mediaDevices }, { missing }) => {
    if (!ice) return na(iceDidNotRun(missing('ice')))
    const { merged, addresses } = gathered(ice)
    const local = [...addresses].filter(([, k]) => (LOCAL_SCOPES as readonly string[]).includes(k))
    return {
      verdict: local.length ? 'warn' : 'pass',
      observed: local.length ? local.map(([a, k]) => `${a} (${k})`).join(', ') + permissionNote(mediaDevices) : `none in ${gatheringText(ice, merged)}`,
    }
  },
})

export const publicAddressLeak = iceCheck({
  id: 'public-address-leak',
  name: 'No public address other than the HTTP one',
  found: 'a public address other than the HTTP one is exposed',
  source: 'client',
  why: 'A public address in a candidate that differs from the address the service saw over HTTP is the classic WebRTC leak: behind a VPN or proxy, WebRTC reveals the real address, or a second network (public IPv6 next to an IPv4 VPN). An IPv6 address in the same /64 as the HTTP address is the same network. Without a STUN server the page only sees addresses bound to the machine itself; the address a NAT gives it is the STUN check below.',
  needs: [],
  uses: ['ice'],
  judge: ({ ice }, { missing, server }) => {
    if (!ice) return na(iceDidNotRun(missing('ice')))
    const httpIp = normalizeIp(server.ip)
    const { merged, addresses } = gathered(ice)
    const pub = [...addresses].filter(([, k]) => k === 'public').map(([a]) => a)
    const leaked = pub.filter((a) => !sameNetwork(a, httpIp))
    return {
      verdict: leaked.length ? 'fail' : 'pass',
      observed: leaked.length ? { leaked, httpAddress: httpIp } : pub.length ? `only the HTTP address (${pub.join(', ')})` : `no public address in ${gatheringText(ice, merged)}`,
      expected: `no public address other than ${httpIp}`,
    }
  },
})

export const candidatesEventSdp = iceCheck({
  id: 'candidates-event-sdp',
  name: 'ICE events and SDP agree',
  found: 'ICE events and SDP disagree',
  source: 'client',
  why: 'A page can read candidates in two ways: the icecandidate events and the candidate lines of the local SDP. Extensions that hide addresses sometimes filter only one of them, and the address still leaks through the other.',
  expected: 'the same candidates in events and SDP',
  needs: [],
  uses: ['ice'],
  judge: ({ ice }, { missing }) => {
    if (!ice) return na(iceDidNotRun(missing('ice')))
    const { merged } = gathered(ice)
    if (!merged.length) return { ...na('no candidates in either view, nothing to compare'), observed: gatheringText(ice, merged) }
    const onlyEvents = merged.filter((x) => !x.inSdp).map((x) => candidateKey(x.candidate))
    const onlySdp = merged.filter((x) => !x.inEvents).map((x) => candidateKey(x.candidate))
    const agree = !onlyEvents.length && !onlySdp.length
    return { verdict: agree ? 'pass' : 'warn', observed: agree ? `${merged.length} candidate(s) in both` : { onlyInEvents: onlyEvents, onlyInSdp: onlySdp } }
  },
})

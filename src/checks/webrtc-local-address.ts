// Local network addresses in ICE candidates. Since Chrome 76, Firefox and Safari hide host
// candidates' interface addresses behind random <uuid>.local names unless the page holds a
// camera or microphone permission; a raw private address is visible to every site.
// https://datatracker.ietf.org/doc/html/draft-ietf-mmusic-mdns-ice-candidates

import { gatheredText, localAddresses, webrtcAddresses } from '../core/tools/network-evidence'
import { checkOn } from './define'
import { noIceGathered, type IceSignals } from './webrtc-vs-http'

export const webrtcLocalAddress = checkOn<IceSignals>()({
  id: 'webrtc-local-address',
  name: 'WebRTC reveals no local network address',
  found: 'WebRTC reveals a local network address',
  source: 'client',
  why: 'Any page can gather ICE candidates without a permission prompt. Current browsers hide the machine\'s interface addresses behind <uuid>.local names; a raw private, CGNAT or link-local address tells every site where the machine sits in its network, whatever VPN is in use. A granted camera/microphone permission or an old browser are the usual causes, so it warns.',
  ref: 'https://datatracker.ietf.org/doc/html/draft-ietf-mmusic-mdns-ice-candidates',
  expected: 'host candidates named <uuid>.local, no raw private address',
  needs: [],
  uses: ['ice'],
  judge: ({ ice }, { missing }) => {
    if (!ice) return noIceGathered(missing('ice'))
    const rtc = webrtcAddresses(ice)
    const local = localAddresses(rtc)
    return { verdict: local.length ? 'warn' : 'pass', observed: local.length ? local.join(', ') : gatheredText(rtc) }
  },
})

// WebRTC against the HTTP address: the classic WebRTC leak. Any page can gather ICE
// candidates without a prompt; a public address among them outside the HTTP address's network
// means traffic can leave outside the proxy or VPN. When the service's own TURN listener saw
// the browser's UDP source for this page (src/listeners/stun.ts), that observation decides
// together with the page's candidates.
// https://www.w3.org/TR/webrtc/#dom-rtcpeerconnectioniceevent-candidate, https://datatracker.ietf.org/doc/html/rfc8828

import type { SignalResult } from '../../common/signal'
import type { IceGathering } from '../../common/signals/webrtc-leak'
import { compareWithHttp, intelOf, networkText, type ComparedAddress } from '../core/tools/ip-intel'
import { gatheredText, webrtcAddresses, type RevealedByWebrtc } from '../core/tools/network-evidence'
import type { ServerObservation } from '../core/tools/observation'
import { checkOn, type JudgeContext, type Outcome } from './define'
import { stunEvidenceOf, turnAgainstHttp } from './stun-evidence'

/** The signal the check reads, named as ip-leak and vpn-detector (and webrtc-leak) name it. */
export interface IceSignals {
  ice: SignalResult<IceGathering>
}

/** What the service's TURN listener saw of this page's UDP against the HTTP address; null without it. */
export const turnSeen = (server: ServerObservation) => turnAgainstHttp(stunEvidenceOf(server), server.ip)

/** The public addresses WebRTC revealed, each compared with the HTTP address (the sections list them too). */
export function publicVsHttp(rtc: RevealedByWebrtc, httpIp: string, ctx: JudgeContext): ComparedAddress[] {
  return compareWithHttp(ctx, rtc.addresses.filter((a) => a.kind === 'public').map((a) => a.address), httpIp)
}

/** The `na` of a WebRTC check when the page gathered no candidates. */
export const noIceGathered = (why: string): Outcome => ({ verdict: 'na', observed: null, expected: `ICE gathering did not run (${why}): nothing can leak through WebRTC` })

const rank = { na: 0, pass: 0, warn: 1, fail: 2 } as const

export const webrtcVsHttp = checkOn<IceSignals>()({
  id: 'webrtc-vs-http',
  name: 'WebRTC reveals no public address other than the HTTP one',
  found: 'WebRTC reveals a public address other than the HTTP one',
  source: 'client',
  why: 'A public address in an ICE candidate that is not the HTTP address means traffic can leave outside the proxy or VPN: the classic WebRTC leak (or a public IPv6 address next to an IPv4-only tunnel). An address in the HTTP address\'s IPv6 /64 or AS (the IPv6 of a dual-stack line) is the same network. Without a STUN server only addresses bound to the machine itself show; the address a NAT gives it needs the service\'s STUN listener (see webrtc-leak). When the service\'s own TURN listener saw the address the browser\'s UDP traffic leaves from, tied to this page by per-page credentials, that decides too, and a page that rewrote its candidates cannot hide it: the check is then the server\'s.',
  ref: 'https://datatracker.ietf.org/doc/html/rfc8828',
  needs: [],
  uses: ['ice'],
  judge: ({ ice }, { server, ctx, missing }) => {
    let page: Outcome
    if (!ice) page = noIceGathered(missing('ice'))
    else {
      const rtc = webrtcAddresses(ice)
      const compared = publicVsHttp(rtc, server.ip, ctx)
      const other = compared.filter((a) => !a.sameAsHttp)
      const same = compared.filter((a) => a.sameAsHttp)
      const http = intelOf(ctx, server.ip)
      page = {
        verdict: other.length ? 'fail' : 'pass',
        observed: other.length
          ? { webrtc: other.map((a) => (a.network ? `${a.address} (${a.network})` : a.address)), http: http.status === 'found' ? `${server.ip} (${networkText(http.info)})` : server.ip }
          : same.length ? `only the HTTP address's network (${same.map((a) => a.address).join(', ')})` : `no public address (${gatheredText(rtc)})`,
        expected: `no public address outside the network of ${server.ip} (the same address, its IPv6 /64 or its AS)`,
      }
    }
    const turn = turnSeen(server)
    if (!turn) return page
    return {
      verdict: rank[page.verdict] > rank[turn.verdict] ? page.verdict : turn.verdict,
      observed: { seenByService: turn.seen, http: server.ip, ...(turn.note ? { note: turn.note } : {}), reportedByPage: page.observed },
      expected: `UDP from ${server.ip} (or its network), and no other public address among the page's candidates`,
      // The page cannot edit what the listener saw: the finding is the server's.
      source: 'server',
    }
  },
})

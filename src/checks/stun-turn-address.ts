// The strongest WebRTC leak test, judged on what the service's own STUN/TURN listener saw
// (./stun-evidence.ts): the page uses the listener as its ICE server, with TURN credentials
// that name this page's nonce, and the addresses its Binding and Allocate requests came from
// are compared with the HTTP address. Without the listener (STUN_PORT=off) the page
// configures no ICE servers and both checks are `na`.

import type { IceGathering, WebrtcLeakSignals } from '../../common/signals/webrtc-leak'
import { normalizeIp } from '../core/ip'
import type { ServerObservation } from '../core/tools/observation'
import { checkOn, na, type Outcome } from './define'
import { gathered, srflxOf } from './ice-gathering'
import { fmtSeen, localNote, stunEvidenceOf, worstMatch, type Seen, type StunEvidence } from './stun-evidence'

const stunCheck = checkOn<WebrtcLeakSignals>()

const MISSING = {
  stun: {
    configured: 'STUN/TURN server',
    why: "needs the service's STUN/TURN listener (STUN_PORT), which is off on this server: the page then uses it as its ICE server and the service sees, for this task, the address your UDP traffic leaves from",
  },
  turn: {
    configured: 'TURN server',
    why: "needs the service's TURN listener with per-page credentials (STUN_PORT), which is off on this server: the service then sees which address allocates a relay for this task",
  },
}
const NO_NONCE = (state: string | undefined) =>
  `needs a valid page nonce (this submission's is ${state ?? 'missing'}): the listener files what it sees under the nonce of the page that sent it`
const EITHER = 'the HTTP address, or no request at all'

/**
 * What the listener filed for this page, or the outcome of either check when it filed nothing:
 * `na` without ICE, without configured servers or without a valid nonce; a pass when the
 * requests never arrived (UDP blocked, so nothing leaks this way).
 */
function listenerSaw(which: 'stun' | 'turn', server: ServerObservation, ice: IceGathering | undefined, httpIp: string): { ok: true; evidence: StunEvidence } | { ok: false; outcome: Outcome } {
  const evidence = stunEvidenceOf(server)
  if (evidence && (evidence.bindings.length || evidence.allocations.length)) return { ok: true, evidence }
  if (!ice) return { ok: false, outcome: na('ICE gathering did not run, so no STUN or TURN request was made') }
  if (!ice.servers?.length) return { ok: false, outcome: { ...na(MISSING[which].why), observed: `the page configured no ${MISSING[which].configured} (HTTP address ${httpIp})` } }
  if (!evidence) return { ok: false, outcome: { ...na(NO_NONCE(server.nonce)), observed: `page servers ${ice.servers.join(', ')}; HTTP address ${httpIp}` } }
  const srflx = srflxOf(gathered(ice).merged)
  const note = 'no Binding or Allocate request with this page’s credentials reached the service: WebRTC or its UDP is blocked (a policy such as disable_non_proxied_udp, a firewall), so nothing leaks this way'
  return { ok: false, outcome: { verdict: 'pass', observed: { httpAddress: httpIp, seenByService: [], srflxReportedByPage: srflx, note }, expected: EITHER } }
}

export const stunObservedAddress = stunCheck({
  id: 'stun-observed-address',
  name: 'STUN address seen by the service matches HTTP',
  found: 'the STUN address seen by the service differs from the HTTP one',
  source: 'server',
  why: 'The strongest WebRTC leak test: the browser sends a STUN binding request to the service, which sees the public address its UDP traffic really leaves from and ties it to this task; unlike a candidate, the page cannot edit it. A different address from the HTTP one means WebRTC bypasses the VPN or proxy.',
  ref: 'https://datatracker.ietf.org/doc/html/rfc8489#section-14.2',
  needs: [],
  uses: ['ice'],
  judge: ({ ice }, { server }) => {
    const httpIp = normalizeIp(server.ip)
    const saw = listenerSaw('stun', server, ice, httpIp)
    if (!saw.ok) return saw.outcome
    const { evidence } = saw
    // Everything the listener saw from the browser's sockets: the addresses it sent back in
    // XOR-MAPPED-ADDRESS, which the page's srflx candidates must repeat.
    const union = new Map<string, Seen>()
    for (const b of [...evidence.bindings, ...evidence.allocations]) union.set(`${b.address}:${b.port}`, b)
    const seen = [...union.values()]
    const srflx = ice ? srflxOf(gathered(ice).merged) : []
    const unexplained = srflx.filter((a) => !union.has(a))
    const verdict = worstMatch(seen, httpIp)
    return {
      verdict: verdict === 'pass' && unexplained.length ? 'warn' : verdict,
      observed: { httpAddress: httpIp, seenByService: seen.map(fmtSeen), srflxReportedByPage: srflx, ...(unexplained.length ? { srflxNotSeenByService: unexplained } : {}), ...localNote(seen, httpIp) },
      expected: `only ${httpIp} (or its IPv6 /64); the page's server-reflexive candidates the addresses the service saw`,
    }
  },
})

export const turnRelayAddress = stunCheck({
  id: 'turn-relay-address',
  name: 'TURN relay requested from the HTTP address',
  found: 'a TURN relay was requested from another address',
  source: 'server',
  why: 'With per-task TURN credentials the service sees which address allocates a relay, even when a policy allows relayed traffic only (the setting privacy guides recommend). A different address from the HTTP one is the same leak as the STUN check, through TCP/TLS as well as UDP.',
  ref: 'https://datatracker.ietf.org/doc/html/rfc8656#section-7',
  needs: [],
  uses: ['ice'],
  judge: ({ ice }, { server }) => {
    const httpIp = normalizeIp(server.ip)
    const saw = listenerSaw('turn', server, ice, httpIp)
    if (!saw.ok) return saw.outcome
    const alloc = saw.evidence.allocations
    if (!alloc.length) return { verdict: 'pass', observed: { httpAddress: httpIp, allocatedFrom: [], note: 'no Allocate with this page’s credentials reached the service' }, expected: EITHER }
    return { verdict: worstMatch(alloc, httpIp), observed: { httpAddress: httpIp, allocatedFrom: alloc.map(fmtSeen), ...localNote(alloc, httpIp) }, expected: `only ${httpIp} (or its IPv6 /64)` }
  },
})

// webrtc-leak: which addresses WebRTC hands to any page. The page opens an RTCPeerConnection
// with a data channel, makes an offer and reports every ICE candidate it saw, from the
// `icecandidate` events and from the local SDP; the server parses and classifies them.
// A public address other than the one the HTTP request came from is the classic VPN leak;
// raw private addresses tell the page about the LAN; `<uuid>.local` names (mDNS) hide both.
//
// The strongest form of the test needs the service's own STUN/TURN listener (issue 7,
// src/listeners/stun.ts): the page then uses it as its ICE server, with TURN credentials that
// name this page's nonce, and the service files under that nonce the address the browser's UDP
// traffic really leaves from, whatever the page's JavaScript reports afterwards. Without the
// listener (STUN_PORT=off) the page configures no ICE servers, gathers host candidates only,
// and the STUN/TURN checks are `na`.

import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { check, type Check, type CheckDef } from '../scoring'
import { candidateKey, parseCandidate, parseSdp, type AddressKind, type IceCandidate } from '../ice'
import { normalizeIp } from '../ip'
import { ipScope, LOCAL_SCOPES, sameNetwork } from '../ip-scope'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { evidenceOf, type ServerObservation } from './observation'
import { legacyTool } from './types'

const Bool = Type.Boolean()
const Num = Type.Number()
const Count = Type.Integer({ minimum: 0 })
const NullableStr = Type.Union([Type.String({ maxLength: 64 }), Type.Null()])

export const WebrtcLeakSignals = Type.Object({
  api: Signal(
    Type.Object({
      peerConnection: Bool,
      /** `webkitRTCPeerConnection` / `mozRTCPeerConnection` when only a prefixed constructor exists. */
      prefixed: NullableStr,
      dataChannel: Bool,
      /** The constructor's source reads `[native code]` (not replaced by a script or extension). */
      native: Bool,
    }),
  ),
  ice: Signal(
    Type.Object({
      /** `candidate` strings of the icecandidate events, as the browser gave them. */
      candidates: Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 100 }),
      /** The candidate, c= and a=rtcp lines of the final local SDP (nothing else is sent). */
      sdp: Type.String({ maxLength: 32000 }),
      /** `complete`: gathering finished; `timeout`: the page stopped waiting. */
      gathering: Type.Union([Type.Literal('complete'), Type.Literal('timeout')]),
      gatheringMs: Num,
      /** icecandidateerror events (unreachable STUN/TURN servers). */
      errors: Type.Array(Type.Object({ code: Num, text: Type.String({ maxLength: 200 }), url: Type.String({ maxLength: 300 }) }), { maxItems: 20 }),
      /** URLs of the ICE servers the page configured (the service's STUN/TURN listener, or none). */
      servers: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 4 })),
    }),
  ),
  mediaDevices: Signal(Type.Object({ audioinput: Count, audiooutput: Count, videoinput: Count, other: Count, labelled: Count })),
})
export type WebrtcLeakSignals = Static<typeof WebrtcLeakSignals>

/** What the service's STUN/TURN listener (src/listeners/stun.ts) filed under this page's nonce. */
export interface StunEvidence {
  /** Binding requests from a socket that also allocated with this page's credentials: the source address and port as the server saw them. */
  bindings: Array<{ address: string; port: number; transport: 'udp' | 'tcp' }>
  /** TURN Allocate requests whose MESSAGE-INTEGRITY verified with this page's credentials. */
  allocations: Array<{ address: string; port: number; transport: 'udp' | 'tcp' }>
}

type Seen = StunEvidence['bindings'][number]

function asSeen(d: unknown): Seen[] {
  const x = d as { address?: unknown; port?: unknown; transport?: unknown } | null
  if (!x || typeof x.address !== 'string' || typeof x.port !== 'number') return []
  return [{ address: normalizeIp(x.address), port: x.port, transport: x.transport === 'tcp' ? 'tcp' : 'udp' }]
}

/**
 * The listener's `stun` and `turn` evidence for this submission; null when it carried no valid
 * page nonce (then nothing the listener saw can be tied to it).
 */
export function stunEvidenceOf(server: Pick<ServerObservation, 'nonce' | 'evidence'>): StunEvidence | null {
  if (server.nonce !== 'valid' || !server.evidence) return null
  return { bindings: evidenceOf(server, 'stun').flatMap(asSeen), allocations: evidenceOf(server, 'turn').flatMap(asSeen) }
}

const STUN_MISSING =
  "needs the service's STUN/TURN listener (STUN_PORT), which is off on this server: the page then uses it as its ICE server and the service sees, for this task, the address your UDP traffic leaves from"
const TURN_MISSING =
  "needs the service's TURN listener with per-page credentials (STUN_PORT), which is off on this server: the service then sees which address allocates a relay for this task"
const NO_NONCE = (state: string | undefined) =>
  `needs a valid page nonce (this submission's is ${state ?? 'missing'}): the listener files what it sees under the nonce of the page that sent it`

const DEFS = {
  api: { id: 'webrtc-api', name: 'WebRTC is available and native', source: 'client', weight: 10, why: 'Every current browser ships RTCPeerConnection. It is missing when WebRTC is switched off (Firefox media.peerconnection.enabled, an enterprise policy) or removed by a privacy extension, and a constructor whose source is not [native code] was replaced by an extension or a stealth script. Both also prevent leaks, so this only warns: it is a tell about the browser, not a fault.' },
  mdns: { id: 'mdns-host-candidates', name: 'Local addresses are hidden behind mDNS names', source: 'client', weight: 10, why: 'Chrome (76+), Firefox and Safari replace the interface address of host candidates with a random <uuid>.local name unless the page holds camera or microphone permission. A raw host address means the protection is off: an old browser, a flag (WebRtcHideLocalIpsWithMdns), a granted permission, or a WebRTC-enabled app shell.' },
  local: { id: 'private-address-exposed', name: 'No private address exposed', source: 'client', weight: 20, why: 'A raw private (RFC 1918, IPv6 unique-local), CGNAT or link-local address in a candidate tells any page where the machine sits in its network: a stable tracking value that a VPN does not change. Networks without mDNS support and a granted camera permission are the usual causes; it is a privacy warning, not a leak to the Internet.' },
  public: { id: 'public-address-leak', name: 'No public address other than the HTTP one', source: 'client', weight: 60, why: 'A public address in a candidate that differs from the address the service saw over HTTP is the classic WebRTC leak: behind a VPN or proxy, WebRTC reveals the real address, or a second network (public IPv6 next to an IPv4 VPN). An IPv6 address in the same /64 as the HTTP address is the same network. Without a STUN server the page only sees addresses bound to the machine itself; the address a NAT gives it is the STUN check below.' },
  consistency: { id: 'candidates-event-sdp', name: 'ICE events and SDP agree', source: 'client', weight: 10, why: 'A page can read candidates in two ways: the icecandidate events and the candidate lines of the local SDP. Extensions that hide addresses sometimes filter only one of them, and the address still leaks through the other.' },
  media: { id: 'media-devices', name: 'Media devices are listed', source: 'client', weight: 6, why: 'enumerateDevices lists the kinds of microphones, cameras and speakers (labels stay empty until permission is granted; this page never asks). Desktops list at least an audio output; an empty list is typical of servers, containers and headless browsers. Machines without audio hardware and Safari, which lists little before permission, are the false positives, so it only warns.' },
  stun: { id: 'stun-observed-address', name: 'STUN address seen by the service matches HTTP', source: 'server', weight: 60, why: 'The strongest WebRTC leak test: the browser sends a STUN binding request to the service, which sees the public address its UDP traffic really leaves from and ties it to this task; unlike a candidate, the page cannot edit it. A different address from the HTTP one means WebRTC bypasses the VPN or proxy.' },
  turn: { id: 'turn-relay-address', name: 'TURN relay requested from the HTTP address', source: 'server', weight: 40, why: 'With per-task TURN credentials the service sees which address allocates a relay, even when a policy allows relayed traffic only (the setting privacy guides recommend). A different address from the HTTP one is the same leak as the STUN check, through TCP/TLS as well as UDP.' },
} as const satisfies Record<string, CheckDef>

interface Merged {
  candidate: IceCandidate
  inEvents: boolean
  inSdp: boolean
}

function mergeCandidates(eventLines: string[], sdpText: string) {
  const merged = new Map<string, Merged>()
  let unparsed = 0
  for (const line of eventLines) {
    if (!line.trim()) continue // an empty candidate string marks the end of a generation
    const c = parseCandidate(line)
    if (!c) { unparsed++; continue }
    const k = candidateKey(c)
    const m = merged.get(k)
    if (m) m.inEvents = true
    else merged.set(k, { candidate: c, inEvents: true, inSdp: false })
  }
  const sdp = parseSdp(sdpText)
  unparsed += sdp.unparsed.length
  for (const c of sdp.candidates) {
    const k = candidateKey(c)
    const m = merged.get(k)
    if (m) m.inSdp = true
    else merged.set(k, { candidate: c, inEvents: false, inSdp: true })
  }
  return { merged: [...merged.values()], connectionAddresses: sdp.connectionAddresses, unparsed }
}

const isIpKind = (k: AddressKind | null): boolean => k !== null && k !== 'mdns' && k !== 'hostname'

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

export type AddressMatch = 'same' | 'leak' | 'local' | 'local-vs-public'

/**
 * How an address the listener saw compares with the HTTP one: `same` network (IPv6: same /64);
 * `leak`, a different public address; `local`, a non-public address while HTTP came from a
 * non-public one too (the service runs on this machine or network, where UDP and HTTP take
 * different local routes: nothing reaches the Internet); `local-vs-public`, a non-public UDP
 * source next to a public HTTP address (the service is on the browser's network, but HTTP went
 * out through a proxy or another route).
 */
export function matchAddress(seen: string, httpIp: string): AddressMatch {
  if (sameNetwork(seen, httpIp)) return 'same'
  if (ipScope(seen) === 'public') return 'leak'
  return ipScope(httpIp) === 'public' ? 'local-vs-public' : 'local'
}

/**
 * The TURN-observed UDP sources against the HTTP address, for tools that fold them into their
 * own WebRTC check (vpn-detector); null when the listener filed no allocation for this page.
 */
export function turnAgainstHttp(evidence: StunEvidence | null, httpIp: string): { verdict: 'pass' | 'warn' | 'fail'; seen: string[]; note?: string } | null {
  if (!evidence?.allocations.length) return null
  const m = evidence.allocations.map((b) => matchAddress(b.address, normalizeIp(httpIp)))
  const verdict = m.includes('leak') ? 'fail' : m.includes('local-vs-public') ? 'warn' : 'pass'
  return { verdict, seen: evidence.allocations.map(fmt), ...(m.includes('local') ? { note: LOCAL_NOTE } : {}) }
}

const LOCAL_NOTE = 'the service runs on this machine or network: UDP and HTTP arrived from different local addresses, and no address reached the Internet'
const fmt = (b: Seen) => `${b.address}:${b.port}/${b.transport}`

function stunChecks(evidence: StunEvidence | null, httpIp: string, srflx: string[], ice: { servers?: string[] } | null, nonce: string | undefined): Check[] {
  const configured = (ice?.servers?.length ?? 0) > 0
  if (!evidence || (!evidence.bindings.length && !evidence.allocations.length)) {
    if (!ice) {
      const why = 'ICE gathering did not run, so no STUN or TURN request was made'
      return [check(DEFS.stun, { verdict: 'na', observed: null, expected: why }), check(DEFS.turn, { verdict: 'na', observed: null, expected: why })]
    }
    if (!configured) {
      return [
        check(DEFS.stun, { verdict: 'na', observed: `the page configured no STUN/TURN server (HTTP address ${httpIp})`, expected: STUN_MISSING }),
        check(DEFS.turn, { verdict: 'na', observed: `the page configured no TURN server (HTTP address ${httpIp})`, expected: TURN_MISSING }),
      ]
    }
    if (!evidence) {
      return [
        check(DEFS.stun, { verdict: 'na', observed: `page servers ${ice.servers!.join(', ')}; HTTP address ${httpIp}`, expected: NO_NONCE(nonce) }),
        check(DEFS.turn, { verdict: 'na', observed: `page servers ${ice.servers!.join(', ')}; HTTP address ${httpIp}`, expected: NO_NONCE(nonce) }),
      ]
    }
    const none = { httpAddress: httpIp, seenByService: [], srflxReportedByPage: srflx, note: 'no Binding or Allocate request with this page’s credentials reached the service: WebRTC or its UDP is blocked (a policy such as disable_non_proxied_udp, a firewall), so nothing leaks this way' }
    return [
      check(DEFS.stun, { verdict: 'pass', observed: none, expected: 'the HTTP address, or no request at all' }),
      check(DEFS.turn, { verdict: 'pass', observed: none, expected: 'the HTTP address, or no request at all' }),
    ]
  }
  const expected = `only ${httpIp} (or its IPv6 /64)`
  const worst = (seen: Seen[]) => {
    const m = seen.map((b) => matchAddress(b.address, httpIp))
    return m.includes('leak') ? 'fail' : m.includes('local-vs-public') ? 'warn' : 'pass'
  }
  const note = (seen: Seen[]) => (seen.some((b) => matchAddress(b.address, httpIp) === 'local') ? { note: LOCAL_NOTE } : {})

  // Everything the listener saw from the browser's sockets: the addresses it sent back in
  // XOR-MAPPED-ADDRESS, which the page's srflx candidates must repeat.
  const union = new Map<string, Seen>()
  for (const b of [...evidence.bindings, ...evidence.allocations]) union.set(`${b.address}:${b.port}`, b)
  const seen = [...union.values()]
  const unexplained = srflx.filter((a) => !union.has(a))
  const stunVerdict = worst(seen)
  const stunObserved = { httpAddress: httpIp, seenByService: seen.map(fmt), srflxReportedByPage: srflx, ...(unexplained.length ? { srflxNotSeenByService: unexplained } : {}), ...note(seen) }
  const stun = check(DEFS.stun, {
    verdict: stunVerdict === 'pass' && unexplained.length ? 'warn' : stunVerdict,
    observed: stunObserved,
    expected: `${expected}; the page's server-reflexive candidates the addresses the service saw`,
  })

  const alloc = evidence.allocations
  const turn = alloc.length
    ? check(DEFS.turn, { verdict: worst(alloc), observed: { httpAddress: httpIp, allocatedFrom: alloc.map(fmt), ...note(alloc) }, expected })
    : check(DEFS.turn, { verdict: 'pass', observed: { httpAddress: httpIp, allocatedFrom: [], note: 'no Allocate with this page’s credentials reached the service' }, expected: 'the HTTP address, or no request at all' })
  return [stun, turn]
}

/** Judges the page's signals with what the server saw; `stun` is the STUN/TURN listener's evidence (`stunEvidenceOf`). */
export function judgeWebrtc(s: WebrtcLeakSignals, server: ServerObservation, stun: StunEvidence | null = null) {
  const checks: Check[] = []
  const na = (def: CheckDef, why: string, observed: unknown = null) => check(def, { verdict: 'na', observed, expected: why })
  const api = valueOf(s.api)
  const ice = valueOf(s.ice)
  const media = valueOf(s.mediaDevices)
  const httpIp = normalizeIp(server.ip)

  if (api) {
    const ok = api.peerConnection && api.native
    const observed = api.peerConnection ? (api.native ? 'RTCPeerConnection (native)' : 'RTCPeerConnection replaced by a script (source is not [native code])') : `no RTCPeerConnection${api.prefixed ? `, only ${api.prefixed}` : ''}`
    checks.push(check(DEFS.api, { verdict: ok ? 'pass' : 'warn', observed, expected: 'a native RTCPeerConnection, as every current browser ships' }))
  } else checks.push(na(DEFS.api, whyMissing(s.api)))

  let merged: Merged[] = []
  let addresses = new Map<string, AddressKind>()
  let hostMdns: boolean | null = null
  if (ice) {
    const m = mergeCandidates(ice.candidates, ice.sdp)
    merged = m.merged
    addresses = addressesOf(merged, m.connectionAddresses)
    const gathered = `${merged.length} candidate(s), gathering ${ice.gathering === 'complete' ? 'completed' : 'stopped by the page'} after ${Math.round(ice.gatheringMs)} ms`
    const hosts = merged.filter((x) => x.candidate.type === 'host')
    const rawHosts = hosts.filter((x) => x.candidate.kind !== 'mdns').map((x) => x.candidate.address)
    const permission = media && media.labelled > 0 ? ' (device labels are visible: camera or microphone permission was granted, and browsers stop hiding addresses then)' : ''
    if (hosts.length) {
      hostMdns = rawHosts.length === 0
      checks.push(check(DEFS.mdns, { verdict: hostMdns ? 'pass' : 'warn', observed: hostMdns ? `${hosts.length} host candidate(s), all <uuid>.local names` : `raw host address(es): ${[...new Set(rawHosts)].join(', ')}${permission}`, expected: 'host candidates named <uuid>.local' }))
    } else checks.push(na(DEFS.mdns, 'no host candidate was gathered (no usable network interface, or a policy that forbids non-proxied UDP), so there was nothing to hide', gathered))

    const local = [...addresses].filter(([, k]) => (LOCAL_SCOPES as readonly string[]).includes(k))
    checks.push(check(DEFS.local, { verdict: local.length ? 'warn' : 'pass', observed: local.length ? local.map(([a, k]) => `${a} (${k})`).join(', ') + permission : `none in ${gathered}`, expected: 'no raw private, CGNAT or link-local address' }))

    const pub = [...addresses].filter(([, k]) => k === 'public').map(([a]) => a)
    const leaked = pub.filter((a) => !sameNetwork(a, httpIp))
    checks.push(check(DEFS.public, {
      verdict: leaked.length ? 'fail' : 'pass',
      observed: leaked.length ? { leaked, httpAddress: httpIp } : pub.length ? `only the HTTP address (${pub.join(', ')})` : `no public address in ${gathered}`,
      expected: `no public address other than ${httpIp}`,
    }))

    if (merged.length) {
      const onlyEvents = merged.filter((x) => !x.inSdp).map((x) => candidateKey(x.candidate))
      const onlySdp = merged.filter((x) => !x.inEvents).map((x) => candidateKey(x.candidate))
      const agree = !onlyEvents.length && !onlySdp.length
      checks.push(check(DEFS.consistency, { verdict: agree ? 'pass' : 'warn', observed: agree ? `${merged.length} candidate(s) in both` : { onlyInEvents: onlyEvents, onlyInSdp: onlySdp }, expected: 'the same candidates in events and SDP' }))
    } else checks.push(na(DEFS.consistency, 'no candidates in either view, nothing to compare', gathered))
  } else {
    const why = whyMissing(s.ice)
    for (const d of [DEFS.mdns, DEFS.local, DEFS.public, DEFS.consistency]) checks.push(na(d, `ICE gathering did not run (${why}): nothing can leak through it`))
  }

  if (media) {
    const total = media.audioinput + media.audiooutput + media.videoinput + media.other
    const observed = `${media.audioinput} microphone(s), ${media.videoinput} camera(s), ${media.audiooutput} audio output(s)${media.labelled ? `, ${media.labelled} with labels (permission granted earlier)` : ''}`
    checks.push(check(DEFS.media, { verdict: total ? 'pass' : 'warn', observed, expected: 'at least one device kind' }))
  } else checks.push(na(DEFS.media, whyMissing(s.mediaDevices)))

  const srflx = merged.filter((x) => x.candidate.type === 'srflx').map((x) => `${x.candidate.address}:${x.candidate.port}`)
  const stunTurn = stunChecks(stun, httpIp, srflx, ice ?? null, server.nonce)
  checks.push(...stunTurn)

  const pending = stunTurn.filter((c) => c.verdict === 'na').map((c) => ({
    evidence: c.id === DEFS.stun.id ? 'server-reflexive address seen by the service (STUN)' : 'relay allocation tied to this task (TURN)',
    needs: c.expected,
  }))
  return {
    checks,
    sections: {
      webrtc: {
        available: api ? api.peerConnection : null,
        gathering: ice ? { state: ice.gathering, ms: Math.round(ice.gatheringMs) } : null,
        mdns: hostMdns,
        candidates: merged.map(({ candidate: c, inEvents, inSdp }) => ({
          type: c.type, transport: c.transport, address: c.address, port: c.port, kind: c.kind,
          relatedAddress: c.relatedAddress, tcpType: c.tcpType, seenIn: inEvents && inSdp ? 'both' : inEvents ? 'events' : 'sdp',
        })),
        addresses: [...addresses].map(([address, kind]) => ({ address, kind })),
        httpAddress: httpIp,
        mediaDevices: media ? { audioinput: media.audioinput, audiooutput: media.audiooutput, videoinput: media.videoinput, labelled: media.labelled } : null,
      },
      pending,
      verdict: verdictText(checks, pending.length > 0),
    },
  }
}

function verdictText(checks: Check[], stunMissing: boolean): string {
  const v = (id: string) => checks.find((c) => c.id === id)?.verdict
  const head =
    v(DEFS.public.id) === 'fail' || v(DEFS.stun.id) === 'fail' || v(DEFS.turn.id) === 'fail'
      ? 'WebRTC leaks a public address other than the one this page was loaded from.'
      : v(DEFS.public.id) === 'na'
        ? 'WebRTC did not run in this browser, so nothing can leak through it.'
        : v(DEFS.local.id) === 'warn'
          ? 'WebRTC exposes local network addresses to any page, but no second public address.'
          : 'No address leak among the candidates this page could gather.'
  return stunMissing ? `${head} Not tested: the STUN/TURN checks, which need the service's own STUN/TURN listener (STUN_PORT) and this page's nonce.` : head
}

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])

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

export const webrtcLeak = legacyTool({
  id: 'webrtc-leak',
  signals: WebrtcLeakSignals,
  sections: WebrtcLeakSections,
  judge: (s: WebrtcLeakSignals, server: ServerObservation) => judgeWebrtc(s, server, stunEvidenceOf(server)),
})

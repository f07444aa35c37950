// vpn-detector: signs that the address the service sees is not where the browser is. A VPN or
// proxy changes the network path but not the machine: WebRTC can still reveal the real
// address, proxies announce themselves in headers, and the browser's time zone and languages
// stay those of the user. Round trips measured in the page include the tunnel.
//
// The offline IP database (ctx.lookupIp, ip-intel.ts) places the address: its country against
// the browser's zone and languages, its network against the curated cloud/hosting/VPN/Tor
// lists, and the AS of any WebRTC address against the HTTP address's. The page also opens the
// TLS evidence listener (TLS_PORT), which files the TCP handshake's RTT and the HTTP/2 PING RTT
// of that connection: a TCP-terminating proxy shows as a gap between them (rtt-gap.ts). Still
// `na`: the resolver location (the vpn-detector page makes no DNS lookups of its own; see
// dns-leak).

import { Type, type Static } from '@sinclair/typebox'
import { compareLanguages, parseAcceptLanguage, preferredTags } from '../accept-language'
import { check, type Check, type CheckDef } from '../scoring'
import { proxyEvidence } from '../forwarded-addresses'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { compareWithHttp, hostingVerdict, intelOf, languagesFitCountry, lookupSection, networkText, whyNoIntel, zoneFitsCountry, type HostingPolicy } from './ip-intel'
import { describeAddress, IceSignalSchema, IpLookupSchema, localAddresses, webrtcAddresses } from './network-evidence'
import { header, type ServerObservation } from './observation'
import { TlsEvidenceProbeSchema } from '../../../common/signals/shared'
import { judgeRttGap, RTT_GAP_FAIL_MS, RTT_GAP_FAIL_RATIO, RTT_GAP_WARN_MS, RTT_GAP_WARN_RATIO, rttEvidenceOf } from './rtt-gap'
import { stunEvidenceOf, turnAgainstHttp } from './webrtc-leak'
import { TimezoneGeoSignals, zoneFitsRegions } from './timezone-geo'
import { isUtcZone, languageRegion } from '../../../common/tz-offset'
import { legacyTool, type JudgeContext } from './types'

export const VpnDetectorSignals = Type.Object({
  ice: IceSignalSchema,
  /** probes/signals/tz-zone.ts, as timezone-geo validates it. */
  zone: TimezoneGeoSignals.properties.zone,
  rtt: Signal(
    Type.Object({
      samples: Type.Array(Type.Number(), { maxItems: 20 }),
      medianMs: Type.Number(),
      minMs: Type.Number(),
      protocol: Type.Union([Type.String({ maxLength: 32 }), Type.Null()]),
    }),
  ),
  /** probes/signals/tls-evidence.ts: the page's connection to the TLS listener, whose round trips the server reads. */
  tlsEvidence: Type.Optional(Signal(TlsEvidenceProbeSchema)),
})
export type VpnDetectorSignals = Static<typeof VpnDetectorSignals>

const DEFS = {
  address: { id: 'http-address', name: 'Address the service sees', source: 'server', weight: 0, why: 'The network checks below compare this address with what the browser reveals. A loopback or private address means the service is reached on the same machine or network, where they cannot say anything.' },
  webrtc: { id: 'webrtc-vs-http', name: 'WebRTC shows no other public address', source: 'client', weight: 60, why: 'A VPN or proxy that does not cover WebRTC lets any page see a public address other than the HTTP one (or a public IPv6 address next to an IPv4-only tunnel). An address in the HTTP address\'s AS (the IPv6 of a dual-stack line) is the same network.' },
  proxy: { id: 'proxy-headers', name: 'No proxy in the request path', source: 'server', weight: 40, why: 'Via, Forwarded, X-Forwarded-For, X-Real-IP and similar headers are added by proxies (HTTP proxies, some VPN and "anonymizer" services, corporate gateways), never by browsers. Headers from the service\'s own reverse proxy are recognised and not counted; corporate proxies are the usual false positive.' },
  acceptLanguage: { id: 'accept-language-vs-languages', name: 'Accept-Language arrived as the browser wrote it', source: 'server', weight: 15, why: 'A VPN does not touch headers, but some proxies and anti-detect setups rewrite Accept-Language to match the exit country while navigator.languages keeps the user\'s. The reduced header of Chromium\'s experiment only warns.' },
  zoneLanguage: { id: 'zone-vs-accept-language', name: 'Time zone fits the Accept-Language regions', source: 'server', weight: 10, why: 'The regions of the languages the browser sends (de-AT → AT, de → DE) usually include its time zone or one with the same offsets. A mismatch alone is common (expatriates, English setups), so it only warns; with the IP country (issue 7) it shows which side a VPN changed.' },
  utc: { id: 'utc-zone', name: 'Time zone is a regional one', source: 'client', weight: 10, why: 'UTC is what servers, containers, cloud desktops, Tor Browser and Firefox resistFingerprinting report; people\'s machines are set to a regional zone. Some people do use UTC, so it only warns.' },
  rtt: { id: 'in-page-rtt', name: 'Round trip measured in the page', source: 'client', weight: 10, why: 'The median of five small requests from the page to the service. Through Tor or a distant VPN exit it is typically hundreds of milliseconds; above 400 ms warns. Satellite and poor mobile links are the false positives; the TCP-handshake comparison below is the decisive one.' },
  rttGap: { id: 'rtt-vs-tcp-handshake', name: 'End-to-end RTT close to the TCP-handshake RTT', source: 'server', weight: 30, why: `A SOCKS or HTTP CONNECT proxy, and Tor, terminate TCP: the kernel's RTT of the TCP handshake, read by the service's TLS listener, is the round trip to the proxy, while HTTP/2 PINGs on the same connection are answered by the browser itself, through the proxy. So a PING round trip much longer than the handshake's means the connection is relayed. Fails when the PING RTT exceeds the handshake's by more than ${RTT_GAP_FAIL_MS} ms and is over ${RTT_GAP_FAIL_RATIO}× it; warns above ${RTT_GAP_WARN_MS} ms and ${RTT_GAP_WARN_RATIO}× (a closer proxy, or a busy browser). Both conditions are needed: on a long path jitter alone can add tens of milliseconds to the PINGs (the ratio guards that), and on a short path a handshake of microseconds makes any ratio large (the gap guards that). Without a PING answer the page's own median stands in, which only warns (another connection, with the server's handling time). A layer-3 VPN (WireGuard, OpenVPN, IPsec) carries the browser's own TCP to the service, so both round trips include the tunnel and this check cannot see it. False positives: links whose operator splits TCP (satellite accelerators, some mobile carriers' proxies), a link saturated by other traffic while the PINGs wait in its queue, and TLS_PORT behind a TCP-terminating forwarder on the service's side.` },
  zoneCountry: { id: 'zone-vs-ip-country', name: 'Time zone fits the IP country', source: 'server', weight: 30, why: 'A VPN exit in another country moves the address but not the browser\'s time zone: the most common VPN tell. Travellers and users who keep their home zone are the false positives.' },
  languageCountry: { id: 'languages-vs-ip-country', name: 'Languages fit the IP country', source: 'server', weight: 10, why: 'Languages spoken in the IP country are expected; a mismatch alone is weak (English is used everywhere), so it adds little.' },
  datacenter: { id: 'datacenter-asn', name: 'Address is not in a datacenter, VPN or Tor network', source: 'server', weight: 50, why: 'Commercial VPN exits, proxies and Tor exit relays sit in known hosting ASNs and published lists; people browse from residential and mobile networks. CDN egress (Cloudflare WARP, iCloud Private Relay) is a relay too but used by ordinary people, and networks recognised only by a word in their name may be wrong, so both only warn. Corporate cloud egress is the false positive.' },
  resolver: { id: 'resolver-vs-ip', name: 'DNS resolver is near the IP address', source: 'server', weight: 20, why: 'A VPN that leaks DNS queries sends them to the ISP\'s resolver at home while HTTP leaves through the exit (see dns-leak): resolver and address in different countries or networks. Public resolvers (8.8.8.8, 1.1.1.1) are labelled, not counted.' },
} as const satisfies Record<string, CheckDef>

const na = (def: CheckDef, expected: string, observed: unknown = null) => check(def, { verdict: 'na', observed, expected })

/** webrtc-vs-http when the STUN/TURN listener saw the browser's UDP source: the same check, observed by the service. */
const WEBRTC_SEEN_BY_SERVICE: CheckDef = {
  ...DEFS.webrtc,
  source: 'server',
  why: `${DEFS.webrtc.why} Here the service's own TURN listener saw the address the browser's UDP traffic leaves from, tied to this page by per-page credentials, so a page that rewrote its candidates cannot hide it.`,
}

const HOSTING: HostingPolicy = { cloud: 'fail', hosting: 'fail', vpn: 'fail', tor: 'fail', cdn: 'warn', heuristic: 'warn' }

export const VpnDetectorSections = Type.Object({
  vpn: Type.Object({
    address: Type.String(),
    scope: Type.Union([Type.String(), Type.Null()]),
    proxyHeaders: Type.Array(Type.Tuple([Type.String(), Type.String()])),
    forwardedAddresses: Type.Array(Type.Object({ header: Type.String(), address: Type.String(), scope: Type.String() })),
    webrtcPublic: Type.Union([Type.Array(Type.String()), Type.Null()]),
    webrtcLocal: Type.Union([Type.Array(Type.String()), Type.Null()]),
    timeZone: Type.Union([Type.String(), Type.Null()]),
    languages: Type.Union([Type.Array(Type.String()), Type.Null()]),
    acceptLanguageRegions: Type.Array(Type.String()),
    pageRttMs: Type.Union([Type.Number(), Type.Null()]),
    tcpRttMs: Type.Union([Type.Number(), Type.Null()], { description: "RTT of the TCP handshake of the page's connection to the TLS listener (kernel TCP_INFO, ms): the round trip to whatever terminated TCP. Null without TLS_PORT, off Linux, or when the page did not reach the listener." }),
    h2PingRttMs: Type.Union([Type.Number(), Type.Null()], { description: 'Fastest HTTP/2 PING round trip on that same connection (ms): the round trip to the browser itself. Null without the listener or when no PING was answered.' }),
    lookup: IpLookupSchema,
  }),
  verdict: Type.String(),
})

function verdictText(checks: Check[]): string {
  const v = (d: CheckDef) => checks.find((c) => c.id === d.id)?.verdict
  const found: string[] = []
  if (v(DEFS.webrtc) === 'fail') found.push('WebRTC reveals another public address')
  if (v(DEFS.proxy) === 'fail') found.push('a proxy announces itself in the headers')
  if (v(DEFS.acceptLanguage) === 'fail') found.push('Accept-Language was rewritten on the way')
  if (v(DEFS.datacenter) === 'fail') found.push('the address belongs to a server, VPN or Tor network')
  if (v(DEFS.zoneCountry) === 'fail') found.push('the time zone is not one of the IP country')
  if (v(DEFS.rttGap) === 'fail') found.push('the browser\'s round trip is far longer than the TCP handshake\'s (a TCP-terminating proxy such as SOCKS, HTTP CONNECT or Tor)')
  const weak = [
    v(DEFS.utc) === 'warn' && 'a UTC time zone',
    v(DEFS.zoneLanguage) === 'warn' && 'a time zone outside the languages\' regions',
    v(DEFS.rtt) === 'warn' && 'a long round trip',
    v(DEFS.rttGap) === 'warn' && 'an end-to-end round trip longer than the TCP handshake\'s',
    v(DEFS.datacenter) === 'warn' && 'a relay or possible hosting network',
    v(DEFS.languageCountry) === 'warn' && 'languages not spoken in the IP country',
  ].filter(Boolean)
  const head = found.length
    ? `VPN or proxy detected: ${found.join('; ')}.`
    : weak.length
      ? `No direct sign of a VPN or proxy; weak hints: ${weak.join(', ')}.`
      : 'No sign of a VPN or proxy in what the service can test today.'
  const pending = v(DEFS.rttGap) === 'na' ? 'Not tested here: the TCP-handshake RTT (it needs the TLS listener, TLS_PORT) and the DNS resolver location (see dns-leak).' : 'Not tested here: the DNS resolver location (see dns-leak).'
  return `${head} ${pending}`
}

export const vpnDetector = legacyTool({
  id: 'vpn-detector',
  signals: VpnDetectorSignals,
  sections: VpnDetectorSections,
  judge(s: VpnDetectorSignals, server: ServerObservation, ctx?: JudgeContext) {
    const checks: Check[] = []
    const addr = describeAddress(server.ip)
    const intel = intelOf(ctx, server.ip)
    const info = intel.status === 'found' ? intel.info : null
    const zone = valueOf(s.zone)
    const rtt = valueOf(s.rtt)
    const ice = valueOf(s.ice)

    if (addr.scope === 'public' || addr.scope === 'cgnat') checks.push(check(DEFS.address, { verdict: 'pass', observed: addr.text, expected: 'any address: the checks below compare it' }))
    else checks.push(na(DEFS.address, 'a public address; this one is not on the Internet, so address comparisons cannot apply', addr.text))

    let webrtcPublic: string[] | null = null
    let webrtcLocal: string[] | null = null
    if (ice) {
      const r = webrtcAddresses(ice)
      const compared = compareWithHttp(ctx, r.addresses.filter((a) => a.kind === 'public').map((a) => a.address), server.ip)
      const other = compared.filter((a) => !a.sameAsHttp)
      const same = compared.filter((a) => a.sameAsHttp)
      webrtcPublic = compared.map((a) => a.address)
      webrtcLocal = localAddresses(r)
      checks.push(check(DEFS.webrtc, {
        verdict: other.length ? 'fail' : 'pass',
        observed: other.length
          ? { webrtc: other.map((a) => (a.network ? `${a.address} (${a.network})` : a.address)), http: info ? `${server.ip} (${networkText(info)})` : server.ip }
          : same.length ? `only the HTTP address's network (${same.map((a) => a.address).join(', ')})` : `no public address among ${r.candidates} candidate(s)`,
        expected: `no public address outside the network of ${server.ip} (the same address, its IPv6 /64 or its AS)`,
      }))
    } else checks.push(na(DEFS.webrtc, `ICE gathering did not run (${whyMissing(s.ice)}): nothing can leak through WebRTC`))
    // The service's TURN listener saw the browser's UDP source itself, tied to this page by its
    // credentials (src/listeners/stun.ts): when it did, that address decides with the page's
    // candidates, and the check is the server's.
    const turn = turnAgainstHttp(stunEvidenceOf(server), server.ip)
    const pageCheck = checks.findIndex((c) => c.id === DEFS.webrtc.id)
    if (turn && pageCheck >= 0) {
      const page = checks[pageCheck]!
      const rank = { na: 0, pass: 0, warn: 1, fail: 2 } as const
      checks[pageCheck] = check(WEBRTC_SEEN_BY_SERVICE, {
        verdict: rank[page.verdict] > rank[turn.verdict] ? page.verdict : turn.verdict,
        observed: { seenByService: turn.seen, http: server.ip, ...(turn.note ? { note: turn.note } : {}), reportedByPage: page.observed },
        expected: `UDP from ${server.ip} (or its network), and no other public address among the page's candidates`,
      })
    }

    const proxy = proxyEvidence(server)
    const counted = proxy.viaServiceProxy ? [] : proxy.headers
    const proxyFound = counted.length > 0 || proxy.foreign.length > 0
    checks.push(check(DEFS.proxy, {
      verdict: proxyFound ? 'fail' : 'pass',
      observed: proxyFound
        ? { headers: counted.map(([n, v]) => `${n}: ${v}`), forwardedAddresses: proxy.foreign.map((a) => `${a.address} (${a.scope})`) }
        : proxy.headers.length ? 'only the headers of the service\'s own trusted proxy' : 'none',
      expected: 'no Via, Forwarded, X-Forwarded-*, X-Real-IP or similar header',
    }))

    const alRaw = header(server, 'accept-language')
    const ranges = alRaw === undefined ? [] : parseAcceptLanguage(alRaw)
    if (alRaw === undefined) checks.push(na(DEFS.acceptLanguage, 'no Accept-Language header arrived'))
    else if (!zone) checks.push(na(DEFS.acceptLanguage, whyMissing(s.zone)))
    else {
      const c = compareLanguages(ranges, zone.languages)
      const seen = `Accept-Language ${alRaw}; navigator [${zone.languages.join(', ')}]`
      checks.push(check(DEFS.acceptLanguage, { verdict: c.verdict === 'same' ? 'pass' : c.verdict === 'reduced' ? 'warn' : 'fail', observed: c.verdict === 'same' ? seen : { seen, missing: c.missing, extra: c.extra }, expected: 'the same languages in the same order (base languages may be added)' }))
    }

    const regions = [...new Set(preferredTags(ranges).map(languageRegion).filter((r): r is string => !!r))]
    if (!zone) checks.push(na(DEFS.utc, whyMissing(s.zone)), na(DEFS.zoneLanguage, whyMissing(s.zone)))
    else {
      const utc = isUtcZone(zone.timeZone)
      checks.push(check(DEFS.utc, { verdict: utc ? 'warn' : 'pass', observed: zone.timeZone || '(none)', expected: 'a regional zone such as Europe/Paris' }))
      if (utc) checks.push(na(DEFS.zoneLanguage, 'a regional zone: UTC belongs to no region', zone.timeZone))
      else if (!regions.length) checks.push(na(DEFS.zoneLanguage, 'Accept-Language names no region', alRaw ?? null))
      else {
        const fits = zoneFitsRegions(zone.timeZone, regions, new Date(server.receivedAt).getUTCFullYear())
        checks.push(check(DEFS.zoneLanguage, { verdict: fits ? 'pass' : 'warn', observed: `${zone.timeZone}; Accept-Language regions ${regions.join(', ')}`, expected: `a zone of ${regions.join(', ')} or one with the same offsets` }))
      }
    }

    if (rtt && rtt.samples.length) {
      checks.push(check(DEFS.rtt, { verdict: rtt.medianMs > 400 ? 'warn' : 'pass', observed: `median ${rtt.medianMs} ms over ${rtt.samples.length} requests (${rtt.samples.join(', ')})${rtt.protocol ? ` over ${rtt.protocol}` : ''}`, expected: 'under 400 ms' }))
    } else checks.push(na(DEFS.rtt, whyMissing(s.rtt) || 'no samples'))

    // The round trips of the page's connection to the TLS listener, as the listener filed them.
    const rttEv = rttEvidenceOf(server)
    const gap = judgeRttGap(rttEv, rtt && rtt.samples.length ? { medianMs: rtt.medianMs, samples: rtt.samples.length } : null, addr.scope)
    if (gap.verdict === 'na') {
      const reach = s.tlsEvidence === undefined || rttEv ? '' : s.tlsEvidence.ok ? (s.tlsEvidence.value.reached ? '' : '; the page could not reach it (an untrusted certificate or a blocked port)') : `; the page's connection to it: ${whyMissing(s.tlsEvidence)}`
      checks.push(na(DEFS.rttGap, `${gap.why}${reach}`, gap.observed))
    } else checks.push(check(DEFS.rttGap, gap))

    // The IP country against the zone and the languages; the network against the lists.
    const noIntel = whyNoIntel(intel, server.ip)
    const country = info?.country ?? null
    const year = new Date(server.receivedAt).getUTCFullYear()
    if (noIntel || !country) {
      const why = noIntel ?? `an address the database places in a country (${networkText(info!)})`
      checks.push(na(DEFS.zoneCountry, why, zone ? zone.timeZone : null), na(DEFS.languageCountry, why, zone ? zone.languages.join(', ') : null))
    } else if (!zone) {
      checks.push(na(DEFS.zoneCountry, whyMissing(s.zone)), na(DEFS.languageCountry, whyMissing(s.zone)))
    } else {
      const fits = zoneFitsCountry(zone.timeZone, country, year)
      if (fits === null) checks.push(na(DEFS.zoneCountry, 'a regional zone: UTC belongs to no country', `${zone.timeZone}; IP in ${country}`))
      else checks.push(check(DEFS.zoneCountry, { verdict: fits ? 'pass' : 'fail', observed: `${zone.timeZone}; IP in ${country}`, expected: `a zone of ${country}, or one with the same offsets` }))
      const langFit = languagesFitCountry(zone.languages, country)
      checks.push(check(DEFS.languageCountry, {
        verdict: langFit === false ? 'warn' : 'pass',
        observed: `${zone.languages.join(', ') || '(none)'}; IP in ${country}${langFit === null ? ' (English only: fits anywhere)' : ''}`,
        expected: `a language of ${country} or one naming it`,
      }))
    }
    if (info) {
      checks.push(check(DEFS.datacenter, {
        verdict: hostingVerdict(info, HOSTING),
        observed: info.hostingReason ? networkText(info) : `AS${info.asn ?? '?'} ${info.org ?? ''}: not a known cloud, hosting, CDN, VPN or Tor network`.trim(),
        expected: 'a residential or mobile network',
      }))
    } else checks.push(na(DEFS.datacenter, noIntel!, addr.text))
    checks.push(na(DEFS.resolver, 'needs DNS lookups by this page through the service\'s DNS zone; the dns-leak tool runs them and compares each resolver with this address', null))

    return {
      checks,
      sections: {
        vpn: {
          address: server.ip,
          scope: addr.scope,
          proxyHeaders: proxy.headers,
          forwardedAddresses: proxy.foreign,
          webrtcPublic,
          webrtcLocal,
          timeZone: zone?.timeZone ?? null,
          languages: zone?.languages ?? null,
          acceptLanguageRegions: regions,
          pageRttMs: rtt?.medianMs ?? null,
          tcpRttMs: rttEv?.tcp_rtt_ms ?? null,
          h2PingRttMs: rttEv?.h2_ping_rtt_ms ?? null,
          lookup: lookupSection(intel),
        },
        verdict: verdictText(checks),
      },
    }
  },
})

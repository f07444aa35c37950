// vpn-detector: signs that the address the service sees is not where the browser is. A VPN or
// proxy changes the network path but not the machine: WebRTC can still reveal the real
// address, proxies announce themselves in headers, and the browser's time zone and languages
// stay those of the user. Round trips measured in the page include the tunnel.
//
// The offline IP database (ctx.lookupIp, ip-intel.ts) places the address: its country against
// the browser's zone and languages, its network against the curated cloud/hosting/VPN/Tor
// lists, and the AS of any WebRTC address against the HTTP address's. The page also opens the
// TLS evidence listener (TLS_PORT), which files the TCP handshake's RTT and the HTTP/2 PING RTT
// of that connection: a TCP-terminating proxy shows as a gap between them
// (src/checks/rtt-gap.ts). Still `na`: the resolver location (the vpn-detector page makes no DNS
// lookups of its own; see dns-leak).

import { Type } from '@sinclair/typebox'
import { signalValue } from '../../../common/signal'
import { VpnDetectorSignals } from '../../../common/signals/vpn-detector'
import { acceptLanguageVsLanguages } from '../../checks/accept-language-header'
import { httpAddress } from '../../checks/http-address'
import { languagesVsIpCountry, zoneVsIpCountry } from '../../checks/ip-country-fit'
import { datacenterAsn } from '../../checks/ip-network'
import { listenerAddress } from '../../checks/listener-address'
import { proxyHeaders } from '../../checks/proxy-headers'
import { resolverNetwork } from '../../checks/resolver-network'
import { inPageRtt, rttVsTcpHandshake } from '../../checks/round-trips'
import { rttEvidenceOf } from '../../checks/rtt-gap'
import { publicVsHttp, webrtcVsHttp } from '../../checks/webrtc-vs-http'
import { acceptLanguageRegions, utcZone, zoneVsAcceptLanguage } from '../../checks/zone-regions'
import { proxyEvidence } from '../forwarded-addresses'
import type { Check } from '../scoring'
import { intelOf, lookupSection } from './ip-intel'
import { describeAddress, IpLookupSchema, localAddresses, webrtcAddresses } from './network-evidence'
import { tcpMss } from '../../checks/tcp-syn-os'
import { defineTool } from './types'

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

function verdictText(checks: readonly Check[]): string {
  const v = (def: { id: string }) => checks.find((c) => c.id === def.id)?.verdict
  const found = [
    v(webrtcVsHttp) === 'fail' && 'WebRTC reveals another public address',
    v(proxyHeaders) === 'fail' && 'a proxy announces itself in the headers',
    v(acceptLanguageVsLanguages) === 'fail' && 'Accept-Language was rewritten on the way',
    v(datacenterAsn) === 'fail' && 'the address belongs to a server, VPN or Tor network',
    v(zoneVsIpCountry) === 'fail' && 'the time zone is not one of the IP country',
    v(rttVsTcpHandshake) === 'fail' && 'the browser\'s round trip is far longer than the TCP handshake\'s (a TCP-terminating proxy such as SOCKS, HTTP CONNECT or Tor)',
  ].filter(Boolean)
  const weak = [
    v(utcZone) === 'warn' && 'a UTC time zone',
    v(zoneVsAcceptLanguage) === 'warn' && 'a time zone outside the languages\' regions',
    v(inPageRtt) === 'warn' && 'a long round trip',
    v(rttVsTcpHandshake) === 'warn' && 'an end-to-end round trip longer than the TCP handshake\'s',
    v(datacenterAsn) === 'warn' && 'a relay or possible hosting network',
    v(languagesVsIpCountry) === 'warn' && 'languages not spoken in the IP country',
    v(tcpMss) === 'warn' && 'a reduced TCP MSS (a tunnel, or a mobile link that clamps it)',
  ].filter(Boolean)
  const head = found.length
    ? `VPN or proxy detected: ${found.join('; ')}.`
    : weak.length
      ? `No direct sign of a VPN or proxy; weak hints: ${weak.join(', ')}.`
      : 'No sign of a VPN or proxy in what the service can test today.'
  const pending = v(rttVsTcpHandshake) === 'na' ? 'Not tested here: the TCP-handshake RTT (it needs the TLS listener, TLS_PORT) and the DNS resolver location (see dns-leak).' : 'Not tested here: the DNS resolver location (see dns-leak).'
  return `${head} ${pending}`
}

export const vpnDetector = defineTool({
  id: 'vpn-detector',
  signals: VpnDetectorSignals,
  sections: VpnDetectorSections,
  checks: [
    [httpAddress, 0],
    [webrtcVsHttp, 60],
    [proxyHeaders, 40],
    [acceptLanguageVsLanguages, 15],
    [utcZone, 10],
    [zoneVsAcceptLanguage, 10],
    [inPageRtt, 10],
    [rttVsTcpHandshake, 30],
    [zoneVsIpCountry, 30],
    [languagesVsIpCountry, 10],
    [datacenterAsn, 50],
    [resolverNetwork, 20],
    [listenerAddress, 10],
    [tcpMss, 10],
  ],
  addSections(s, judged, server, ctx) {
    const ice = signalValue(s.ice)
    const rtc = ice ? webrtcAddresses(ice) : null
    const zone = signalValue(s.zone)
    const proxy = proxyEvidence(server)
    const rtt = rttEvidenceOf(server)
    return {
      vpn: {
        address: server.ip,
        scope: describeAddress(server.ip).scope,
        proxyHeaders: proxy.headers,
        forwardedAddresses: proxy.foreign,
        webrtcPublic: rtc && publicVsHttp(rtc, server.ip, ctx).map((a) => a.address),
        webrtcLocal: rtc && localAddresses(rtc),
        timeZone: zone?.timeZone ?? null,
        languages: zone?.languages ?? null,
        acceptLanguageRegions: acceptLanguageRegions(server),
        pageRttMs: signalValue(s.rtt)?.medianMs ?? null,
        tcpRttMs: rtt?.tcp_rtt_ms ?? null,
        h2PingRttMs: rtt?.h2_ping_rtt_ms ?? null,
        lookup: lookupSection(intelOf(ctx, server.ip)),
      },
      verdict: verdictText(judged.checks),
    }
  },
})

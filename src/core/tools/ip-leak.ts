// ip-leak: every address this visit reveals, and whether they agree. The server sees the
// address the HTTP request came from (the socket peer, or X-Forwarded-For from the service's
// own trusted proxies) and any proxy headers on the way; the page adds what WebRTC hands to
// any script and which address families reach the service. A proxy or VPN hides the user's
// address only if none of these shows another one.
//
// The offline IP database (ctx.lookupIp, ip-intel.ts) places the HTTP address and every public
// WebRTC address: country, AS, organisation and the kind of network (cloud, hosting, CDN, VPN,
// Tor). Still missing: the A-only/AAAA-only host names that let the server see the IPv4 and
// the IPv6 address.

import { Type } from '@sinclair/typebox'
import { signalValue } from '../../../common/signal'
import { IpLeakSignals } from '../../../common/signals/ip-leak'
import { ipv4Request, ipv6Request } from '../../checks/address-families'
import { httpAddress } from '../../checks/http-address'
import { datacenterAsn, ipCountry } from '../../checks/ip-network'
import { forwardedAddressLeak, proxyHeaders } from '../../checks/proxy-headers'
import { webrtcLocalAddress } from '../../checks/webrtc-local-address'
import { publicVsHttp, webrtcVsHttp } from '../../checks/webrtc-vs-http'
import { proxyEvidence } from '../forwarded-addresses'
import type { Check } from '../scoring'
import { intelOf, lookupSection, networkText } from './ip-intel'
import { describeAddress, IpLookupSchema, webrtcAddresses } from './network-evidence'
import { defineTool } from './types'

export const IpLeakSections = Type.Object({
  ip: Type.Object({
    address: Type.String(),
    scope: Type.Union([Type.String(), Type.Null()]),
    family: Type.Union([Type.Literal(4), Type.Literal(6), Type.Null()]),
    proxy: Type.Object({
      headers: Type.Array(Type.Tuple([Type.String(), Type.String()])),
      forwarded: Type.Array(Type.Object({ header: Type.String(), address: Type.String(), scope: Type.String() })),
      viaServiceProxy: Type.Boolean(),
    }),
    webrtc: Type.Union([
      Type.Object({
        addresses: Type.Array(Type.Object({ address: Type.String(), kind: Type.String(), types: Type.Array(Type.String()) })),
        public: Type.Array(
          Type.Object({ address: Type.String(), sameAsHttp: Type.Boolean(), network: Type.Union([Type.String(), Type.Null()]), country: Type.Union([Type.String(), Type.Null()]), asn: Type.Union([Type.Integer(), Type.Null()]) }),
          { description: 'Public addresses among them, placed by the IP database and compared with the HTTP address (same address, IPv6 /64 or AS).' },
        ),
        candidates: Type.Integer(),
        hosts: Type.Integer(),
        mdnsHosts: Type.Integer(),
      }),
      Type.Null(),
    ]),
    families: Type.Object({
      ipv4: Type.Union([Type.Boolean(), Type.Null()], { description: 'Whether an IPv4-only request reached the service; null when not tried.' }),
      ipv6: Type.Union([Type.Boolean(), Type.Null()]),
      ipv4Address: Type.Union([Type.String(), Type.Null()], { description: 'The address the server saw on the IPv4-only name; null: the service offers no IPv4-only name yet.' }),
      ipv6Address: Type.Union([Type.String(), Type.Null()]),
    }),
    lookup: IpLookupSchema,
  }),
  verdict: Type.String({ description: 'One sentence for a person: what leaked, and what is not tested yet.' }),
})

const PENDING = 'Not tested yet: the addresses of IPv4-only and IPv6-only requests (they need A-only and AAAA-only host names of the service).'

function verdictText(checks: readonly Check[], address: string, network: string | null): string {
  const v = (def: { id: string }) => checks.find((c) => c.id === def.id)?.verdict
  const head =
    v(webrtcVsHttp) === 'fail'
      ? 'WebRTC leaks a public address other than the one the service sees.'
      : v(forwardedAddressLeak) === 'fail'
        ? 'A proxy forwards another public address in its headers.'
        : v(proxyHeaders) === 'fail'
          ? 'A proxy announces itself in the request headers.'
          : v(webrtcLocalAddress) === 'warn' || v(forwardedAddressLeak) === 'warn'
            ? `No second public address, but local network addresses are visible; the service saw ${address}.`
            : `No address leak found: the service saw ${address} and nothing revealed another address.`
  const where = network ? ` The address is in ${network}.` : ''
  return `${head}${where} ${PENDING}`
}

export const ipLeak = defineTool({
  id: 'ip-leak',
  signals: IpLeakSignals,
  sections: IpLeakSections,
  checks: [
    [httpAddress, 0],
    [proxyHeaders, 20],
    [forwardedAddressLeak, 40],
    [webrtcLocalAddress, 20],
    [webrtcVsHttp, 60],
    [ipv4Request, 0],
    [ipv6Request, 0],
    [ipCountry, 0],
    [datacenterAsn, 30],
  ],
  addSections(s, judged, server, ctx) {
    const addr = describeAddress(server.ip)
    const intel = intelOf(ctx, server.ip)
    const network = intel.status === 'found' ? networkText(intel.info) : null
    const proxy = proxyEvidence(server)
    const ice = signalValue(s.ice)
    const rtc = ice ? webrtcAddresses(ice) : null
    const fam = signalValue(s.families)
    return {
      ip: {
        address: server.ip,
        scope: addr.scope,
        family: addr.family,
        proxy: { headers: proxy.headers, forwarded: proxy.foreign, viaServiceProxy: proxy.viaServiceProxy },
        webrtc: rtc && { ...rtc, public: publicVsHttp(rtc, server.ip, ctx) },
        families: { ipv4: fam ? fam.ipv4.reachable : null, ipv6: fam ? fam.ipv6.reachable : null, ipv4Address: null, ipv6Address: null },
        lookup: lookupSection(intel),
      },
      verdict: verdictText(judged.checks, addr.text, network),
    }
  },
})

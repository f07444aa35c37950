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

import { Type, type Static } from '@sinclair/typebox'
import { check, type Check, type CheckDef } from '../scoring'
import { proxyEvidence } from '../forwarded-addresses'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { compareWithHttp, hostingVerdict, intelOf, lookupSection, networkText, whyNoIntel, type ComparedAddress, type HostingPolicy } from './ip-intel'
import { describeAddress, IceSignalSchema, IpLookupSchema, localAddresses, webrtcAddresses, type RevealedByWebrtc } from './network-evidence'
import type { ServerObservation } from './observation'
import { legacyTool, type JudgeContext } from './types'

const Reach = Type.Object({ url: Type.String({ maxLength: 300 }), reachable: Type.Boolean(), ms: Type.Number(), error: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]) })

export const IpLeakSignals = Type.Object({
  ice: IceSignalSchema,
  families: Signal(Type.Object({ ipv4: Reach, ipv6: Reach })),
})
export type IpLeakSignals = Static<typeof IpLeakSignals>

const DEFS = {
  address: { id: 'http-address', name: 'Address the service sees', source: 'server', weight: 0, why: 'The address the HTTP request came from: the socket peer, or the client named by X-Forwarded-For when the service sits behind its own trusted proxy (TRUSTED_PROXIES). It is what every site sees; a loopback or private address means the service is reached on the same machine or network, where no address-based check can say anything.' },
  proxy: { id: 'proxy-headers', name: 'No proxy announces itself', source: 'server', weight: 20, why: 'Browsers never send Via, Forwarded, X-Forwarded-For, X-Real-IP, True-Client-IP and similar headers: proxies on the way add them (corporate proxies, Squid, some VPN and "anonymous" proxy services), and scripts forge them. The service\'s own reverse proxy is recognised and not counted.' },
  forwarded: { id: 'forwarded-address-leak', name: 'Proxy headers reveal no other address', source: 'server', weight: 40, why: 'A transparent proxy forwards the address it received the request from: the user\'s real public address (a failed anonymous proxy) or a LAN address. A public address is a full leak; a private one only reveals the internal network, so it warns.' },
  webrtcLocal: { id: 'webrtc-local-address', name: 'WebRTC reveals no local network address', source: 'client', weight: 20, why: 'Any page can gather ICE candidates without a permission prompt. Current browsers hide the machine\'s interface addresses behind <uuid>.local names; a raw private, CGNAT or link-local address tells every site where the machine sits in its network, whatever VPN is in use. A granted camera/microphone permission or an old browser are the usual causes, so it warns.' },
  webrtcPublic: { id: 'webrtc-vs-http', name: 'WebRTC reveals no public address other than the HTTP one', source: 'client', weight: 60, why: 'A public address in an ICE candidate that is not the HTTP address (or in its IPv6 /64) means traffic can leave outside the proxy or VPN: the classic WebRTC leak. Without a STUN server only addresses bound to the machine itself show; the address a NAT gives it needs the service\'s STUN listener (see webrtc-leak).' },
  ipv4: { id: 'ipv4-request', name: 'IPv4-only request', source: 'client', weight: 0, why: 'A request that can only use IPv4 shows whether the browser reaches the service over IPv4. An A-only host name of the service would let the server see that IPv4 address too; the service does not offer one yet.' },
  ipv6: { id: 'ipv6-request', name: 'IPv6-only request', source: 'client', weight: 0, why: 'An IPv6-only request shows whether IPv6 works next to the main connection: many VPNs tunnel IPv4 only, and the IPv6 address then leaks the user\'s real network. An AAAA-only host name would let the server see that address; the service does not offer one yet.' },
  country: { id: 'ip-country', name: 'Country and network of the address', source: 'server', weight: 0, why: 'The country, AS and organisation the offline IP database (ip-location-db: geofeeds, RIR whois, RouteViews and DB-IP data) gives for the address; the timezone-geo and vpn-detector tools compare the country with the browser\'s time zone and languages. Informational.' },
  asn: { id: 'ip-asn-datacenter', name: 'Network of the address is not a datacenter', source: 'server', weight: 30, why: 'Addresses of cloud and hosting providers (AWS, GCP, OVH, …) and of VPN and Tor operators are where bots, proxies and VPN exits run; residential and mobile networks are where people are. A network recognised only by a word in its name ("hosting", "datacenter") and CDN egress (Cloudflare WARP, iCloud Private Relay relay people\'s traffic) only warn. Known false positives: corporate networks on cloud egress.' },
} as const satisfies Record<string, CheckDef>

const na = (def: CheckDef, expected: string, observed: unknown = null) => check(def, { verdict: 'na', observed, expected })

/** Any server network is what the check is about; guesses from a name and relays only warn. */
const HOSTING: HostingPolicy = { cloud: 'fail', hosting: 'fail', vpn: 'fail', tor: 'fail', cdn: 'warn', heuristic: 'warn' }

const NAMES_MISSING = 'needs A-only and AAAA-only host names of the service (not offered yet), so that the server sees this browser\'s address in each family'

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

function verdictText(checks: Check[], address: string, network: string | null): string {
  const v = (d: CheckDef) => checks.find((c) => c.id === d.id)?.verdict
  const head =
    v(DEFS.webrtcPublic) === 'fail'
      ? 'WebRTC leaks a public address other than the one the service sees.'
      : v(DEFS.forwarded) === 'fail'
        ? 'A proxy forwards another public address in its headers.'
        : v(DEFS.proxy) === 'fail'
          ? 'A proxy announces itself in the request headers.'
          : v(DEFS.webrtcLocal) === 'warn' || v(DEFS.forwarded) === 'warn'
            ? `No second public address, but local network addresses are visible; the service saw ${address}.`
            : `No address leak found: the service saw ${address} and nothing revealed another address.`
  const where = network ? ` The address is in ${network}.` : ''
  return `${head}${where} ${PENDING}`
}

export const ipLeak = legacyTool({
  id: 'ip-leak',
  signals: IpLeakSignals,
  sections: IpLeakSections,
  judge(s: IpLeakSignals, server: ServerObservation, ctx?: JudgeContext) {
    const checks: Check[] = []
    const addr = describeAddress(server.ip)
    const intel = intelOf(ctx, server.ip)
    const routable = addr.scope === 'public' || addr.scope === 'cgnat'

    if (routable) checks.push(check(DEFS.address, { verdict: 'pass', observed: addr.text, expected: 'any address: this is what every site sees' }))
    else checks.push(na(DEFS.address, addr.scope ? `a public address; ${addr.scope} means the service is reached from the same machine or network, so address-based checks cannot apply` : 'an IP address (the request came without a socket, e.g. in-process)', addr.text))

    // Proxy headers.
    const proxy = proxyEvidence(server)
    const listed = proxy.headers.map(([n, v]) => `${n}: ${v}`).join('; ')
    if (!proxy.headers.length) checks.push(check(DEFS.proxy, { verdict: 'pass', observed: 'none', expected: 'no Via, Forwarded, X-Forwarded-*, X-Real-IP or similar header' }))
    else if (proxy.viaServiceProxy) checks.push(check(DEFS.proxy, { verdict: 'pass', observed: `${listed} (added by the service's own trusted proxy)`, expected: 'no proxy headers beyond those of the service\'s own proxy' }))
    else checks.push(check(DEFS.proxy, { verdict: 'fail', observed: listed, expected: 'no Via, Forwarded, X-Forwarded-*, X-Real-IP or similar header' }))

    const pubForwarded = proxy.foreign.filter((a) => a.scope === 'public')
    const forwardedText = proxy.foreign.map((a) => `${a.address} (${a.scope}, ${a.header})`).join(', ')
    checks.push(check(DEFS.forwarded, { verdict: pubForwarded.length ? 'fail' : proxy.foreign.length ? 'warn' : 'pass', observed: forwardedText || 'none', expected: `no address other than ${server.ip} in proxy headers` }))

    // WebRTC.
    const ice = valueOf(s.ice)
    let rtc: RevealedByWebrtc | null = null
    let compared: ComparedAddress[] = []
    if (ice) {
      rtc = webrtcAddresses(ice)
      const gathered = `${rtc.candidates} candidate(s), ${rtc.mdnsHosts} of ${rtc.hosts} host candidate(s) behind mDNS names`
      const local = localAddresses(rtc)
      checks.push(check(DEFS.webrtcLocal, { verdict: local.length ? 'warn' : 'pass', observed: local.length ? local.join(', ') : gathered, expected: 'host candidates named <uuid>.local, no raw private address' }))
      compared = compareWithHttp(ctx, rtc.addresses.filter((a) => a.kind === 'public').map((a) => a.address), server.ip)
      const other = compared.filter((a) => !a.sameAsHttp)
      const same = compared.filter((a) => a.sameAsHttp)
      const httpNet = intel.status === 'found' ? networkText(intel.info) : null
      checks.push(check(DEFS.webrtcPublic, {
        verdict: other.length ? 'fail' : 'pass',
        observed: other.length
          ? { webrtc: other.map((a) => (a.network ? `${a.address} (${a.network})` : a.address)), http: httpNet ? `${server.ip} (${httpNet})` : server.ip }
          : same.length ? `only the HTTP address's network (${same.map((a) => a.address).join(', ')})` : `no public address (${gathered})`,
        expected: `no public address outside the network of ${server.ip} (the same address, its IPv6 /64 or its AS)`,
      }))
    } else {
      const why = `ICE gathering did not run (${whyMissing(s.ice)}): nothing can leak through WebRTC`
      checks.push(na(DEFS.webrtcLocal, why), na(DEFS.webrtcPublic, why))
    }

    // IPv4-only and IPv6-only requests.
    const fam = valueOf(s.families)
    for (const [def, r] of [[DEFS.ipv4, fam?.ipv4], [DEFS.ipv6, fam?.ipv6]] as const) {
      if (!r) checks.push(na(def, whyMissing(s.families)))
      else if (r.reachable) checks.push(check(def, { verdict: 'pass', observed: `${r.url} answered in ${r.ms} ms`, expected: `reachable; comparing the address it came from with the main request ${NAMES_MISSING}` }))
      else checks.push(na(def, `reachable when the service listens on this family (it may listen on one only, see HOST); comparing the address ${NAMES_MISSING}`, `${r.url}: ${r.error}`))
    }

    // Country, AS and kind of network (offline database).
    if (intel.status === 'found') {
      const { info } = intel
      checks.push(check(DEFS.country, { verdict: 'pass', observed: networkText(info), expected: 'any country and network: the other tools compare them' }))
      const v = hostingVerdict(info, HOSTING)
      checks.push(check(DEFS.asn, {
        verdict: v,
        observed: info.hostingReason ? networkText(info) : `AS${info.asn ?? '?'} ${info.org ?? ''}: not a known cloud, hosting, CDN, VPN or Tor network`.trim(),
        expected: 'a residential or mobile network',
      }))
    } else {
      const why = whyNoIntel(intel, server.ip)!
      checks.push(na(DEFS.country, why, addr.text), na(DEFS.asn, why, addr.text))
    }

    return {
      checks,
      sections: {
        ip: {
          address: server.ip,
          scope: addr.scope,
          family: addr.family,
          proxy: { headers: proxy.headers, forwarded: proxy.foreign, viaServiceProxy: proxy.viaServiceProxy },
          webrtc: rtc && { ...rtc, public: compared },
          families: { ipv4: fam ? fam.ipv4.reachable : null, ipv6: fam ? fam.ipv6.reachable : null, ipv4Address: null, ipv6Address: null },
          lookup: lookupSection(intel),
        },
        verdict: verdictText(checks, addr.text, intel.status === 'found' ? networkText(intel.info) : null),
      },
    }
  },
})

// What the offline IP database (ctx.lookupIp, src/core/tools/ip-intel.ts) says about the HTTP
// address: its country and AS, and whether the network is a datacenter, VPN or Tor operator's
// rather than a home or mobile line.

import type { IpInfo } from '../evidence/ipdb-core'
import { describeAddress } from '../core/tools/network-evidence'
import { hostingVerdict, intelOf, networkText, whyNoIntel, type HostingPolicy } from '../core/tools/ip-intel'
import type { ServerObservation } from '../core/tools/observation'
import { checkOn, type JudgeContext, na, type Outcome } from './define'

/** Any server network is what the checks are about; guesses from a name and relays (CDN egress) only warn. */
const HOSTING: HostingPolicy = { cloud: 'fail', hosting: 'fail', vpn: 'fail', tor: 'fail', cdn: 'warn', heuristic: 'warn' }

/** `na` with why the database cannot place the address; otherwise `found(info)`. */
function placed(server: ServerObservation, ctx: JudgeContext, found: (info: IpInfo) => Outcome): Outcome {
  const intel = intelOf(ctx, server.ip)
  if (intel.status === 'found') return found(intel.info)
  return { ...na(whyNoIntel(intel, server.ip)!), observed: describeAddress(server.ip).text }
}

const networkKind = (server: ServerObservation, ctx: JudgeContext): Outcome =>
  placed(server, ctx, (info) => ({
    verdict: hostingVerdict(info, HOSTING),
    observed: info.hostingReason ? networkText(info) : `AS${info.asn ?? '?'} ${info.org ?? ''}: not a known cloud, hosting, CDN, VPN or Tor network`.trim(),
    expected: 'a residential or mobile network',
  }))

const ipCheck = checkOn<object>()

export const ipCountry = ipCheck({
  id: 'ip-country',
  name: 'Country and network of the address',
  found: 'the address\'s country and network are unknown',
  source: 'server',
  why: 'The country, AS and organisation the offline IP database (ip-location-db: geofeeds, RIR whois, RouteViews and DB-IP data) gives for the address; the timezone-geo and vpn-detector tools compare the country with the browser\'s time zone and languages. Informational.',
  ref: 'https://github.com/sapics/ip-location-db',
  needs: [],
  judge: (_, { server, ctx }) => placed(server, ctx, (info) => ({ verdict: 'pass', observed: networkText(info), expected: 'any country and network: the other tools compare them' })),
})

export const datacenterAsn = ipCheck({
  id: 'datacenter-asn',
  name: 'Address is not in a datacenter, VPN or Tor network',
  found: 'the address is in a datacenter, VPN or Tor network',
  source: 'server',
  why: 'Commercial VPN exits, proxies and Tor exit relays sit in known hosting ASNs and published lists; people browse from residential and mobile networks. CDN egress (Cloudflare WARP, iCloud Private Relay) is a relay too but used by ordinary people, and networks recognised only by a word in their name may be wrong, so both only warn. Corporate cloud egress is the false positive.',
  needs: [],
  judge: (_, { server, ctx }) => networkKind(server, ctx),
})

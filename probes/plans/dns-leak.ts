import { definePlan, type ToolPlan } from '../core/runner'
import { dnsLookups } from '../signals/dns-lookups'
import { navigationTiming } from '../signals/navigation-timing'
import { networkInformation } from '../signals/network-information'

/** dns-leak's sources, made when its run starts (they read the page's nonce then). */
export function dnsLeakPlan(): ToolPlan {
  // The service's DNS zone, when it has one, is given by the page as <body data-dns-zone>; the
  // names carry the page's nonce (<body data-nonce>), under which the DNS server files what it
  // sees. The lookups wait at most 2 s for their loads, under the collector's 3 s per-signal
  // limit, and the page submits only after them, so the evidence is there when it is read.
  return definePlan(
    'dns-leak',
    {
      lookups: dnsLookups(document.body.dataset.dnsZone || null, document.body.dataset.nonce || null, 4, 2000),
      connection: networkInformation,
      navigation: navigationTiming,
    },
    { timeoutMs: 3000 },
  )
}

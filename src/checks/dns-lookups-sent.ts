// Whether the page made its DNS lookups (probes/signals/dns-lookups.ts): random names under
// the service's zone, which only its DNS server answers. Informational (weight 0): the
// finding is what that server saw (./resolver-network.ts).

import { NO_ZONE_MESSAGE } from '../../common/dns-zone'
import type { DnsLeakSignals } from '../../common/signals/dns-leak'
import { checkOn } from './define'

export const dnsLookupsSent = checkOn<DnsLeakSignals>()({
  id: 'dns-lookups-sent',
  name: 'The page triggered its DNS lookups',
  found: 'the page did not trigger its DNS lookups',
  source: 'client',
  why: 'The page loads random names under the service\'s zone with an <img> and a no-cors fetch; each load makes the browser resolve the name through whatever resolver it uses (OS, DoH, VPN). The loads themselves fail (nothing serves these names); the lookups are what the DNS server logs. Informational: it carries no weight.',
  expected: 'every name requested',
  needs: [],
  uses: ['lookups'],
  judge: ({ lookups }, { raw, missing }) => {
    if (!lookups) {
      const expected = noZone(raw) ? 'a DNS zone served by the service (DNS_ZONE): without one the page has no names to look up' : 'lookups made by the page'
      return { verdict: 'na', observed: missing('lookups'), expected }
    }
    const settled = lookups.names.filter((n) => n.outcome !== 'timeout').length
    return {
      verdict: lookups.names.length ? 'pass' : 'warn',
      observed: `${lookups.names.length} names under ${lookups.zone} requested (${settled} settled, ${lookups.names.length - settled} still pending at the time limit)`,
    }
  },
})

/** The page had no zone to look names up in: the service runs no DNS server (DNS_ZONE unset). */
export function noZone(s: Partial<Pick<DnsLeakSignals, 'lookups'>>): boolean {
  return !!s.lookups && !s.lookups.ok && s.lookups.error.message === NO_ZONE_MESSAGE
}

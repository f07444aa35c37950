// One request over IPv4 only and one over IPv6 only (probes/signals/ip-families.ts): whether
// the browser reaches the service in each family. Many VPNs tunnel IPv4 only, and the IPv6
// address then leaks the user's real network; comparing the addresses the server sees needs
// A-only and AAAA-only host names of the service, which it does not offer yet.

import type { FamilyReach, IpLeakSignals } from '../../common/signals/ip-leak'
import { checkOn, na, type Outcome } from './define'

const NAMES_MISSING = 'needs A-only and AAAA-only host names of the service (not offered yet), so that the server sees this browser\'s address in each family'

function reached(r: FamilyReach): Outcome {
  if (r.reachable) return { verdict: 'pass', observed: `${r.url} answered in ${r.ms} ms`, expected: `reachable; comparing the address it came from with the main request ${NAMES_MISSING}` }
  return { ...na(`reachable when the service listens on this family (it may listen on one only, see HOST); comparing the address ${NAMES_MISSING}`), observed: `${r.url}: ${r.error}` }
}

const familyCheck = checkOn<IpLeakSignals>()

export const ipv4Request = familyCheck({
  id: 'ipv4-request',
  name: 'IPv4-only request',
  found: 'the IPv4-only request came from another address than the HTTP one',
  source: 'client',
  why: 'A request that can only use IPv4 shows whether the browser reaches the service over IPv4. An A-only host name of the service would let the server see that IPv4 address too; the service does not offer one yet.',
  needs: ['families'],
  judge: ({ families }) => reached(families.ipv4),
})

export const ipv6Request = familyCheck({
  id: 'ipv6-request',
  name: 'IPv6-only request',
  found: 'the IPv6-only request came from another network than the HTTP one',
  source: 'client',
  why: 'An IPv6-only request shows whether IPv6 works next to the main connection: many VPNs tunnel IPv4 only, and the IPv6 address then leaks the user\'s real network. An AAAA-only host name would let the server see that address; the service does not offer one yet.',
  needs: ['families'],
  judge: ({ families }) => reached(families.ipv6),
})

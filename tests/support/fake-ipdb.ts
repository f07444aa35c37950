// A hand-made IP database for judge and app tests: the real one takes a second or more to
// load (src/evidence/ipdb.ts), and tests want addresses placed where they say.

import type { IpInfo, IpLookup } from '../../src/evidence/ipdb-core'
import { classifyNetwork } from '../../src/evidence/ipdb-hosting'
import { normalizeIp } from '../../src/core/ip'
import { ipScope } from '../../src/core/ip-scope'

export interface FakeNetwork {
  country: string | null
  asn: number | null
  org: string | null
}

/**
 * A lookup over `table` (address → network): addresses not in it are `unlisted`, non-public
 * ones `private`, as the real lookup answers. The hosting verdict is the real classifier's.
 */
export function fakeLookup(table: Record<string, FakeNetwork>): (ip: string) => IpLookup {
  return (ip) => {
    const scope = ipScope(ip)
    if (scope === null) return { ok: false, reason: 'invalid', scope: null }
    if (scope !== 'public') return { ok: false, reason: 'private', scope }
    const key = normalizeIp(ip)
    const n = table[key]
    if (!n) return { ok: false, reason: 'unlisted', scope }
    const hostingReason = classifyNetwork(n.asn, n.org)
    const info: IpInfo = { ip: key, version: key.includes(':') ? 6 : 4, country: n.country, asn: n.asn, org: n.org, hosting: hostingReason !== null, hostingReason }
    return { ok: true, info }
  }
}

/** Networks the tests use, with real AS numbers so the curated hosting list applies. */
export const NETWORKS = {
  telekom: { country: 'DE', asn: 3320, org: 'Deutsche Telekom AG' },
  aaisp: { country: 'GB', asn: 20712, org: 'Andrews & Arnold Ltd' },
  comcast: { country: 'US', asn: 7922, org: 'Comcast Cable Communications, LLC' },
  aws: { country: 'US', asn: 16509, org: 'Amazon.com, Inc.' },
  hetznerDe: { country: 'DE', asn: 24940, org: 'Hetzner Online GmbH' },
  m247Nl: { country: 'NL', asn: 9009, org: 'M247 Europe SRL' },
  mullvad: { country: 'SE', asn: 39351, org: '31173 Services AB' },
  cloudflare: { country: 'US', asn: 13335, org: 'Cloudflare, Inc.' },
  smallHost: { country: 'FR', asn: 64999, org: 'Example Hosting SAS' },
  google: { country: 'US', asn: 15169, org: 'Google LLC' },
} as const satisfies Record<string, FakeNetwork>

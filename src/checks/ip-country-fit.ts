// The browser's time zone and languages against the country the offline IP database places
// the HTTP address in: a VPN exit in another country moves the address, not the machine.

import { intelOf, languagesFitCountry, networkText, whyNoIntel, zoneFitsCountry } from '../core/tools/ip-intel'
import type { ServerObservation } from '../core/tools/observation'
import { checkOn, type JudgeContext, na, type Outcome } from './define'
import type { ZoneSignals } from './zone-regions'

/** The HTTP address's country, or why there is none to compare with. */
function ipCountry(server: ServerObservation, ctx: JudgeContext): { country: string } | { why: string } {
  const intel = intelOf(ctx, server.ip)
  if (intel.status !== 'found') return { why: whyNoIntel(intel, server.ip)! }
  return intel.info.country ? { country: intel.info.country } : { why: `an address the database places in a country (${networkText(intel.info)})` }
}

const countryCheck = checkOn<ZoneSignals>()

export const zoneVsIpCountry = countryCheck({
  id: 'zone-vs-ip-country',
  name: 'Time zone fits the IP country',
  found: 'the time zone does not fit the IP country',
  source: 'server',
  why: 'A VPN exit in another country moves the address but not the browser\'s time zone: the most common VPN tell. Travellers and users who keep their home zone are the false positives.',
  needs: [],
  uses: ['zone'],
  judge: ({ zone }, { server, ctx, missing }): Outcome => {
    const ip = ipCountry(server, ctx)
    if ('why' in ip) return { ...na(ip.why), observed: zone ? zone.timeZone : null }
    if (!zone) return na(missing('zone'))
    const observed = `${zone.timeZone}; IP in ${ip.country}`
    const fits = zoneFitsCountry(zone.timeZone, ip.country, new Date(server.receivedAt).getUTCFullYear())
    if (fits === null) return { ...na('a regional zone: UTC belongs to no country'), observed }
    return { verdict: fits ? 'pass' : 'fail', observed, expected: `a zone of ${ip.country}, or one with the same offsets` }
  },
})

export const languagesVsIpCountry = countryCheck({
  id: 'languages-vs-ip-country',
  name: 'Languages fit the IP country',
  found: 'the languages do not fit the IP country',
  source: 'server',
  why: 'Languages spoken in the IP country are expected; a mismatch alone is weak (English is used everywhere), so it adds little.',
  needs: [],
  uses: ['zone'],
  judge: ({ zone }, { server, ctx, missing }): Outcome => {
    const ip = ipCountry(server, ctx)
    if ('why' in ip) return { ...na(ip.why), observed: zone ? zone.languages.join(', ') : null }
    if (!zone) return na(missing('zone'))
    const fit = languagesFitCountry(zone.languages, ip.country)
    return {
      verdict: fit === false ? 'warn' : 'pass',
      observed: `${zone.languages.join(', ') || '(none)'}; IP in ${ip.country}${fit === null ? ' (English only: fits anywhere)' : ''}`,
      expected: `a language of ${ip.country} or one naming it`,
    }
  },
})

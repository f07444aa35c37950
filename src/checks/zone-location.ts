// Where the zone places the browser, against where it should be: plain UTC (servers,
// containers), the regions its languages name, and the country of the address the request
// came from (the offline IP database, ctx.lookupIp). A zone set for the whole browser (CDP or
// Playwright emulation, the OS) passes every in-browser check; only these can contradict it.

import type { IntlZone, TimezoneGeoSignals } from '../../common/signals/timezone-geo'
import { isUtcZone, languageRegion, zoneFitsRegions } from '../../common/tz-offset'
import type { ServerObservation } from '../core/tools/observation'
import { intelOf, languagesFitCountry, networkText, whyNoIntel, zoneFitsCountry } from '../core/tools/ip-intel'
import { checkOn, type JudgeContext, na } from './define'
import { acceptTags, langBase, noZone, reportedZone, serverYear } from './zone-facts'
import { spoofedZoneNote } from './zone-regions'

const onTime = checkOn<TimezoneGeoSignals>()

/** The country the offline IP database places the request's address in, when it does. */
export function ipCountryOf(ctx: JudgeContext, server: Pick<ServerObservation, 'ip'>): string | null {
  const intel = intelOf(ctx, server.ip)
  return intel.status === 'found' ? intel.info.country : null
}

/** The regions the preferred languages and the Accept-Language header name (bare "en" names none). */
function languageRegions(intl: IntlZone | undefined, accept: readonly string[]): string[] {
  const tags = [...(intl?.languages ?? []), ...accept].filter((t) => !(langBase(t) === 'en' && !/[-_]/.test(t)))
  return [...new Set(tags.map(languageRegion).filter((r): r is string => !!r))]
}

export const zoneLanguage = onTime({
  id: 'zone-language',
  name: 'Zone fits the languages’ regions',
  found: 'the zone fits none of the languages’ regions',
  source: 'client',
  why: 'The regions of the preferred languages (explicit, like de-AT, or likely, like de → DE) usually include the time zone, or at least one with the same offsets. Expatriates and English-language setups make mismatches common, so this only adds a small warning; it mostly helps to explain other findings.',
  needs: [],
  uses: ['offsets', 'zone'],
  judge: ({ offsets, zone: intl }, { server, raw }) => {
    const zone = reportedZone(offsets, intl)
    if (!zone) return na(noZone(raw))
    if (isUtcZone(zone)) return na('UTC belongs to no region')
    const regions = languageRegions(intl, acceptTags(server))
    if (!regions.length) return na('no language names a region')
    const fits = zoneFitsRegions(zone, regions, serverYear(server))
    const note = fits ? '' : spoofedZoneNote(zone)
    return { verdict: fits ? 'pass' : 'warn', observed: { zone, languageRegions: regions, ...(note ? { note } : {}) }, expected: `a zone of ${regions.join(', ')} or one with the same offsets` }
  },
})

export const ipZone = onTime({
  id: 'ip-zone',
  name: 'Zone and languages fit the IP’s location',
  found: 'zone and languages do not fit the IP’s location',
  source: 'server',
  why: 'The strongest check of a time zone is the location of the address the request came from: a browser in Europe/Berlin behind a US address is behind a proxy or VPN, or its zone is faked. The country comes from the offline IP database (geofeeds, then RIR whois); a zone passes when it is one of the country\'s (CLDR) or has the same offsets in January and July, so neighbours in one zone pass. Travellers who keep their home zone are the false positive. With the zone right, languages that fit neither the country nor English only warn.',
  needs: [],
  uses: ['offsets', 'zone'],
  judge: ({ offsets, zone: intl }, { server, ctx, raw }) => {
    const intel = intelOf(ctx, server.ip)
    if (intel.status !== 'found') return na(whyNoIntel(intel, server.ip)!)
    const ipCountry = intel.info.country
    if (!ipCountry) return na(`an address the database places in a country (${server.ip}: ${networkText(intel.info)})`)
    const zone = reportedZone(offsets, intl)
    if (!zone) return na(noZone(raw))
    const tongues = [...new Set([...(intl?.languages ?? []), ...acceptTags(server)])]
    const fits = zoneFitsCountry(zone, ipCountry, serverYear(server))
    const observed = { zone, languages: tongues.slice(0, 6), ipCountry, network: networkText(intel.info) }
    if (fits === null) return { verdict: 'na', observed, expected: 'a regional zone: UTC belongs to no country (see utc-zone)' }
    return {
      verdict: !fits ? 'fail' : languagesFitCountry(tongues, ipCountry) === false ? 'warn' : 'pass',
      observed,
      expected: `a zone of ${ipCountry} (or one with its offsets), and a language of ${ipCountry} or English`,
    }
  },
})

// The browser's time zone on its own and against the regions its Accept-Language names. A VPN
// moves the address, never the machine's zone; servers, containers and fingerprint-resisting
// browsers report UTC.

import type { IntlZone } from '../../common/signals/timezone-geo'
import type { SignalResult } from '../../common/signal'
import { isUtcZone, languageRegion, zoneFitsRegions } from '../../common/tz-offset'
import { parseAcceptLanguage, preferredTags } from '../core/accept-language'
import { header, type ServerObservation } from '../core/tools/observation'
import { checkOn, na } from './define'

/** The signal these checks read: probes/signals/tz-zone.ts, as timezone-geo and vpn-detector collect it. */
export interface ZoneSignals {
  zone: SignalResult<IntlZone>
}

/** The regions the Accept-Language header names (de-AT → AT), in preference order. */
export function acceptLanguageRegions(server: Pick<ServerObservation, 'headers'>): string[] {
  const raw = header(server, 'accept-language')
  const tags = raw === undefined ? [] : preferredTags(parseAcceptLanguage(raw))
  return [...new Set(tags.map(languageRegion).filter((r): r is string => !!r))]
}

/**
 * A note for a zone that Gecko's resistFingerprinting reports whatever the machine's
 * (Atlantic/Reykjavik since Firefox 128; UTC before it), so a mismatch with the languages'
 * regions there may be the setting, not the place: empty for other zones.
 */
export function spoofedZoneNote(zone: string): string {
  return zone === 'Atlantic/Reykjavik' ? 'Atlantic/Reykjavik is also the zone Firefox with resistFingerprinting (and Tor Browser) reports, whatever the machine’s' : ''
}

const zoneCheck = checkOn<ZoneSignals>()

export const utcZone = zoneCheck({
  id: 'utc-zone',
  name: 'Time zone is a regional one',
  found: 'the time zone is UTC, not a regional one',
  source: 'client',
  why: 'UTC is what servers, containers, CI machines and cloud desktops run in, so headless browsers there report it; so did Tor Browser and Firefox with resistFingerprinting before Firefox 128 (since then they report Atlantic/Reykjavik). People\'s machines are set to a regional zone, though some in UTC±0 countries set UTC on purpose, so it only warns.',
  expected: 'a regional zone such as Europe/Paris',
  needs: ['zone'],
  judge: ({ zone }) => ({ verdict: isUtcZone(zone.timeZone) ? 'warn' : 'pass', observed: zone.timeZone || '(none)' }),
})

export const zoneVsAcceptLanguage = zoneCheck({
  id: 'zone-vs-accept-language',
  name: 'Time zone fits the Accept-Language regions',
  found: 'the time zone fits none of the Accept-Language regions',
  source: 'server',
  why: 'The regions of the languages the browser sends (de-AT → AT, de → DE) usually include its time zone or one with the same offsets. A mismatch alone is common (expatriates, English setups), so it only warns; with the IP country (zone-vs-ip-country) it shows which side a VPN changed.',
  needs: ['zone'],
  judge: ({ zone }, { server }) => {
    if (isUtcZone(zone.timeZone)) return { ...na('a regional zone: UTC belongs to no region'), observed: zone.timeZone }
    const regions = acceptLanguageRegions(server)
    if (!regions.length) return { ...na('Accept-Language names no region'), observed: header(server, 'accept-language') ?? null }
    const fits = zoneFitsRegions(zone.timeZone, regions, new Date(server.receivedAt).getUTCFullYear())
    const note = fits ? '' : spoofedZoneNote(zone.timeZone)
    return { verdict: fits ? 'pass' : 'warn', observed: `${zone.timeZone}; Accept-Language regions ${regions.join(', ')}${note ? ` (${note})` : ''}`, expected: `a zone of ${regions.join(', ')} or one with the same offsets` }
  },
})

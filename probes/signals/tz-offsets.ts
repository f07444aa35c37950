// getTimezoneOffset at fixed instants (15 January and 15 July of 1970, 1990, 2000, 2010 and
// this year, plus now) next to the offset the resolved zone's rules give at the same instants,
// computed with Intl. In a consistent browser both come from the same tzdata and agree exactly,
// history included (Europe/Moscow was UTC+3/+4 in 2010, UTC+4 all year in 2012–2014, UTC+3
// since). A spoofer that patches getTimezoneOffset to a constant, or renames the zone without
// changing Date, disagrees somewhere; the server repeats the rules computation with its own ICU.

import type { TzOffsets } from '../../common/signals/timezone-geo'
import { sampleInstants, sampleYears, zoneOffsetMinutes } from '../../common/tz-offset'

export function tzOffsets(): TzOffsets {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? ''
  const now = Math.floor(Date.now() / 60000) * 60000
  const instants = [...sampleInstants(sampleYears(new Date(now).getUTCFullYear())), now]
  return {
    zone: zone.slice(0, 64),
    samples: instants.map((at) => ({ at, date: new Date(at).getTimezoneOffset(), intl: zone ? zoneOffsetMinutes(zone, at) : null })),
  }
}

// timezone-geo: the time zone, its offsets now and in the past, the locale and languages, the
// same in a worker, and the page's clock, each against what it should agree with: the zone's
// own rules (re-computed here with the server's ICU), Date.prototype.toString, the worker, the
// Accept-Language header and the server's clock. A zone faked in JavaScript rarely survives all
// of them; a zone set for the whole browser (CDP/Playwright emulation, the OS) does, and then
// only the IP location can contradict it: the offline IP database (ctx.lookupIp) gives the
// address's country, whose zones (CLDR, through Intl) the browser's zone must be among or
// share its offsets with. The checks are in src/checks (zone-offsets, worker-zone,
// preferred-languages, zone-location, page-clock, geolocation-api).

import { Type } from '@sinclair/typebox'
import { signalValue } from '../../../common/signal'
import { TimezoneGeoSignals } from '../../../common/signals/timezone-geo'
import { formatOffset } from '../../../common/tz-offset'
import { geolocationApi } from '../../checks/geolocation-api'
import { clockMonotonic, clockSkew, clockSkewMs } from '../../checks/page-clock'
import { acceptLanguageVsLanguages } from '../../checks/accept-language-header'
import { localeConsistent } from '../../checks/preferred-languages'
import { tzWorker } from '../../checks/worker-zone'
import { acceptTags, nowSample, reportedZone } from '../../checks/zone-facts'
import { ipCountryOf, ipZone, zoneLanguage } from '../../checks/zone-location'
import { utcZone } from '../../checks/zone-regions'
import { tzDateString, tzOffsetsConsistent, tzRulesServer } from '../../checks/zone-offsets'
import { defineTool } from './types'

export const timezoneGeo = defineTool({
  id: 'timezone-geo',
  signals: TimezoneGeoSignals,
  sections: Type.Object({ timezone: Type.Unknown() }),
  checks: [
    [tzOffsetsConsistent, 40],
    [tzRulesServer, 30],
    [tzDateString, 25],
    [tzWorker, 35],
    [utcZone, 8],
    [localeConsistent, 10],
    [acceptLanguageVsLanguages, 25],
    [zoneLanguage, 6],
    [clockSkew, 20],
    [clockMonotonic, 10],
    [geolocationApi, 6],
    [ipZone, 30],
  ],
  addSections(s, _judged, server, ctx) {
    const intl = signalValue(s.zone)
    const offsets = signalValue(s.offsets)
    const ds = signalValue(s.dateString)
    const clock = signalValue(s.clock)
    const geo = signalValue(s.geolocation)
    const now = nowSample(offsets)
    const skew = clock ? clockSkewMs(clock, server) : null
    return {
      timezone: {
        zone: reportedZone(offsets, intl) || null,
        utcOffset: now ? formatOffset(now.date) : ds ? formatOffset(ds.offset) : null,
        locale: intl?.locale ?? null,
        calendar: intl?.calendar ?? null,
        hourCycle: intl?.hourCycle ?? null,
        languages: intl?.languages ?? null,
        acceptLanguage: acceptTags(server),
        workerZone: signalValue(s.worker)?.timeZone ?? null,
        clockSkewSeconds: skew === null ? null : Math.round(skew / 100) / 10 || 0,
        geolocation: geo ? { present: geo.present, permission: geo.permission } : null,
        ipCountry: ipCountryOf(ctx, server),
      },
    }
  },
})

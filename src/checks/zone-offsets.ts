// The zone's offsets, three ways: getTimezoneOffset against the zone's rules through Intl in the
// same browser, against the server's own ICU, and against what Date.prototype.toString prints.
// A zone renamed in JavaScript, or a getTimezoneOffset patched to a constant, breaks one of
// them, usually in summer or in the past.

import type { TimezoneGeoSignals } from '../../common/signals/timezone-geo'
import { formatOffset, parseDateString, zoneOffsetMinutes } from '../../common/tz-offset'
import { checkOn, na } from './define'
import { reportedZone, serverYear } from './zone-facts'

const onTime = checkOn<TimezoneGeoSignals>()
const day = (at: number) => new Date(at).toISOString().slice(0, 10)

export const tzOffsetsConsistent = onTime({
  id: 'tz-offsets-consistent',
  name: 'Date offsets follow the zone’s rules',
  found: 'Date offsets break the zone’s rules',
  source: 'client',
  why: 'getTimezoneOffset at fixed instants (January and July of 1970, 1990, 2000, 2010, this year, and now) must equal what the reported zone’s rules give through Intl in the same browser: both come from the same tzdata. Spoofers that rename the zone or return a constant offset break this, usually in summer or in the past.',
  needs: ['offsets'],
  uses: ['zone'],
  judge: ({ offsets, zone: intl }) => {
    if (!offsets.samples.some((x) => x.intl !== null)) return na('Intl could not compute offsets for the zone in this browser')
    const zone = reportedZone(offsets, intl)
    const bad = offsets.samples.filter((x) => x.intl !== null && x.intl !== x.date)
    return {
      verdict: bad.length ? 'fail' : 'pass',
      observed: bad.length
        ? { zone, mismatches: bad.slice(0, 6).map((x) => ({ day: day(x.at), getTimezoneOffset: x.date, zoneRules: x.intl })) }
        : `${zone}: ${offsets.samples.length} instants agree`,
      expected: 'getTimezoneOffset equal to the zone’s Intl offset at every instant',
    }
  },
})

export const tzRulesServer = onTime({
  id: 'tz-rules-server',
  name: 'Offsets match the zone on the server’s clock data',
  found: 'offsets differ from the zone on the server’s clock data',
  source: 'client',
  why: 'The server re-computes the claimed zone’s offsets with its own ICU. A mismatch this year or last means the offsets were invented; a mismatch only in past years can be a different tzdata version (zones merged in 2022 changed some pre-1970 history), so it only warns. A zone name the server does not know is either newer than its data or made up.',
  ref: 'https://data.iana.org/time-zones/tz-link.html',
  needs: ['offsets'],
  uses: ['zone'],
  judge: ({ offsets, zone: intl }, { server }) => {
    const zone = reportedZone(offsets, intl)
    if (!zone) return na('no zone reported')
    const expected = offsets.samples.map((x) => ({ ...x, server: zoneOffsetMinutes(zone, x.at) }))
    if (expected.every((x) => x.server === null)) return { verdict: 'warn', observed: { zone }, expected: 'a zone name known to the server’s time-zone data' }
    const bad = expected.filter((x) => x.server !== null && x.server !== x.date)
    const recent = bad.filter((x) => new Date(x.at).getUTCFullYear() >= serverYear(server) - 1)
    return {
      verdict: recent.length ? 'fail' : bad.length ? 'warn' : 'pass',
      observed: bad.length ? { zone, mismatches: bad.slice(0, 6).map((x) => ({ day: day(x.at), browser: x.date, server: x.server })) } : `${zone}: ${expected.length} instants agree with the server`,
      expected: `the offsets of ${zone} in the server’s tzdata`,
    }
  },
})

export const tzDateString = onTime({
  id: 'tz-date-string',
  name: 'Date.toString agrees with the offset and zone name',
  found: 'Date.toString contradicts the offset or zone name',
  source: 'client',
  why: 'Date.prototype.toString prints the offset and zone name from the engine’s own time-zone code; a patched getTimezoneOffset leaves it unchanged (fail). A name unlike Intl’s long name for the zone warns: it can also come from an unusual locale.',
  ref: 'https://tc39.es/ecma262/#sec-timezoneestring',
  needs: ['dateString'],
  judge: ({ dateString: ds }) => {
    const parsed = parseDateString(ds.text)
    if (!parsed) return { verdict: 'warn', observed: ds.text, expected: 'a "GMT±hhmm (Zone Name)" suffix' }
    const names = [ds.intlName, ds.intlNameEn].filter((n): n is string => !!n).map((n) => n.toLowerCase())
    const nameOk = !parsed.name || names.length === 0 || names.includes(parsed.name.toLowerCase())
    return {
      verdict: parsed.offset !== ds.offset ? 'fail' : nameOk ? 'pass' : 'warn',
      observed: { toString: ds.text.replace(/^.*?(GMT)/, '$1'), getTimezoneOffset: ds.offset, intlName: ds.intlName ?? ds.intlNameEn },
      expected: `GMT${formatOffset(ds.offset).replace(':', '')} and the zone’s Intl long name`,
    }
  },
})

// Date.prototype.toString prints the offset and the zone's long name ("GMT+0100 (Central
// European Standard Time)") from the engine's own time-zone code, which JavaScript spoofers
// rarely patch along with getTimezoneOffset; the name should match what Intl calls the zone.
// https://tc39.es/ecma262/#sec-timezoneestring

import type { TzDateString } from '../../common/signals/timezone-geo'

export function dateString(): TzDateString {
  const at = Math.floor(Date.now() / 60000) * 60000
  const d = new Date(at)
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  const longName = (locale: string | undefined) => {
    try {
      return new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'long' }).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? null
    } catch {
      return null
    }
  }
  return { at, offset: d.getTimezoneOffset(), text: d.toString().slice(0, 200), intlName: longName(undefined)?.slice(0, 100) ?? null, intlNameEn: longName('en-US')?.slice(0, 100) ?? null }
}

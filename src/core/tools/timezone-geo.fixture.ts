// What a consistent desktop browser in a given zone reports to timezone-geo, for the tool's
// tests and its checks' (src/checks/zone-offsets, worker-zone, preferred-languages,
// zone-location, page-clock, geolocation-api).

import type { TimezoneGeoSignals } from '../../../common/signals/timezone-geo'
import { sampleInstants, sampleYears, zoneOffsetMinutes } from '../../../common/tz-offset'
import type { Check } from '../scoring'
import type { ServerObservation } from './observation'
import { timezoneGeo } from './timezone-geo'

export const NOW = Date.UTC(2026, 10, 21, 13, 45)
export const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
export const ok = <T>(value: T) => ({ ok: true as const, value, ms: 2 })
export const err = (kind: 'unsupported' | 'blocked' | 'timeout' | 'error', message: string) => ({ ok: false as const, error: { kind, message }, ms: 2 })

export const server = (acceptLanguage: string | null = 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', receivedAt = NOW + 150): ServerObservation => ({
  ip: '198.51.100.4',
  userAgent: UA,
  headers: [['user-agent', UA], ...(acceptLanguage === null ? [] : [['accept-language', acceptLanguage] as [string, string]])],
  receivedAt,
})

/** What a consistent browser in `zone` reports (offsets from the zone's rules). */
export function browserIn(zone: string, opts: { locale?: string; languages?: string[]; text?: string } = {}): TimezoneGeoSignals {
  const instants = [...sampleInstants(sampleYears(2026)), NOW]
  const off = (at: number) => zoneOffsetMinutes(zone, at)!
  const languages = opts.languages ?? ['de-DE', 'de', 'en-US', 'en']
  const now = off(NOW)
  return {
    zone: ok({ timeZone: zone, locale: opts.locale ?? 'de-DE', calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h23', language: languages[0]!, languages }),
    languages: ok({ language: languages[0]!, languages }),
    offsets: ok({ zone, samples: instants.map((at) => ({ at, date: off(at), intl: off(at) })) }),
    dateString: ok({ at: NOW, offset: now, text: opts.text ?? 'Sat Nov 21 2026 14:45:00 GMT+0100 (Mitteleuropäische Normalzeit)', intlName: 'Mitteleuropäische Normalzeit', intlNameEn: 'Central European Standard Time' }),
    worker: ok({ timeZone: zone, locale: opts.locale ?? 'de-DE', offsetNow: now, jan: off(Date.UTC(2026, 0, 15, 12)), jul: off(Date.UTC(2026, 6, 15, 12)), language: languages[0]!, languages }),
    clock: ok({ now: NOW + 100, perf: NOW + 100 }),
    geolocation: ok({ present: true, secureContext: true, permission: 'prompt', permissionError: null }),
  }
}

export const byId = (checks: Check[], id: string) => {
  const c = checks.find((x) => x.id === id)
  if (!c) throw new Error(`no check ${id}`)
  return c
}
export const judge = (s: TimezoneGeoSignals, obs = server()) => timezoneGeo.judge(s, obs)

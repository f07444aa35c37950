import { describe, expect, test } from 'bun:test'
import { summarize, type Check } from '../scoring'
import type { ServerObservation } from './observation'
import { relation, timezoneGeo, zoneFitsRegions, type TimezoneGeoSignals } from './timezone-geo'
import { sampleInstants, sampleYears, zoneOffsetMinutes } from '../../../common/tz-offset'
import { fakeLookup, NETWORKS } from '../../../tests/support/fake-ipdb'

const NOW = Date.UTC(2026, 10, 21, 13, 45)
const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const ok = <T>(value: T) => ({ ok: true as const, value, ms: 2 })
const err = (kind: 'unsupported' | 'blocked' | 'timeout' | 'error', message: string) => ({ ok: false as const, error: { kind, message }, ms: 2 })

const server = (acceptLanguage: string | null = 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', receivedAt = NOW + 150): ServerObservation => ({
  ip: '198.51.100.4',
  userAgent: UA,
  headers: [['user-agent', UA], ...(acceptLanguage === null ? [] : [['accept-language', acceptLanguage] as [string, string]])],
  receivedAt,
})

/** What a consistent browser in `zone` reports (offsets from the zone's rules). */
function browserIn(zone: string, opts: { locale?: string; languages?: string[]; text?: string } = {}): TimezoneGeoSignals {
  const instants = [...sampleInstants(sampleYears(2026)), NOW]
  const off = (at: number) => zoneOffsetMinutes(zone, at)!
  const languages = opts.languages ?? ['de-DE', 'de', 'en-US', 'en']
  const now = off(NOW)
  return {
    zone: ok({ timeZone: zone, locale: opts.locale ?? 'de-DE', calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h23', language: languages[0]!, languages }),
    offsets: ok({ zone, samples: instants.map((at) => ({ at, date: off(at), intl: off(at) })) }),
    dateString: ok({ at: NOW, offset: now, text: opts.text ?? 'Sat Nov 21 2026 14:45:00 GMT+0100 (Mitteleuropäische Normalzeit)', intlName: 'Mitteleuropäische Normalzeit', intlNameEn: 'Central European Standard Time' }),
    worker: ok({ timeZone: zone, locale: opts.locale ?? 'de-DE', offsetNow: now, jan: off(Date.UTC(2026, 0, 15, 12)), jul: off(Date.UTC(2026, 6, 15, 12)), language: languages[0]!, languages }),
    clock: ok({ now: NOW + 100, perf: NOW + 100 }),
    geolocation: ok({ present: true, secureContext: true, permission: 'prompt', permissionError: null }),
  }
}

const byId = (checks: Check[], id: string) => {
  const c = checks.find((x) => x.id === id)
  if (!c) throw new Error(`no check ${id}`)
  return c
}
const judge = (s: TimezoneGeoSignals, obs = server()) => timezoneGeo.judge(s, obs)

describe('timezone-geo judge', () => {
  test('a German desktop browser in Europe/Berlin passes everything that applies', () => {
    const { checks, sections } = judge(browserIn('Europe/Berlin'))
    expect(checks.filter((c) => c.verdict === 'warn' || c.verdict === 'fail').map((c) => c.id)).toEqual([])
    expect(byId(checks, 'ip-zone').verdict).toBe('na')
    expect(summarize(checks).score).toBe(100)
    expect(sections!.timezone).toMatchObject({ zone: 'Europe/Berlin', utcOffset: '+01:00', clockSkewSeconds: 0 })
  })

  test('headless Chromium in a UTC container only gets the UTC warning', () => {
    const s = browserIn('UTC', { locale: 'en-US', languages: ['en-US'], text: 'Sat Nov 21 2026 13:45:00 GMT+0000 (Coordinated Universal Time)' })
    s.dateString = ok({ at: NOW, offset: 0, text: 'Sat Nov 21 2026 13:45:00 GMT+0000 (Coordinated Universal Time)', intlName: 'Coordinated Universal Time', intlNameEn: 'Coordinated Universal Time' })
    const { checks } = judge(s, server('en-US'))
    expect(checks.filter((c) => c.verdict === 'warn' || c.verdict === 'fail').map((c) => c.id)).toEqual(['tz-not-utc'])
    expect(byId(checks, 'zone-language').verdict).toBe('na')
    expect(summarize(checks).score).toBe(96)
  })

  test('a zone renamed in JavaScript with the real offsets kept fails both offset checks', () => {
    // Intl claims New York but Date still runs in Berlin time.
    const s = browserIn('Europe/Berlin')
    const ny = (at: number) => zoneOffsetMinutes('America/New_York', at)
    s.offsets = ok({ zone: 'America/New_York', samples: (s.offsets as { value: { samples: { at: number; date: number }[] } }).value.samples.map((x) => ({ ...x, intl: ny(x.at) })) })
    s.zone = ok({ timeZone: 'America/New_York', locale: 'en-US', calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h12', language: 'de-DE', languages: ['de-DE', 'de', 'en-US', 'en'] })
    const { checks } = judge(s)
    expect(byId(checks, 'tz-offsets-consistent').verdict).toBe('fail')
    expect(byId(checks, 'tz-rules-server').verdict).toBe('fail')
    expect(byId(checks, 'tz-worker').verdict).toBe('fail')
    expect(summarize(checks).score).toBeLessThanOrEqual(10)
  })

  test('a patched getTimezoneOffset disagrees with Date.toString', () => {
    const s = browserIn('Europe/Berlin')
    s.dateString = ok({ at: NOW, offset: 300, text: 'Sat Nov 21 2026 14:45:00 GMT+0100 (Central European Standard Time)', intlName: 'Central European Standard Time', intlNameEn: 'Central European Standard Time' })
    expect(byId(judge(s).checks, 'tz-date-string').verdict).toBe('fail')
  })

  test('history that differs only before last year warns (tzdata versions)', () => {
    const s = browserIn('Europe/Berlin')
    const v = (s.offsets as { value: { samples: { at: number; date: number; intl: number | null }[] } }).value
    v.samples[0] = { ...v.samples[0]!, date: -120, intl: -120 }
    const { checks } = judge(s)
    expect(byId(checks, 'tz-rules-server').verdict).toBe('warn')
    expect(byId(checks, 'tz-offsets-consistent').verdict).toBe('pass')
  })

  test('an unknown zone name warns', () => {
    const s = browserIn('Europe/Berlin')
    const v = (s.offsets as { value: { zone: string } }).value
    v.zone = 'Mars/Olympus_Mons'
    expect(byId(judge(s).checks, 'tz-rules-server').verdict).toBe('warn')
  })

  test('a worker that disagrees on languages warns, on the zone fails', () => {
    const s = browserIn('Europe/Berlin')
    s.worker = ok({ timeZone: 'Europe/Berlin', locale: 'de-DE', offsetNow: -60, jan: -60, jul: -120, language: 'en-US', languages: ['en-US'] })
    expect(byId(judge(s).checks, 'tz-worker').verdict).toBe('warn')
    s.worker = ok({ timeZone: 'UTC', locale: 'de-DE', offsetNow: 0, jan: 0, jul: 0, language: 'de-DE', languages: ['de-DE', 'de', 'en-US', 'en'] })
    expect(byId(judge(s).checks, 'tz-worker').verdict).toBe('fail')
  })

  test('Accept-Language: same first language passes, another base fails, missing header warns', () => {
    expect(byId(judge(browserIn('Europe/Berlin')).checks, 'accept-language-match').verdict).toBe('pass')
    expect(byId(judge(browserIn('Europe/Berlin'), server('en-US,en;q=0.9')).checks, 'accept-language-match').verdict).toBe('fail')
    expect(byId(judge(browserIn('Europe/Berlin'), server('de,en;q=0.5')).checks, 'accept-language-match').verdict).toBe('warn')
    expect(byId(judge(browserIn('Europe/Berlin'), server(null)).checks, 'accept-language-match').verdict).toBe('warn')
    const accepted = byId(judge(browserIn('Europe/Berlin')).checks, 'accept-language-match')
    expect(accepted.source).toBe('server')
  })

  test('zone vs language regions: Tokyo with German languages warns, Vienna with de-DE fits by offsets', () => {
    expect(byId(judge(browserIn('Asia/Tokyo')).checks, 'zone-language').verdict).toBe('warn')
    expect(zoneFitsRegions('Europe/Vienna', ['DE'], 2026)).toBe(true)
    expect(zoneFitsRegions('America/Chicago', ['DE'], 2026)).toBe(false)
  })

  test('clock skew beyond two minutes warns, Date replaced warns', () => {
    const s = browserIn('Europe/Berlin')
    s.clock = ok({ now: NOW + 3 * 3600_000, perf: NOW + 3 * 3600_000 })
    const skew = byId(judge(s).checks, 'clock-skew')
    expect(skew.verdict).toBe('warn')
    expect(skew.observed).toBe('page clock 3 h ahead of the server')
    s.clock = ok({ now: NOW + 50, perf: NOW - 86_400_000 })
    expect(byId(judge(s).checks, 'clock-monotonic').verdict).toBe('warn')
    expect(relation(0, 'x')).toBe('in step with x')
    expect(relation(-61_000, 'x')).toBe('1 min 1 s behind x')
  })

  test('a missing Geolocation API warns', () => {
    const s = browserIn('Europe/Berlin')
    s.geolocation = ok({ present: false, secureContext: true, permission: null, permissionError: 'TypeError: x' })
    expect(byId(judge(s).checks, 'geolocation-api').verdict).toBe('warn')
  })

  test('missing signals give na, never a failure', () => {
    const s: TimezoneGeoSignals = {
      zone: err('error', 'boom'),
      offsets: err('timeout', 'no answer within 3000 ms'),
      dateString: err('error', 'boom'),
      worker: err('blocked', 'cannot start a worker'),
      clock: err('error', 'boom'),
      geolocation: err('error', 'boom'),
    }
    const { checks } = judge(s)
    expect(checks.every((c) => c.verdict === 'na')).toBe(true)
    expect(summarize(checks).score).toBe(100)
  })

  describe('ip-zone, with the offline IP database', () => {
    const ctx = { lookupIp: fakeLookup({ '79.200.1.1': NETWORKS.telekom, '73.0.0.1': NETWORKS.comcast, '185.65.134.1': NETWORKS.mullvad }) }
    const at = (ip: string, acceptLanguage?: string) => ({ ...server(acceptLanguage), ip })

    test('is na without the database or for a non-public address, saying which', () => {
      expect(byId(judge(browserIn('Europe/Berlin'), at('79.200.1.1')).checks, 'ip-zone').expected).toContain('offline IP database')
      expect(byId(timezoneGeo.judge(browserIn('Europe/Berlin'), at('127.0.0.1'), ctx).checks, 'ip-zone').expected).toContain('loopback')
    })

    test('passes a Berlin browser on a German line, with a neighbour zone of the same offsets too', () => {
      const r = timezoneGeo.judge(browserIn('Europe/Berlin'), at('79.200.1.1'), ctx)
      expect(byId(r.checks, 'ip-zone')).toMatchObject({ verdict: 'pass', observed: { zone: 'Europe/Berlin', ipCountry: 'DE', network: 'DE, AS3320 Deutsche Telekom AG' } })
      expect(byId(timezoneGeo.judge(browserIn('Europe/Vienna'), at('79.200.1.1'), ctx).checks, 'ip-zone').verdict).toBe('pass')
      expect((r.sections!.timezone as { ipCountry: string }).ipCountry).toBe('DE')
    })

    test('fails a Berlin browser on a US address', () => {
      const r = timezoneGeo.judge(browserIn('Europe/Berlin'), at('73.0.0.1'), ctx)
      expect(byId(r.checks, 'ip-zone').verdict).toBe('fail')
      expect(summarize(r.checks).score).toBe(70)
    })

    test('warns when the zone fits but no language is the country\'s (English aside)', () => {
      const s = browserIn('Europe/Stockholm', { locale: 'de-DE', languages: ['de-DE', 'de'] })
      expect(byId(timezoneGeo.judge(s, at('185.65.134.1', 'de-DE,de;q=0.9'), ctx).checks, 'ip-zone').verdict).toBe('warn')
      const en = browserIn('America/New_York', { locale: 'en-US', languages: ['en-US', 'en'], text: 'Sat Nov 21 2026 08:45:00 GMT-0500 (Eastern Standard Time)' })
      expect(byId(timezoneGeo.judge(en, at('73.0.0.1', 'en-US,en;q=0.9'), ctx).checks, 'ip-zone').verdict).toBe('pass')
    })
  })
})

import { describe, expect, test } from 'bun:test'
import { summarize } from '../scoring'
import type { TimezoneGeoSignals } from '../../../common/signals/timezone-geo'
import { NOW, ok, err, server, browserIn, byId, judge } from './timezone-geo.fixture'

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
    expect(checks.filter((c) => c.verdict === 'warn' || c.verdict === 'fail').map((c) => c.id)).toEqual(['utc-zone'])
    expect(byId(checks, 'zone-language').verdict).toBe('na')
    expect(summarize(checks).score).toBe(96)
  })

  test('missing signals give na, never a failure', () => {
    const s: TimezoneGeoSignals = {
      zone: err('error', 'boom'),
      languages: err('error', 'boom'),
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
})

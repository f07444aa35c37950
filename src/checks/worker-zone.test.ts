import { describe, expect, test } from 'bun:test'
import { ok, browserIn, byId, judge } from '../core/tools/timezone-geo.fixture'

describe('worker-zone: the zone a worker sees', () => {
  test('a worker that disagrees on languages or on the zone fails', () => {
    const s = browserIn('Europe/Berlin')
    s.worker = ok({ timeZone: 'Europe/Berlin', locale: 'de-DE', offsetNow: -60, jan: -60, jul: -120, language: 'en-US', languages: ['en-US'] })
    expect(byId(judge(s).checks, 'tz-worker').verdict).toBe('fail')
    // fingerprint-injector's Windows Chrome fingerprint on Playwright, in the tools matrix: the page's languages only.
    s.zone = ok({ timeZone: 'UTC', locale: 'en-US', calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h12', language: 'en-US', languages: ['en-US'] })
    s.worker = ok({ timeZone: 'UTC', locale: 'en-US', offsetNow: 0, jan: 0, jul: 0, language: 'en-US', languages: ['en-US', 'en'] })
    expect(byId(judge(s).checks, 'tz-worker').verdict).toBe('fail')
    s.worker = ok({ timeZone: 'UTC', locale: 'de-DE', offsetNow: 0, jan: 0, jul: 0, language: 'de-DE', languages: ['de-DE', 'de', 'en-US', 'en'] })
    expect(byId(judge(s).checks, 'tz-worker').verdict).toBe('fail')
  })
})

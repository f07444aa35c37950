import { describe, expect, test } from 'bun:test'
import { summarize } from '../core/scoring'
import { zoneOffsetMinutes } from '../../common/tz-offset'
import { NOW, ok, browserIn, byId, judge } from '../core/tools/timezone-geo.fixture'

describe('zone-offsets: getTimezoneOffset against Intl, the server tzdata and Date.toString', () => {
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
})

import { describe, expect, test } from 'bun:test'
import { summarize } from '../core/scoring'
import { zoneFitsRegions } from '../../common/tz-offset'
import { timezoneGeo } from '../core/tools/timezone-geo'
import { fakeLookup, NETWORKS } from '../../tests/support/fake-ipdb'
import { server, browserIn, byId, judge } from '../core/tools/timezone-geo.fixture'

describe('zone-location: the zone against UTC, the regions of the languages and the country of the IP', () => {
  test('zone vs language regions: Tokyo with German languages warns, Vienna with de-DE fits by offsets', () => {
    expect(byId(judge(browserIn('Asia/Tokyo')).checks, 'zone-language')).toMatchObject({ verdict: 'warn', observed: { zone: 'Asia/Tokyo', languageRegions: ['DE', 'US'] } })
    // resistFingerprinting's zone is named as such.
    const rfp = byId(judge(browserIn('Atlantic/Reykjavik', { locale: 'en-US', languages: ['en-US', 'en'] }), server('en-US,en;q=0.9')).checks, 'zone-language')
    expect(rfp).toMatchObject({ verdict: 'warn', observed: { zone: 'Atlantic/Reykjavik', languageRegions: ['US'], note: expect.stringContaining('resistFingerprinting') } })
    expect(zoneFitsRegions('Europe/Vienna', ['DE'], 2026)).toBe(true)
    expect(zoneFitsRegions('America/Chicago', ['DE'], 2026)).toBe(false)
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

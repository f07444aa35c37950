import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import { acceptLanguageRegions, utcZone, zoneVsAcceptLanguage, type ZoneSignals } from './zone-regions'

const zone = (timeZone: string): ZoneSignals => ({ zone: { ok: true, value: { timeZone, locale: 'de-DE', calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h23', language: 'de-DE', languages: ['de-DE'] }, ms: 1 } })
const obs = (al?: string) => ({ ip: '192.0.2.1', userAgent: 'x', headers: al ? [['accept-language', al] as [string, string]] : [], receivedAt: Date.UTC(2026, 5, 1) })
const run = (s: ZoneSignals, al?: string) => {
  const [utc, regions] = runChecks([[utcZone, 10], [zoneVsAcceptLanguage, 10]], s, obs(al), {}).checks
  return { utc: utc!, regions: regions! }
}

describe('utc-zone and zone-vs-accept-language', () => {
  test('a regional zone among the languages\' regions passes both', () => {
    expect(run(zone('Europe/Berlin'), 'de-DE,de;q=0.9')).toMatchObject({ utc: { verdict: 'pass' }, regions: { verdict: 'pass', observed: 'Europe/Berlin; Accept-Language regions DE' } })
  })
  test('UTC warns and is compared with no region', () => {
    expect(run(zone('UTC'), 'en-US')).toMatchObject({ utc: { verdict: 'warn', points: 5 }, regions: { verdict: 'na', observed: 'UTC' } })
  })
  test('a zone outside the regions only warns; without a header naming a region it is not applicable', () => {
    expect(run(zone('Asia/Tokyo'), 'de-DE').regions.verdict).toBe('warn')
    expect(run(zone('Asia/Tokyo')).regions).toMatchObject({ verdict: 'na', observed: null, expected: 'Accept-Language names no region' })
  })
  test("resistFingerprinting's Atlantic/Reykjavik under an en-US header still warns, and says the setting reports that zone", () => {
    // Firefox ESR 153 with privacy.resistFingerprinting in the tools matrix.
    expect(run(zone('Atlantic/Reykjavik'), 'en-US,en;q=0.9')).toMatchObject({
      utc: { verdict: 'pass' },
      regions: { verdict: 'warn', observed: 'Atlantic/Reykjavik; Accept-Language regions US (Atlantic/Reykjavik is also the zone Firefox with resistFingerprinting (and Tor Browser) reports, whatever the machine’s)' },
    })
  })
  test('the regions of a header, deduplicated in preference order', () => {
    expect(acceptLanguageRegions(obs('de-AT,de-DE;q=0.9,en-US;q=0.8,de-AT;q=0.1'))).toEqual(['AT', 'DE', 'US'])
    expect(acceptLanguageRegions(obs())).toEqual([])
  })
})

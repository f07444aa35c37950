import { describe, expect, test } from 'bun:test'
import { fakeLookup, NETWORKS } from '../../tests/support/fake-ipdb'
import { runChecks } from '../core/judge'
import { languagesVsIpCountry, zoneVsIpCountry } from './ip-country-fit'
import type { ZoneSignals } from './zone-regions'

const CTX = { lookupIp: fakeLookup({ '79.200.1.1': NETWORKS.telekom, '3.120.0.9': NETWORKS.aws }) }
const zone = (timeZone: string, languages: string[]): ZoneSignals => ({ zone: { ok: true, value: { timeZone, locale: 'x', calendar: 'gregory', numberingSystem: 'latn', hourCycle: null, language: languages[0]!, languages }, ms: 1 } })
const run = (s: ZoneSignals, ip: string, ctx = CTX) => {
  const [tz, lang] = runChecks([[zoneVsIpCountry, 30], [languagesVsIpCountry, 10]], s, { ip, userAgent: 'x', headers: [], receivedAt: Date.UTC(2026, 5, 1) }, ctx).checks
  return { tz: tz!, lang: lang! }
}

describe('zone-vs-ip-country and languages-vs-ip-country', () => {
  test('a German browser on a German line passes both', () => {
    expect(run(zone('Europe/Berlin', ['de-DE', 'de']), '79.200.1.1')).toMatchObject({ tz: { verdict: 'pass', observed: 'Europe/Berlin; IP in DE' }, lang: { verdict: 'pass' } })
  })
  test('a Berlin zone behind a US address fails; German alone in the US warns', () => {
    expect(run(zone('Europe/Berlin', ['de-DE']), '3.120.0.9')).toMatchObject({ tz: { verdict: 'fail' }, lang: { verdict: 'warn' } })
  })
  test('UTC is compared with no country; without the database both say it is missing', () => {
    expect(run(zone('UTC', ['en-US']), '79.200.1.1').tz).toMatchObject({ verdict: 'na', expected: 'a regional zone: UTC belongs to no country' })
    const none = run(zone('Europe/Berlin', ['de-DE']), '79.200.1.1', {} as typeof CTX)
    expect(none.tz).toMatchObject({ verdict: 'na', observed: 'Europe/Berlin' })
    expect(none.lang.expected).toContain('offline IP database')
  })
})

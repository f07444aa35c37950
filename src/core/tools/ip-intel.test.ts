import { describe, expect, test } from 'bun:test'
import { fakeLookup, NETWORKS } from '../../../tests/support/fake-ipdb'
import { compareWithHttp, hostingVerdict, intelOf, languagesFitCountry, likelyLanguage, lookupSection, networkText, whyNoIntel, zoneFitsCountry, type HostingPolicy } from './ip-intel'

const ctx = {
  lookupIp: fakeLookup({
    '81.2.69.160': NETWORKS.aaisp,
    '3.120.0.9': NETWORKS.aws,
    '185.65.134.1': NETWORKS.mullvad,
    '104.28.0.1': NETWORKS.cloudflare,
    '2a02:8109::1': NETWORKS.telekom,
    '79.200.1.1': NETWORKS.telekom,
    '45.0.0.1': NETWORKS.smallHost,
  }),
}
const POLICY: HostingPolicy = { cloud: 'fail', hosting: 'fail', vpn: 'fail', tor: 'fail', cdn: 'warn', heuristic: 'warn' }
const found = (ip: string) => {
  const i = intelOf(ctx, ip)
  if (i.status !== 'found') throw new Error(`${ip} not found`)
  return i.info
}

describe('ip-intel', () => {
  test('without a lookup every address is "no-database", and the reason says so', () => {
    expect(intelOf({}, '127.0.0.1')).toEqual({ status: 'not-public', scope: 'loopback' })
    const i = intelOf({}, '81.2.69.160')
    expect(i).toEqual({ status: 'no-database' })
    expect(whyNoIntel(i, '81.2.69.160')).toContain('offline IP database')
    expect(lookupSection(i)).toMatchObject({ status: 'no-database', country: null, datacenter: null })
  })

  test('loopback and unlisted addresses are told apart', () => {
    expect(intelOf(ctx, '127.0.0.1')).toEqual({ status: 'not-public', scope: 'loopback' })
    expect(intelOf(ctx, '8.8.4.4')).toEqual({ status: 'unlisted' })
    expect(whyNoIntel(intelOf(ctx, '10.1.2.3'), '10.1.2.3')).toContain('private')
  })

  test('a cloud address is a datacenter with its provider; a home line is not', () => {
    expect(lookupSection(intelOf(ctx, '3.120.0.9'))).toEqual({
      status: 'found', country: 'US', asn: 16509, organization: 'Amazon.com, Inc.', datacenter: true, vpn: false, tor: false, network: 'cloud', networkSource: 'known-asn', provider: 'Amazon AWS',
    })
    expect(lookupSection(intelOf(ctx, '81.2.69.160'))).toMatchObject({ datacenter: false, network: null, provider: null })
    expect(networkText(found('3.120.0.9'))).toBe('US, AS16509 Amazon.com, Inc. (cloud: Amazon AWS)')
    expect(networkText(found('45.0.0.1'))).toBe('FR, AS64999 Example Hosting SAS (hosting: hosting, by the organisation name)')
  })

  test('hosting verdicts follow the policy per kind, a guess from the name by its own entry', () => {
    expect(hostingVerdict(found('81.2.69.160'), POLICY)).toBe('pass')
    expect(hostingVerdict(found('3.120.0.9'), POLICY)).toBe('fail')
    expect(hostingVerdict(found('185.65.134.1'), POLICY)).toBe('fail')
    expect(hostingVerdict(found('104.28.0.1'), POLICY)).toBe('warn')
    expect(hostingVerdict(found('45.0.0.1'), POLICY)).toBe('warn')
  })

  test('a WebRTC address in the HTTP address\'s AS is the same network; another AS is not', () => {
    const rows = compareWithHttp(ctx, ['2a02:8109::1', '81.2.69.160'], '79.200.1.1')
    expect(rows.map((r) => [r.address, r.sameAsHttp, r.country])).toEqual([['2a02:8109::1', true, 'DE'], ['81.2.69.160', false, 'GB']])
    // Without the database only the address or its /64 counts.
    expect(compareWithHttp({}, ['2a02:8109::1'], '79.200.1.1')[0]!.sameAsHttp).toBe(false)
  })

  test('zones fit a country by its own zones or their offsets; UTC fits none', () => {
    expect(zoneFitsCountry('Europe/Berlin', 'DE', 2026)).toBe(true)
    expect(zoneFitsCountry('Europe/Paris', 'DE', 2026)).toBe(true) // same offsets all year
    expect(zoneFitsCountry('America/New_York', 'DE', 2026)).toBe(false)
    expect(zoneFitsCountry('Europe/Berlin', 'US', 2026)).toBe(false)
    expect(zoneFitsCountry('America/Chicago', 'US', 2026)).toBe(true)
    expect(zoneFitsCountry('Etc/UTC', 'GB', 2026)).toBeNull()
  })

  test('languages fit a country by region, likely language or likely region; English alone decides nothing', () => {
    expect(likelyLanguage('AT')).toBe('de')
    expect(languagesFitCountry(['de-DE', 'de'], 'AT')).toBe(true)
    expect(languagesFitCountry(['fr-CH'], 'CH')).toBe(true)
    expect(languagesFitCountry(['ru-RU', 'ru'], 'DE')).toBe(false)
    expect(languagesFitCountry(['en-US', 'en'], 'DE')).toBeNull()
    expect(languagesFitCountry(['en-GB'], 'GB')).toBe(true)
    expect(languagesFitCountry(['en-US', 'ja'], 'DE')).toBe(false)
  })
})

import { describe, expect, test } from 'bun:test'
import { parseCidr } from './ip'
import { DOH_PROVIDERS, dohProviderByAddress, dohProviderByAsn, labelResolver } from './doh-providers'

describe('dohProviderByAddress', () => {
  test.each([
    ['1.1.1.1', 'cloudflare'],
    ['1.0.0.1', 'cloudflare'],
    ['2606:4700:4700::1111', 'cloudflare'],
    ['2606:4700:4700:0:0:0:0:1001', 'cloudflare'],
    ['8.8.8.8', 'google'],
    ['8.8.4.4', 'google'],
    ['2001:4860:4860::8888', 'google'],
    ['9.9.9.9', 'quad9'],
    ['149.112.112.112', 'quad9'],
    ['2620:fe::fe', 'quad9'],
    ['208.67.222.222', 'opendns'],
    ['208.67.220.220', 'opendns'],
    ['94.140.14.14', 'adguard'],
    ['2a10:50c0::ad1:ff', 'adguard'],
    ['45.90.28.17', 'nextdns'],
    ['2a07:a8c1::ab:cd', 'nextdns'],
    ['::ffff:8.8.8.8', 'google'],
  ])('%s is %s', (ip, id) => expect(dohProviderByAddress(ip)?.id).toBe(id))

  test('ISP, private and malformed addresses are not providers', () => {
    expect(dohProviderByAddress('81.2.69.160')).toBeNull()
    expect(dohProviderByAddress('8.8.8.9')).toBeNull()
    expect(dohProviderByAddress('192.168.1.1')).toBeNull()
    expect(dohProviderByAddress('dns.google')).toBeNull()
  })
})

describe('dohProviderByAsn', () => {
  test('finds the provider of a resolver egress network', () => {
    expect(dohProviderByAsn(13335)?.name).toBe('Cloudflare 1.1.1.1')
    expect(dohProviderByAsn(15169)?.id).toBe('google')
    expect(dohProviderByAsn(19281)?.id).toBe('quad9')
    expect(dohProviderByAsn(36692)?.id).toBe('opendns')
  })
  test('unknown or missing ASNs give nothing', () => {
    expect(dohProviderByAsn(3320)).toBeNull()
    expect(dohProviderByAsn(null)).toBeNull()
    expect(dohProviderByAsn(undefined)).toBeNull()
  })
})

describe('labelResolver', () => {
  test('prefers the service address, falls back to the ASN of the egress address', () => {
    expect(labelResolver('1.1.1.1', 15169)).toMatchObject({ by: 'address', provider: { id: 'cloudflare' } })
    // Cloudflare's recursive resolvers query from other addresses in AS13335.
    expect(labelResolver('172.69.1.2', 13335)).toMatchObject({ by: 'asn', provider: { id: 'cloudflare' } })
    expect(labelResolver('81.2.69.160', 20712)).toBeNull()
    expect(labelResolver('81.2.69.160')).toBeNull()
  })
})

describe('DOH_PROVIDERS table', () => {
  test('every service address parses and every provider has a DoH endpoint', () => {
    for (const p of DOH_PROVIDERS) {
      expect(p.doh).toMatch(/^https:\/\//)
      for (const a of p.serviceAddresses) expect(parseCidr(a)).not.toBeNull()
    }
  })
  test('identifiers are unique', () => {
    const ids = DOH_PROVIDERS.map((p) => p.id)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

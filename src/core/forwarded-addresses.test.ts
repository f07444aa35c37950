import { describe, expect, test } from 'bun:test'
import { addressesIn, proxyEvidence } from './forwarded-addresses'
import { stripAddress } from './ip'

const obs = (ip: string, headers: Array<[string, string]>) => ({ ip, headers })

describe('addressesIn', () => {
  test('splits X-Forwarded-For and strips ports and brackets', () => {
    expect(addressesIn('x-forwarded-for', '203.0.113.7:5050, [2001:db8::1]:443, 10.0.0.2')).toEqual(['203.0.113.7', '2001:db8::1', '10.0.0.2'])
  })
  test('reads for= nodes of Forwarded, skipping unknown and obfuscated ones', () => {
    expect(addressesIn('forwarded', 'for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711", for=unknown, for=_hidden')).toEqual(['192.0.2.60', '2001:db8:cafe::17'])
  })
  test('finds addresses among Via hops, not pseudonyms', () => {
    expect(addressesIn('via', '1.1 10.0.0.5:3128, 1.0 fred, 1.1 vegur')).toEqual(['10.0.0.5'])
  })
  test('names no address for X-Forwarded-Proto', () => {
    expect(addressesIn('x-forwarded-proto', 'https')).toEqual([])
  })
  test('stripAddress leaves bare IPv6 alone', () => {
    expect(stripAddress('2001:db8::1')).toBe('2001:db8::1')
  })
})

describe('proxyEvidence', () => {
  test('finds nothing on a direct browser request', () => {
    expect(proxyEvidence(obs('198.51.100.9', [['accept', '*/*'], ['user-agent', 'x']]))).toEqual({ headers: [], foreign: [], viaServiceProxy: false })
  })
  test("reports the address a client's proxy forwarded", () => {
    const e = proxyEvidence(obs('198.51.100.9', [['via', '1.1 squid'], ['x-forwarded-for', '192.168.1.20']]))
    expect(e.viaServiceProxy).toBe(false)
    expect(e.headers).toHaveLength(2)
    expect(e.foreign).toEqual([{ header: 'x-forwarded-for', address: '192.168.1.20', scope: 'private' }])
  })
  test("ignores the service's own trusted hops and the client's own address", () => {
    const e = proxyEvidence(obs('203.0.113.5', [['x-forwarded-for', '203.0.113.5, 10.0.0.1'], ['x-real-ip', '203.0.113.5'], ['via', '1.1 10.0.0.1']]))
    expect(e).toMatchObject({ viaServiceProxy: true, foreign: [] })
  })
  test('keeps what arrived left of the client behind the service proxy', () => {
    const e = proxyEvidence(obs('203.0.113.5', [['x-forwarded-for', '8.8.4.4, 203.0.113.5']]))
    expect(e.foreign).toEqual([{ header: 'x-forwarded-for', address: '8.8.4.4', scope: 'public' }])
  })
  test('reports each address once per header', () => {
    expect(proxyEvidence(obs('1.1.1.1', [['x-forwarded-for', '8.8.8.8, 8.8.8.8']])).foreign).toHaveLength(1)
  })
})

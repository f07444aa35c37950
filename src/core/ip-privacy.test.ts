import { describe, expect, test } from 'bun:test'
import { truncateIp, truncateIpsDeep, truncateIpsInText } from './ip-privacy'

describe('truncateIp', () => {
  test('keeps the /24 of an IPv4 address', () => {
    expect(truncateIp('203.0.113.77')).toBe('203.0.113.0')
    expect(truncateIp('10.1.2.255')).toBe('10.1.2.0')
  })

  test('keeps the /48 of an IPv6 address, in canonical form', () => {
    expect(truncateIp('2001:db8:abcd:12:34:56:78:9a')).toBe('2001:db8:abcd::')
    expect(truncateIp('2001:0DB8:0000:0001::1')).toBe('2001:db8::')
    expect(truncateIp('::1')).toBe('::')
  })

  test('folds IPv4-mapped IPv6 to IPv4 first', () => {
    expect(truncateIp('::ffff:198.51.100.9')).toBe('198.51.100.0')
  })

  test('leaves what is not an address unchanged', () => {
    for (const s of ['unknown', '', '300.1.1.1', '1.2.3', 'example.com']) expect(truncateIp(s)).toBe(s)
  })

  test('is idempotent', () => {
    for (const s of ['203.0.113.77', '2001:db8:abcd:12::9a']) expect(truncateIp(truncateIp(s))).toBe(truncateIp(s))
  })
})

describe('truncateIpsInText', () => {
  test('rewrites every address in a header value or a sentence', () => {
    expect(truncateIpsInText('198.51.100.7, 10.0.0.3')).toBe('198.51.100.0, 10.0.0.0')
    expect(truncateIpsInText('for="[2001:db8:1:2::5]:4711";proto=https, for=192.0.2.60')).toBe('for="[2001:db8:1::]:4711";proto=https, for=192.0.2.0')
    expect(truncateIpsInText('no public address other than 203.0.113.7.')).toBe('no public address other than 203.0.113.0.')
  })

  test('keeps the port of address:port', () => {
    expect(truncateIpsInText('203.0.113.7:443')).toBe('203.0.113.0:443')
  })

  test('rewrites the addresses in an ICE candidate line', () => {
    const line = 'candidate:842163049 1 udp 1677729535 203.0.113.7 54321 typ srflx raddr 192.168.1.20 rport 54321'
    expect(truncateIpsInText(line)).toBe('candidate:842163049 1 udp 1677729535 203.0.113.0 54321 typ srflx raddr 192.168.1.0 rport 54321')
  })

  test('leaves times, versions, hashes and host names alone', () => {
    for (const s of ['13:36:28', '2026-11-21T13:36:28+00:00', 'Chrome/124.0.6367.91', 'Mozilla/5.0', 'a1b2c3d4e5', 'abc.local', 'x:y']) {
      expect(truncateIpsInText(s)).toBe(s)
    }
  })
})

describe('truncateIpsDeep', () => {
  test('rewrites strings at any depth and keeps everything else', () => {
    const input = { ip: '203.0.113.7', n: 5, ok: true, none: null, headers: [['x-forwarded-for', '198.51.100.7']], nested: { list: ['2001:db8:1:2::5'] } }
    expect(truncateIpsDeep(input)).toEqual({ ip: '203.0.113.0', n: 5, ok: true, none: null, headers: [['x-forwarded-for', '198.51.100.0']], nested: { list: ['2001:db8:1::'] } })
    expect(input.ip).toBe('203.0.113.7')
  })

  test('keeps a "__proto__" key as an own key', () => {
    const input = JSON.parse('{"__proto__": {"a": "10.0.0.9"}}')
    const out = truncateIpsDeep(input)
    expect(JSON.stringify(out)).toBe('{"__proto__":{"a":"10.0.0.0"}}')
  })
})

import { describe, expect, test } from 'bun:test'
import { ipScope, sameNetwork } from './ip-scope'

describe('ipScope', () => {
  test.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.23', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['169.254.10.20', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['192.0.2.2', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
  ] as const)('IPv4 %s is %s', (ip, scope) => expect(ipScope(ip)).toBe(scope))

  test.each([
    ['2001:4860:4860::8888', 'public'],
    ['2a01:e0a:1:2::5', 'public'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::fc:ff:fe00:1', 'link-local'],
    ['fd00::2', 'private'],
    ['fc12:3456::1', 'private'],
    ['2001:db8::1', 'documentation'],
    ['ff02::fb', 'multicast'],
    ['::ffff:192.168.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:101::1', 'private'],
    ['[2001:4860::1]', 'public'],
    ['fe80::1%eth0', 'link-local'],
  ] as const)('IPv6 %s is %s', (ip, scope) => expect(ipScope(ip)).toBe(scope))

  test('a host name or an mDNS name is not an address', () => {
    expect(ipScope('1e4744f5-761b-425b-9d6c-2f28d7990e3c.local')).toBeNull()
    expect(ipScope('turn.example.com')).toBeNull()
    expect(ipScope('')).toBeNull()
  })
})

describe('sameNetwork', () => {
  test('equal IPv4 addresses are the same network, neighbours are not', () => {
    expect(sameNetwork('81.2.69.160', '81.2.69.160')).toBe(true)
    expect(sameNetwork('81.2.69.160', '81.2.69.161')).toBe(false)
  })
  test('IPv6 addresses in one /64 are the same network (temporary addresses)', () => {
    expect(sameNetwork('2a01:e0a:1:2::5', '2a01:e0a:1:2:abcd:1234:5678:9abc')).toBe(true)
    expect(sameNetwork('2a01:e0a:1:2::5', '2a01:e0a:1:3::5')).toBe(false)
  })
  test('IPv4 never matches IPv6, and garbage matches nothing', () => {
    expect(sameNetwork('8.8.8.8', '2001:4860:4860::8888')).toBe(false)
    expect(sameNetwork('unknown', 'unknown')).toBe(false)
  })
  test('an IPv4-mapped address matches its IPv4 form', () => {
    expect(sameNetwork('::ffff:81.2.69.160', '81.2.69.160')).toBe(true)
  })
})

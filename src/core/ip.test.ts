import { describe, expect, test } from 'bun:test'
import { cidrContains, clientAddress, formatIp, networkKey, normalizeIp, parseCidr, parseIp, parseTrustedProxies, stripAddress } from './ip'

const ip = (s: string) => {
  const b = parseIp(s)
  if (!b) throw new Error(`test address ${s} does not parse`)
  return b
}
const cidr = (s: string) => {
  const c = parseCidr(s)
  if (!c) throw new Error(`test range ${s} does not parse`)
  return c
}

describe('parseIp / formatIp', () => {
  test('round-trips IPv4', () => {
    expect([...ip('192.168.0.1')]).toEqual([192, 168, 0, 1])
    expect(formatIp(ip('0.0.0.0'))).toBe('0.0.0.0')
    expect(formatIp(ip('255.255.255.255'))).toBe('255.255.255.255')
  })

  test('refuses malformed IPv4', () => {
    for (const s of ['256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.-4', '1.2.3.4a', '', ' ', '1..2.3']) expect(parseIp(s)).toBeNull()
  })

  test('parses IPv6 in full, compressed and bracketed forms, dropping a zone', () => {
    expect(ip('2001:db8:0:0:0:0:0:1')).toEqual(ip('2001:db8::1'))
    expect(formatIp(ip('2001:0DB8:0000:0000:0000:0000:0000:0001'))).toBe('2001:db8::1')
    expect(formatIp(ip('[::1]'))).toBe('::1')
    expect(formatIp(ip('fe80::1%eth0'))).toBe('fe80::1')
    expect(formatIp(ip('::'))).toBe('::')
    expect(formatIp(ip('1:2:3:4:5:6:7::'))).toBe('1:2:3:4:5:6:7:0')
  })

  test('formats IPv6 as RFC 5952: longest zero run compressed, first on a tie, a lone zero kept', () => {
    expect(formatIp(ip('1:0:0:2:0:0:0:3'))).toBe('1:0:0:2::3')
    expect(formatIp(ip('1:0:0:2:3:0:0:4'))).toBe('1::2:3:0:0:4')
    expect(formatIp(ip('1:0:2:3:4:5:6:7'))).toBe('1:0:2:3:4:5:6:7')
  })

  test('refuses malformed IPv6', () => {
    for (const s of ['1::2::3', ':1::', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '12345::', 'g::1', '::1.2.3', '1.2.3.4::', '1.2.3.4::5', '::1.2.3.4:5', '1:2:3:4:5:6:7:8::']) {
      expect(parseIp(s)).toBeNull()
    }
  })

  test('folds IPv4-mapped IPv6 to IPv4', () => {
    expect(ip('::ffff:1.2.3.4')).toEqual(ip('1.2.3.4'))
    expect(formatIp(ip('::ffff:c000:0280'))).toBe('192.0.2.128')
    expect(normalizeIp('::ffff:10.0.0.1')).toBe('10.0.0.1')
  })

  test('keeps other embedded IPv4 forms as IPv6', () => {
    expect(ip('::1.2.3.4')).toHaveLength(16)
    expect(ip('64:ff9b::192.0.2.33')).toHaveLength(16)
  })

  test('normalizeIp returns the input when it is not an address', () => {
    expect(normalizeIp('unknown')).toBe('unknown')
    expect(normalizeIp(' 10.0.0.1 ')).toBe('10.0.0.1')
  })
})

describe('parseCidr / cidrContains', () => {
  test('matches inside an IPv4 range and not outside it', () => {
    expect(cidrContains(cidr('10.0.0.0/8'), ip('10.255.1.2'))).toBe(true)
    expect(cidrContains(cidr('10.0.0.0/8'), ip('11.0.0.0'))).toBe(false)
  })

  test('handles prefixes that are not a multiple of 8', () => {
    const c = cidr('192.168.1.64/26')
    expect(cidrContains(c, ip('192.168.1.64'))).toBe(true)
    expect(cidrContains(c, ip('192.168.1.127'))).toBe(true)
    expect(cidrContains(c, ip('192.168.1.63'))).toBe(false)
    expect(cidrContains(c, ip('192.168.1.128'))).toBe(false)
    const c6 = cidr('2001:db8::/33')
    expect(cidrContains(c6, ip('2001:db8:7fff::1'))).toBe(true)
    expect(cidrContains(c6, ip('2001:db8:8000::1'))).toBe(false)
  })

  test('/0 contains every address of its family and none of the other', () => {
    expect(cidrContains(cidr('0.0.0.0/0'), ip('203.0.113.9'))).toBe(true)
    expect(cidrContains(cidr('::/0'), ip('2001:db8::1'))).toBe(true)
    expect(cidrContains(cidr('0.0.0.0/0'), ip('2001:db8::1'))).toBe(false)
    expect(cidrContains(cidr('::/0'), ip('1.2.3.4'))).toBe(false)
  })

  test('a bare address is a /32 or /128', () => {
    expect(cidr('10.0.0.1').bits).toBe(32)
    expect(cidr('::1').bits).toBe(128)
    expect(cidrContains(cidr('10.0.0.1'), ip('10.0.0.1'))).toBe(true)
    expect(cidrContains(cidr('10.0.0.1'), ip('10.0.0.2'))).toBe(false)
  })

  test('an IPv4-mapped IPv6 range becomes the IPv4 range', () => {
    expect(cidr('::ffff:10.0.0.0/104')).toEqual(cidr('10.0.0.0/8'))
    expect(cidrContains(cidr('::ffff:0:0/96'), ip('198.51.100.7'))).toBe(true)
  })

  test('refuses bad ranges', () => {
    for (const s of ['10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/-1', '10.0.0.0/8/8', '10.0.0.0/x', 'nope/8', '/8', '::ffff:0:0/95', '10.0.0.0/1e1']) {
      expect(parseCidr(s)).toBeNull()
    }
  })
})

describe('parseTrustedProxies', () => {
  test('is empty for an unset or blank value', () => {
    expect(parseTrustedProxies(undefined)).toEqual([])
    expect(parseTrustedProxies('  ')).toEqual([])
  })
  test('parses a comma-separated list of addresses and ranges', () => {
    expect(parseTrustedProxies('10.0.0.0/8, 127.0.0.1 ,::1')).toHaveLength(3)
  })
  test('names the bad entry', () => {
    expect(() => parseTrustedProxies('10.0.0.0/8, bogus')).toThrow("TRUSTED_PROXIES: 'bogus' is not an IP address or CIDR range")
  })
})

describe('clientAddress', () => {
  const proxies = parseTrustedProxies('10.0.0.0/8')

  test('uses the socket address when there are no trusted proxies', () => {
    expect(clientAddress('203.0.113.5', '198.51.100.1', [])).toBe('203.0.113.5')
  })

  test('ignores X-Forwarded-For from an untrusted peer', () => {
    expect(clientAddress('203.0.113.5', '198.51.100.1', proxies)).toBe('203.0.113.5')
  })

  test('takes the last hop when the peer is a trusted proxy', () => {
    expect(clientAddress('10.0.0.1', '198.51.100.1', proxies)).toBe('198.51.100.1')
  })

  test('takes the right-most untrusted hop, skipping further trusted proxies', () => {
    expect(clientAddress('10.0.0.1', '198.51.100.1, 10.0.0.7, 10.0.0.8', proxies)).toBe('198.51.100.1')
  })

  test('ignores spoofed left-most entries written by the client', () => {
    expect(clientAddress('10.0.0.1', '1.1.1.1, 8.8.8.8, 198.51.100.1', proxies)).toBe('198.51.100.1')
  })

  test('stops at a malformed hop and keeps the last address it could trust', () => {
    expect(clientAddress('10.0.0.1', '198.51.100.1, not-an-ip', proxies)).toBe('10.0.0.1')
    expect(clientAddress('10.0.0.1', 'not-an-ip, 10.0.0.9', proxies)).toBe('10.0.0.9')
  })

  test('gives the left-most hop when every hop is trusted', () => {
    expect(clientAddress('10.0.0.1', '10.0.0.3, 10.0.0.2', proxies)).toBe('10.0.0.3')
  })

  test('uses the peer when the trusted proxy sent no or an empty header', () => {
    expect(clientAddress('10.0.0.1', null, proxies)).toBe('10.0.0.1')
    expect(clientAddress('10.0.0.1', ' , ', proxies)).toBe('10.0.0.1')
  })

  test('normalises IPv6 and mapped addresses in the header', () => {
    expect(clientAddress('10.0.0.1', '2001:0db8::0001', proxies)).toBe('2001:db8::1')
    expect(clientAddress('10.0.0.1', '::ffff:198.51.100.1', proxies)).toBe('198.51.100.1')
    expect(clientAddress('::ffff:10.0.0.1', '198.51.100.1', proxies)).toBe('198.51.100.1')
  })

  test('returns an unparsable socket address as it is', () => {
    expect(clientAddress('unknown', '198.51.100.1', proxies)).toBe('unknown')
  })
})

describe('clientAddress with ports in X-Forwarded-For', () => {
  const proxies = parseTrustedProxies('10.0.0.0/8')

  test('reads an IPv4 entry with a port as its address', () => {
    expect(clientAddress('10.0.0.1', '203.0.113.5:40001', proxies)).toBe('203.0.113.5')
  })

  test('reads a bracketed IPv6 entry, with or without a port, as its address', () => {
    expect(clientAddress('10.0.0.1', '[2001:db8::1]:443', proxies)).toBe('2001:db8::1')
    expect(clientAddress('10.0.0.1', '[2001:db8::1]', proxies)).toBe('2001:db8::1')
  })

  test('walks past trusted hops written with ports', () => {
    expect(clientAddress('10.0.0.1', '198.51.100.1:1234, 10.0.0.7:8080', proxies)).toBe('198.51.100.1')
  })

  test('keeps a bare IPv6 address whole: its last group is no port', () => {
    expect(stripAddress('2001:db8::1:443')).toBe('2001:db8::1:443')
    expect(clientAddress('10.0.0.1', '2001:db8::1:443', proxies)).toBe('2001:db8::1:443')
  })

  test('still stops at an entry that is not an address with a port', () => {
    expect(clientAddress('10.0.0.1', '198.51.100.1, 203.0.113.5:port', proxies)).toBe('10.0.0.1')
    expect(clientAddress('10.0.0.1', '198.51.100.1, 203.0.113.5:1234567', proxies)).toBe('10.0.0.1')
  })
})

describe('networkKey', () => {
  test('is the address itself for IPv4', () => {
    expect(networkKey('203.0.113.5')).toBe('203.0.113.5')
    expect(networkKey('203.0.113.6')).not.toBe(networkKey('203.0.113.5'))
  })

  test('is the /64 for IPv6, so every address of one /64 shares it', () => {
    const keys = new Set(Array.from({ length: 12 }, (_, i) => networkKey(`2001:db8:1:2:${((i * 7919) % 0x10000).toString(16)}::${i + 1}`)))
    expect([...keys]).toEqual(['2001:db8:1:2::/64'])
    expect(networkKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
  })

  test('folds IPv4-mapped IPv6 to the IPv4 address', () => {
    expect(networkKey('::ffff:203.0.113.5')).toBe('203.0.113.5')
  })

  test('returns what is not an address as it is', () => {
    expect(networkKey('unknown')).toBe('unknown')
  })
})

import { describe, expect, test } from 'bun:test'
import { bindEvidence, isAway, sameClient } from './binding'

const item = (kind: string, clientIp: string | null) => ({ kind, clientIp, data: {}, observedAt: '2026-11-15T12:00:00+00:00' })

describe('whose evidence it is', () => {
  test('one client: the same IPv4 address, or an IPv6 address in the same /64 (also IPv4-mapped)', () => {
    expect(sameClient('127.0.0.70', '127.0.0.70')).toBe(true)
    expect(sameClient('127.0.0.70', '127.0.0.71')).toBe(false)
    expect(sameClient('::ffff:127.0.0.70', '127.0.0.70')).toBe(true)
    expect(sameClient('2001:db8:1:2::1', '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(true)
    expect(sameClient('2001:db8:1:2::1', '2001:db8:1:3::1')).toBe(false)
    expect(sameClient('2001:db8::1', '127.0.0.1')).toBe(false)
    expect(sameClient('unknown', '127.0.0.1')).toBe(false)
    expect(sameClient('unknown', 'unknown')).toBe(true)
  })

  test("a listener record is away from its nonce when it comes from another network than the page load's", () => {
    expect(isAway('tls', '127.0.0.71', '127.0.0.70')).toBe(true)
    expect(isAway('http2', '127.0.0.70', '127.0.0.70')).toBe(false)
    expect(isAway('http1', '2001:db8:1:2::9', '2001:db8:1:2::1')).toBe(false)
    expect(isAway('tls', null, '127.0.0.70')).toBe(true)
    // A nonce issued before page addresses were kept, and kinds bound otherwise, are never away.
    expect(isAway('tls', '127.0.0.71', null)).toBe(false)
    expect(isAway('dns', '9.9.9.9', '127.0.0.70')).toBe(false)
    expect(isAway('turn', null, '127.0.0.70')).toBe(false)
  })

  test("the submitter is judged on its own listener records and every DNS, STUN and TURN record; the rest are listed", () => {
    const items = [item('tls', '127.0.0.71'), item('http1', '127.0.0.71'), item('tls', '127.0.0.70'), item('http2', '127.0.0.70'), item('dns', null), item('turn', null), item('http2', null)]
    const { bound, elsewhere } = bindEvidence(items, '127.0.0.70')
    expect(bound.map((e) => `${e.kind} ${e.clientIp}`)).toEqual(['tls 127.0.0.70', 'http2 127.0.0.70', 'dns null', 'turn null'])
    expect(elsewhere).toEqual([
      { kind: 'tls', address: '127.0.0.71', observedAt: '2026-11-15T12:00:00+00:00' },
      { kind: 'http1', address: '127.0.0.71', observedAt: '2026-11-15T12:00:00+00:00' },
      { kind: 'http2', address: null, observedAt: '2026-11-15T12:00:00+00:00' },
    ])
  })
})

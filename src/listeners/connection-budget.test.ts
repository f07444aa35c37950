import { describe, expect, test } from 'bun:test'
import { connectionBudget } from './connection-budget'

describe('connectionBudget', () => {
  const limits = { perNetwork: 3, handshakesPerNetwork: 2, total: 5 }

  test('refuses a network its handshakes past the tighter limit, and counts an established connection only against the wider one', () => {
    const b = connectionBudget(limits)
    const first = b.admit('192.0.2.1')
    const second = b.admit('192.0.2.1')
    expect(typeof first).toBe('object')
    expect(b.admit('192.0.2.1')).toBe('handshakes_per_network')
    if (typeof first === 'object') first.established()
    const third = b.admit('192.0.2.1')
    expect(typeof third).toBe('object')
    expect(b.held('192.0.2.1')).toEqual({ open: 3, handshaking: 2 })
    if (typeof second === 'object') second.established()
    expect(b.admit('192.0.2.1')).toBe('connections_per_network')
  })

  test('an IPv6 /64 is one network, whatever the host part; another /64 is another', () => {
    const b = connectionBudget({ ...limits, total: 100 })
    b.admit('2001:db8:1:2::1')
    b.admit('2001:db8:1:2:ffff::9')
    expect(b.admit('2001:db8:1:2:abcd::1')).toBe('handshakes_per_network')
    expect(typeof b.admit('2001:db8:1:3::1')).toBe('object')
    // IPv4-mapped IPv6 is the IPv4 address.
    b.admit('198.51.100.7')
    b.admit('::ffff:198.51.100.7')
    expect(b.admit('198.51.100.7')).toBe('handshakes_per_network')
  })

  test('a release gives the place back, once however often it is called; the total holds over all networks', () => {
    const b = connectionBudget(limits)
    const tickets = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5'].map((a) => b.admit(a))
    expect(b.total).toBe(5)
    expect(b.admit('192.0.2.6')).toBe('connections_total')
    const t = tickets[0]
    if (typeof t !== 'object') throw new Error('admitted')
    t.release()
    t.release()
    expect(b.total).toBe(4)
    expect(b.held('192.0.2.1')).toEqual({ open: 0, handshaking: 0 })
    expect(typeof b.admit('192.0.2.6')).toBe('object')
    expect(b.admit('192.0.2.7')).toBe('connections_total')
  })
})

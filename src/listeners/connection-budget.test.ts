import { describe, expect, test } from 'bun:test'
import { connectionBudget, type ConnectionTicket } from './connection-budget'
import { rangeKey } from '../core/ip'

describe('connectionBudget', () => {
  const limits = { perNetwork: 3, handshakesPerNetwork: 2, perRange: 100, total: 5 }

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

  const ticket = (t: ConnectionTicket | string): ConnectionTicket => {
    if (typeof t === 'string') throw new Error(`refused: ${t}`)
    return t
  }

  test('ranges: an IPv4 /24 and an IPv6 /48 hold at most perRange, whatever their networks', () => {
    expect(rangeKey('192.0.2.77')).toBe('192.0.2.0/24')
    expect(rangeKey('::ffff:192.0.2.77')).toBe('192.0.2.0/24')
    expect(rangeKey('2001:db8:aa:bbcc::1')).toBe('2001:db8:aa::/48')
    const b = connectionBudget({ perNetwork: 64, handshakesPerNetwork: 64, perRange: 256, total: 100_000 })
    // 17 addresses of one /24, 64 each: only 256 get in.
    let admitted = 0
    for (let host = 1; host <= 17; host++) for (let i = 0; i < 64; i++) if (typeof b.admit(`127.0.1.${host}`) === 'object') admitted++
    expect(admitted).toBe(256)
    expect(b.admit('127.0.1.200')).toBe('connections_per_range')
    // Thousands of /64s of one IPv6 /48 (a /56 home customer lies in one): 256 in all.
    let v6 = 0
    for (let net = 0; net < 4096; net++) if (typeof b.admit(`2001:db8:aa:${net.toString(16)}::1`) === 'object') v6++
    expect(v6).toBe(256)
    expect(typeof b.admit('2001:db8:ab::1')).toBe('object')
  })

  test('at the total, a newcomer from elsewhere takes the place of the largest holder\'s oldest idle connection; the largest holder itself is refused', () => {
    const b = connectionBudget({ perNetwork: 64, handshakesPerNetwork: 64, perRange: 512, total: 1024 })
    const closed: string[] = []
    // Four /24s fill the total; the third's connections are busy, the others' idle.
    const held: ConnectionTicket[] = []
    for (const r of [1, 2, 3, 4]) {
      for (let i = 0; i < 256; i++) {
        const address = `10.0.${r}.${1 + (i % 4)}`
        const t = ticket(b.admit(address, () => closed.push(`${address}#${i}`)))
        t.established()
        if (r === 3) t.busy(true)
        held.push(t)
      }
    }
    expect(b.total).toBe(1024)
    // A range that already holds the most gets nothing more.
    expect(b.admit('10.0.1.9')).toBe('connections_total')
    // An ordinary client from elsewhere, every time: each takes the largest holder's oldest idle connection.
    for (let k = 0; k < 50; k++) expect(typeof b.admit(`198.51.${k}.7`)).toBe('object')
    expect(b.total).toBe(1024)
    expect(b.evicted).toBe(50)
    expect(closed).toHaveLength(50)
    // Always from the largest holder; among holders of one size an idle connection first
    // (the busy /24's only once it alone is the largest), the oldest first.
    expect(closed.slice(0, 5)).toEqual(['10.0.1.1#0', '10.0.2.1#0', '10.0.4.1#0', '10.0.3.1#0', '10.0.1.2#1'])
    // An evicted connection's close (its socket's 'close') releases nothing twice.
    held[0]!.release()
    expect(b.total).toBe(1024)
  })

  test('a range of the same size as the newcomer\'s is not robbed: only a strictly larger holder makes room', () => {
    const b = connectionBudget({ perNetwork: 64, handshakesPerNetwork: 64, perRange: 256, total: 4 })
    for (const a of ['10.0.1.1', '10.0.2.1', '10.0.3.1', '10.0.4.1']) ticket(b.admit(a))
    expect(b.admit('10.0.5.1')).toBe('connections_total')
    expect(b.evicted).toBe(0)
  })
})

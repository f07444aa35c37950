import { describe, expect, test } from 'bun:test'
import { parseIp } from '../core/ip'
import { addressWords, findRange, lookupIp, type IpTables, type RangeTable } from './ipdb-core'

const v4 = (a: string) => addressWords(parseIp(a)!)[0]!
const words6 = (a: string) => [...addressWords(parseIp(a)!)]

/** A table from [first, last, value] rows written as addresses. */
function table(rows: ReadonlyArray<readonly [string, string, number]>, words: 1 | 4): RangeTable {
  const key = (a: string) => (words === 1 ? [v4(a)] : words6(a))
  return {
    words,
    length: rows.length,
    start: Uint32Array.from(rows.flatMap(([s]) => key(s))),
    end: Uint32Array.from(rows.flatMap(([, e]) => key(e))),
    value: Uint32Array.from(rows.map(([, , v]) => v)),
  }
}

const TABLES: IpTables = {
  country: {
    codes: ['US', 'DE', 'FR'],
    v4: table([
      ['8.8.8.0', '8.8.8.255', 0],
      ['88.198.0.0', '88.198.255.255', 1],
      ['90.0.0.0', '90.127.255.255', 2],
    ], 1),
    v6: table([
      ['2001:4860::', '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff', 0],
      // Two ranges that differ only in their last words.
      ['2a01:4f8::', '2a01:4f8::ffff', 1],
      ['2a01:4f8::1:0', '2a01:4f8::1:ffff', 2],
    ], 4),
  },
  asn: {
    asn: Uint32Array.from([15169, 24940, 3215, 64500]),
    org: ['Google LLC', 'Hetzner Online GmbH', 'Orange S.A.', 'Example Hosting Ltd'],
    v4: table([
      ['8.8.8.0', '8.8.8.255', 0],
      ['88.198.0.0', '88.198.255.255', 1],
      ['90.0.0.0', '90.127.255.255', 2],
      ['198.100.0.0', '198.100.0.255', 3],
    ], 1),
    v6: table([
      ['2001:4860::', '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff', 0],
      ['2a01:4f8::', '2a01:4f8::1:ffff', 1],
    ], 4),
  },
}

describe('findRange', () => {
  const t = TABLES.country.v4
  test('finds the range holding an address, bounds included', () => {
    expect(findRange(t, Uint32Array.of(v4('8.8.8.0')))).toBe(0)
    expect(findRange(t, Uint32Array.of(v4('8.8.8.8')))).toBe(0)
    expect(findRange(t, Uint32Array.of(v4('8.8.8.255')))).toBe(0)
    expect(findRange(t, Uint32Array.of(v4('90.127.255.255')))).toBe(2)
  })

  test('answers -1 between ranges, before the first and after the last', () => {
    expect(findRange(t, Uint32Array.of(v4('8.8.9.0')))).toBe(-1)
    expect(findRange(t, Uint32Array.of(v4('1.1.1.1')))).toBe(-1)
    expect(findRange(t, Uint32Array.of(v4('255.255.255.255')))).toBe(-1)
  })

  test('compares IPv6 addresses on all four words', () => {
    const t6 = TABLES.country.v6
    expect(findRange(t6, Uint32Array.from(words6('2a01:4f8::ffff')))).toBe(1)
    expect(findRange(t6, Uint32Array.from(words6('2a01:4f8::1:0')))).toBe(2)
    expect(findRange(t6, Uint32Array.from(words6('2a01:4f8::2:0')))).toBe(-1)
  })

  test('answers -1 on an empty table and on a key of the other family', () => {
    const empty: RangeTable = { words: 1, length: 0, start: new Uint32Array(), end: new Uint32Array(), value: new Uint32Array() }
    expect(findRange(empty, Uint32Array.of(1))).toBe(-1)
    expect(findRange(TABLES.country.v6, Uint32Array.of(v4('8.8.8.8')))).toBe(-1)
  })
})

describe('lookupIp', () => {
  test('gives country, AS and organisation of a public IPv4 address', () => {
    expect(lookupIp(TABLES, '8.8.8.8')).toEqual({
      ok: true,
      info: {
        ip: '8.8.8.8',
        version: 4,
        country: 'US',
        asn: 15169,
        org: 'Google LLC',
        hosting: true,
        hostingReason: { source: 'known-asn', kind: 'cloud', label: 'Google' },
      },
    })
  })

  test('looks an IPv4-mapped IPv6 address up as IPv4 and answers it canonically', () => {
    const r = lookupIp(TABLES, '::ffff:88.198.1.2')
    expect(r.ok && r.info).toMatchObject({ ip: '88.198.1.2', version: 4, country: 'DE', asn: 24940, hosting: true })
  })

  test('looks IPv6 up in the IPv6 tables', () => {
    const r = lookupIp(TABLES, '2A01:4F8:0:0::1:5')
    expect(r.ok && r.info).toMatchObject({ ip: '2a01:4f8::1:5', version: 6, country: 'FR', asn: 24940 })
  })

  test('an ordinary ISP is not hosting', () => {
    const r = lookupIp(TABLES, '90.1.2.3')
    expect(r.ok && r.info).toMatchObject({ country: 'FR', asn: 3215, org: 'Orange S.A.', hosting: false, hostingReason: null })
  })

  test('an unlisted AS is flagged by its name, as a heuristic', () => {
    const r = lookupIp(TABLES, '198.100.0.7')
    expect(r.ok && r.info).toMatchObject({ country: null, asn: 64500, hosting: true, hostingReason: { source: 'org-name-heuristic', kind: 'hosting', label: 'hosting' } })
  })

  test.each([
    ['192.168.1.1', 'private'],
    ['10.0.0.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['100.64.1.1', 'cgnat'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'private'],
    ['::1', 'loopback'],
    ['192.0.2.1', 'documentation'],
  ] as const)('%s is not looked up: reason private, scope %s', (ip, scope) => {
    expect(lookupIp(TABLES, ip)).toEqual({ ok: false, reason: 'private', scope })
  })

  test('a public address in no table is unlisted', () => {
    expect(lookupIp(TABLES, '1.1.1.1')).toEqual({ ok: false, reason: 'unlisted', scope: 'public' })
    expect(lookupIp(TABLES, '2600::1')).toEqual({ ok: false, reason: 'unlisted', scope: 'public' })
  })

  test.each(['', 'localhost', '1.2.3', '1.2.3.4.5', '2001:::1', '8.8.8.8/24'])('%p is invalid', (ip) => {
    expect(lookupIp(TABLES, ip)).toEqual({ ok: false, reason: 'invalid', scope: null })
  })
})

describe('lookupIp on a damaged table', () => {
  test('a value past its dictionary answers no country and no AS, never undefined', () => {
    const damaged: IpTables = {
      country: { codes: ['US'], v4: table([['8.8.8.0', '8.8.8.255', 7]], 1), v6: table([], 4) },
      asn: { asn: Uint32Array.from([15169]), org: ['Google LLC'], v4: table([['8.8.8.0', '8.8.8.255', 9]], 1), v6: table([], 4) },
    }
    const found = lookupIp(damaged, '8.8.8.8')
    expect(found).toMatchObject({ ok: true, info: { country: null, asn: null, org: null } })
  })
})

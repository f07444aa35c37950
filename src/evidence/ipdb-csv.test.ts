import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { buildAsnTables, buildCountryTables } from './ipdb-csv'
import type { RangeTable } from './ipdb-core'

const csv = (...lines: string[]) => lines.map((l) => `${l}\n`).join('')
/** The file's bytes as the loader passes them: UTF-8 read as latin1. */
const asRead = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

/** The rows of an IPv4 table as [start, end, value]. */
const rows4 = (t: RangeTable) => [...t.value].map((v, i) => [t.start[i], t.end[i], v])
const country4 = (...lines: string[]) => buildCountryTables({ v4: csv(...lines), v6: '' })

describe('buildCountryTables', () => {
  test('reads IPv4 and IPv6 ranges with one dictionary entry per country', () => {
    const { tables, stats } = buildCountryTables({
      v4: csv('16777216,16777471,AU', '16777472,16778239,CN', '16778240,16779263,AU'),
      v6: csv('42540528726795050063891204319802818560,42540528806023212578155541913346768895,JP'),
    })
    expect(tables.codes).toEqual(['AU', 'CN', 'JP'])
    expect(rows4(tables.v4)).toEqual([[16777216, 16777471, 0], [16777472, 16778239, 1], [16778240, 16779263, 0]])
    // 2001:200:: – 2001:200:ffff:ffff:ffff:ffff:ffff:ffff
    expect([...tables.v6.start]).toEqual([0x20010200, 0, 0, 0])
    expect([...tables.v6.end]).toEqual([0x20010200, 0xffffffff, 0xffffffff, 0xffffffff])
    expect(tables.v6.value[0]).toBe(2)
    expect(stats).toEqual({ v4: { rows: 3, ranges: 3, overlaps: 0 }, v6: { rows: 1, ranges: 1, overlaps: 0 } })
  })

  test('reads a last line without its newline, and empty files as empty tables', () => {
    const { tables } = buildCountryTables({ v4: '1,2,FR\n3,4,DE', v6: '' })
    expect(rows4(tables.v4)).toEqual([[1, 2, 0], [3, 4, 1]])
    expect(tables.v6.length).toBe(0)
  })

  test('reads IPv6 bounds exactly, across all 128 bits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), (n) => {
        const { tables } = buildCountryTables({ v4: '', v6: csv(`${n},${n},US`) })
        const words = [96n, 64n, 32n, 0n].map((shift) => Number((n >> shift) & 0xffffffffn))
        expect([...tables.v6.start]).toEqual(words)
        expect([...tables.v6.end]).toEqual(words)
      }),
    )
  })

  describe('overlapping ranges: the narrower one wins', () => {
    test('a range inside another cuts it in two', () => {
      const { tables, stats } = country4('10,100,DE', '20,30,BE')
      expect(rows4(tables.v4)).toEqual([[10, 19, 0], [20, 30, 1], [31, 100, 0]])
      expect(stats.v4).toEqual({ rows: 2, ranges: 3, overlaps: 1 })
    })

    test('the ip-location-db shape: a single address inside, then the rest listed again', () => {
      const { tables } = country4('37405696,37406207,DE', '37405967,37405967,BE', '37405968,37406207,DE')
      expect(rows4(tables.v4)).toEqual([[37405696, 37405966, 0], [37405967, 37405967, 1], [37405968, 37406207, 0]])
    })

    test('ranges nested two deep', () => {
      const { tables } = country4('10,100,FR', '20,80,DE', '30,40,BE', '90,95,NL')
      expect(rows4(tables.v4)).toEqual([[10, 19, 0], [20, 29, 1], [30, 40, 2], [41, 80, 1], [81, 89, 0], [90, 95, 3], [96, 100, 0]])
    })

    test('same start: the narrower wins over the wider listed first', () => {
      const { tables } = country4('10,100,FR', '10,20,SK', '21,30,NL')
      expect(rows4(tables.v4)).toEqual([[10, 20, 1], [21, 30, 2], [31, 100, 0]])
    })

    test('ranges that cross: the one ending sooner wins where they overlap', () => {
      const { tables } = country4('10,50,DE', '40,60,FR')
      expect(rows4(tables.v4)).toEqual([[10, 50, 0], [51, 60, 1]])
    })

    test('a range up to the last address, with one inside it', () => {
      const { tables } = country4('4294967040,4294967295,US', '4294967294,4294967295,CA')
      expect(rows4(tables.v4)).toEqual([[4294967040, 4294967293, 0], [4294967294, 4294967295, 1]])
      const six = buildCountryTables({ v4: '', v6: csv(`0,${(1n << 128n) - 1n},US`, `5,5,CA`) }).tables.v6
      expect([...six.value]).toEqual([0, 1, 0])
      expect([...six.end.subarray(0, 4)]).toEqual([0, 0, 0, 4])
      expect([...six.start.subarray(8, 12)]).toEqual([0, 0, 0, 6])
    })

    test('a duplicate range is read once, the later one winning', () => {
      const { tables } = country4('10,20,DE', '10,20,FR')
      expect(rows4(tables.v4)).toEqual([[10, 20, 1]])
    })
  })

  test.each([
    ['1,2,XYZ', "'XYZ' is not a country code"],
    ['1,2,de', "'de' is not a country code"],
    ['1,x,DE', "line 1: bad IPv4 number 'x'"],
    ['1,,DE', 'line 1: bad IPv4 number'],
    ['4294967296,4294967296,DE', 'line 1: bad IPv4 number'],
    ['5,4,DE', 'line 1: range starts after it ends'],
    ['1;2;DE', 'line 1: expected a comma'],
  ])('refuses %p, naming the problem', (line, message) => {
    expect(() => buildCountryTables({ v4: csv(line), v6: '' })).toThrow(message)
  })

  test('refuses ranges out of order, naming the line', () => {
    expect(() => country4('10,20,DE', '30,40,FR', '5,8,NL')).toThrow('Cannot read IP table country-ipv4: line 3: ranges are not sorted by start')
  })

  test('refuses an IPv6 number of 2^128 or more', () => {
    const big = 1n << 128n
    expect(() => buildCountryTables({ v4: '', v6: csv(`0,${big},US`) })).toThrow('above 2^128')
    expect(() => buildCountryTables({ v4: '', v6: csv(`0,1${'0'.repeat(39)},US`) })).toThrow()
  })
})

describe('buildAsnTables', () => {
  test('reads AS numbers and organisation names, quoted or not, sharing entries across families', () => {
    const { tables } = buildAsnTables({
      v4: csv('16777216,16777471,13335,"Cloudflare, Inc."', '35309568,35313663,201907,"LLC ""SPUTNIK"""', '134744064,134744319,15169,Google LLC'),
      v6: csv('42540766411282592856903984951653826560,42540766490510755371168322545197776895,15169,Google LLC'),
    })
    expect([...tables.asn]).toEqual([13335, 201907, 15169])
    expect(tables.org).toEqual(['Cloudflare, Inc.', 'LLC "SPUTNIK"', 'Google LLC'])
    expect([...tables.v4.value]).toEqual([0, 1, 2])
    expect([...tables.v6.value]).toEqual([2])
  })

  test('keeps one entry per AS and name, and a second one when an AS has two names', () => {
    const { tables } = buildAsnTables({ v4: csv('1,2,64500,A', '3,4,64501,B', '5,6,64500,A', '7,8,64500,A2', '9,10,64500,A'), v6: '' })
    expect([...tables.asn]).toEqual([64500, 64501, 64500])
    expect(tables.org).toEqual(['A', 'B', 'A2'])
    expect([...tables.v4.value]).toEqual([0, 1, 0, 2, 0])
  })

  test('decodes organisation names from UTF-8', () => {
    const { tables } = buildAsnTables({ v4: asRead(csv('1,2,262934,IP·RED', '3,4,263850,Tribunal Regional do Trabalho 17ª Regiao', '5,6,64500,Телеком')), v6: '' })
    expect(tables.org).toEqual(['IP·RED', 'Tribunal Regional do Trabalho 17ª Regiao', 'Телеком'])
  })

  test('an AS without a name has an empty one', () => {
    const { tables } = buildAsnTables({ v4: csv('1,2,64500', '3,4,64501,'), v6: '' })
    expect(tables.org).toEqual(['', ''])
  })

  test.each(['1,2,AS13335,X', '1,2,,X', '1,2,99999999999,X', '1,2,12x,X'])('refuses the bad AS number in %p', (line) => {
    expect(() => buildAsnTables({ v4: csv(line), v6: '' })).toThrow('Cannot read IP table asn-ipv4: bad AS number')
  })
})

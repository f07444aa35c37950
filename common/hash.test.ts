import { describe, expect, test } from 'bun:test'
import { canonicalJson, cyrb53, hashHex, hashValue } from './hash'

describe('cyrb53', () => {
  test('gives the reference values published with the algorithm', () => {
    expect(cyrb53('a')).toBe(7929297801672961)
    expect(cyrb53('b')).toBe(8684336938537663)
    expect(cyrb53('revenge')).toBe(4051478007546757)
    expect(cyrb53('revenue')).toBe(8309097637345594)
    expect(cyrb53('revenue', 1)).toBe(8697026808958300)
  })
})

describe('hashHex', () => {
  test('is 16 lower-case hex digits', () => {
    expect(hashHex('')).toMatch(/^[0-9a-f]{16}$/)
    expect(hashHex('Cwm fjordbank gly')).toMatch(/^[0-9a-f]{16}$/)
  })
  test('hashes bytes like the string of the same code units', () => {
    expect(hashHex(new Uint8Array([104, 105]))).toBe(hashHex('hi'))
    expect(hashHex(new Uint8ClampedArray([0, 255, 7]))).toBe(hashHex('\u0000\u00ff\u0007'))
  })
  test('changes when one pixel changes by one', () => {
    const a = new Uint8Array(4000).fill(128)
    const b = a.slice()
    b[1234] = 129
    expect(hashHex(a)).not.toBe(hashHex(b))
  })
})

describe('canonicalJson', () => {
  test('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe('{"a":{"d":[2,{"e":0,"f":1}]},"b":1}')
  })
  test('writes non-finite numbers as null, like JSON', () => {
    expect(canonicalJson([NaN, Infinity, null, undefined])).toBe('[null,null,null,null]')
  })
  test('gives equal hashes for equal values in any key order', () => {
    expect(hashValue({ x: 1, y: 'z' })).toBe(hashValue({ y: 'z', x: 1 }))
    expect(hashValue({ x: 1 })).not.toBe(hashValue({ x: 2 }))
  })
})

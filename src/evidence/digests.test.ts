import { describe, expect, test } from 'bun:test'
import { createHash, createHmac } from 'node:crypto'
import fc from 'fast-check'
import { toHex } from './bytes'
import { hmacSha1, hmacSha256, md5, md5Hex, sha1, sha256, sha256Hex } from './digests'

const node = (alg: string, b: Uint8Array) => createHash(alg).update(b).digest('hex')

describe('digests', () => {
  test('match the published test vectors', () => {
    // RFC 1321 §A.5, FIPS 180-2 appendix B.1.
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e')
    expect(md5Hex('message digest')).toBe('f96b697d7cb7938d525a2f31aaf161d0')
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(toHex(sha1('abc'))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d')
  })

  test('agree with node:crypto at every length around the block boundaries', () => {
    for (let n = 0; n < 200; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff)
      expect(toHex(md5(b))).toBe(node('md5', b))
      expect(toHex(sha256(b))).toBe(node('sha256', b))
      expect(toHex(sha1(b))).toBe(node('sha1', b))
    }
  })

  test('agree with node:crypto on random inputs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (b) => {
        expect(md5Hex(b)).toBe(node('md5', b))
        expect(sha256Hex(b)).toBe(node('sha256', b))
      }),
      { numRuns: 200 },
    )
  })

  test('HMACs agree with node:crypto, including keys longer than a block', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.uint8Array({ maxLength: 300 }), (key, msg) => {
        expect(toHex(hmacSha1(key, msg))).toBe(createHmac('sha1', key).update(msg).digest('hex'))
        expect(toHex(hmacSha256(key, msg))).toBe(createHmac('sha256', key).update(msg).digest('hex'))
      }),
      { numRuns: 200 },
    )
  })
})

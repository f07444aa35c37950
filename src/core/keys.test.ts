import { describe, expect, test } from 'bun:test'
import { crc32 as zlibCrc32 } from 'node:zlib'
import fc from 'fast-check'
import { crc32 } from './crc32'
import { createHash } from 'node:crypto'
import { extractApiKey, generateApiKey, hashSecret, isWellFormedApiKey, KEY_LENGTH, KEY_PREFIX, keyHint, randomBase62 } from './keys'

/** A deterministic byte source (mulberry32), so generated keys can be compared. */
function seeded(seed: number) {
  let a = seed >>> 0
  return (n: number) => {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) {
      a = (a + 0x6d2b79f5) >>> 0
      let t = a
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff
    }
    return out
  }
}

const realRandom = (n: number) => crypto.getRandomValues(new Uint8Array(n))

describe('crc32', () => {
  test('matches the IEEE check value for "123456789"', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926)
  })
  test('is 0 for no bytes and an unsigned 32-bit number otherwise', () => {
    expect(crc32(new Uint8Array())).toBe(0)
    expect(crc32(new TextEncoder().encode('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339)
  })
  test("agrees with zlib's on any bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (b) => expect(crc32(b)).toBe(zlibCrc32(b))), { numRuns: 300 })
  })
})

describe('generateApiKey', () => {
  test('has the prefix, the fixed length and only base62 after the prefix', () => {
    const key = generateApiKey(realRandom)
    expect(key.startsWith(KEY_PREFIX)).toBe(true)
    expect(key).toHaveLength(KEY_LENGTH)
    expect(KEY_LENGTH).toBe(3 + 32 + 6)
    expect(key.slice(KEY_PREFIX.length)).toMatch(/^[0-9A-Za-z]{38}$/)
  })

  test('carries at least 160 random bits: 32 characters over all 62 symbols', () => {
    const keys = Array.from({ length: 300 }, () => generateApiKey(realRandom))
    expect(new Set(keys).size).toBe(300)
    const bodies = keys.map((k) => k.slice(KEY_PREFIX.length, KEY_PREFIX.length + 32))
    const symbols = new Set(bodies.join(''))
    // 9600 uniform draws miss one of 62 symbols with probability below 1e-60.
    expect(symbols.size).toBe(62)
    expect(bodies[0]!.length * Math.log2(symbols.size)).toBeGreaterThanOrEqual(160)
  })

  test('is deterministic for a seeded random source', () => {
    expect(generateApiKey(seeded(42))).toBe(generateApiKey(seeded(42)))
    expect(generateApiKey(seeded(42))).not.toBe(generateApiKey(seeded(43)))
  })

  test('is accepted by its own checksum check', () => {
    for (let seed = 0; seed < 50; seed++) expect(isWellFormedApiKey(generateApiKey(seeded(seed)))).toBe(true)
  })
})

describe('randomBase62', () => {
  test('skips bytes of 248 and above so every character is equally likely', () => {
    // 247 % 62 = 61 ('z'); 248..255 must be redrawn rather than folded onto '0'..'7'.
    const bytes = [255, 248, 247, 0, 61]
    let i = 0
    const source = (n: number) => Uint8Array.from({ length: n }, () => bytes[i++ % bytes.length]!)
    expect(randomBase62(source, 3)).toBe('z0z')
  })
})

describe('isWellFormedApiKey', () => {
  const key = generateApiKey(seeded(7))

  test('rejects a key with one character changed', () => {
    for (let i = KEY_PREFIX.length; i < key.length; i++) {
      const c = key[i] === 'A' ? 'B' : 'A'
      expect(isWellFormedApiKey(key.slice(0, i) + c + key.slice(i + 1))).toBe(false)
    }
  })

  test('rejects a truncated or extended key', () => {
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false)
    expect(isWellFormedApiKey(key.slice(0, 20))).toBe(false)
    expect(isWellFormedApiKey(`${key}a`)).toBe(false)
    expect(isWellFormedApiKey('')).toBe(false)
  })

  test('rejects a wrong prefix even with a valid body and checksum', () => {
    expect(isWellFormedApiKey(`xy_${key.slice(3)}`)).toBe(false)
    expect(isWellFormedApiKey(`AB_${key.slice(3)}`)).toBe(false)
  })

  test('rejects characters outside base62', () => {
    expect(isWellFormedApiKey(`${key.slice(0, 10)}-${key.slice(11)}`)).toBe(false)
    expect(isWellFormedApiKey(`${key.slice(0, 10)}é${key.slice(11)}`)).toBe(false)
  })
})

describe('keyHint', () => {
  test('shows the prefix with four characters and the last four, never the whole key', () => {
    const key = generateApiKey(seeded(1))
    const hint = keyHint(key)
    expect(hint.prefix).toBe(key.slice(0, 7))
    expect(hint.prefix.startsWith(KEY_PREFIX)).toBe(true)
    expect(hint.last4).toBe(key.slice(-4))
  })
})

describe('hashSecret', () => {
  test('is the hex SHA-256 of the key', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
  test("is node:crypto's SHA-256 of the UTF-8, for keys, session tokens, network keys and any other text", () => {
    const random = (n: number) => crypto.getRandomValues(new Uint8Array(n))
    const inputs = ['', 'é', '\u{1F600} emoji', 'a'.repeat(1000), '203.0.113.0/24', '2001:db8::/64', '\u0000nul', 'lone \ud800 surrogate']
    for (let i = 0; i < 50; i++) inputs.push(generateApiKey(random), randomBase62(random, 43))
    for (const x of inputs) expect(hashSecret(x)).toBe(createHash('sha256').update(x).digest('hex'))
  })
})

describe('extractApiKey', () => {
  test('takes the Bearer token from the Authorization header', () => {
    expect(extractApiKey({ authorization: 'Bearer abc' })).toBe('abc')
    expect(extractApiKey({ authorization: 'bearer   abc ' })).toBe('abc')
  })
  test('takes the apikey query parameter when there is no header', () => {
    expect(extractApiKey({ apikey: 'abc' })).toBe('abc')
    expect(extractApiKey({ authorization: null, apikey: 'abc' })).toBe('abc')
  })
  test('lets the header win when both are sent', () => {
    expect(extractApiKey({ authorization: 'Bearer from-header', apikey: 'from-query' })).toBe('from-header')
  })
  test('gives no key for a non-Bearer header, even with a query key', () => {
    expect(extractApiKey({ authorization: 'Basic dXNlcjpwYXNz' })).toBeNull()
    expect(extractApiKey({ authorization: 'Basic dXNlcjpwYXNz', apikey: 'abc' })).toBeNull()
    expect(extractApiKey({ authorization: 'Bearer' })).toBeNull()
    expect(extractApiKey({ authorization: 'Bearer a b' })).toBeNull()
  })
  test('gives no key when neither is sent or both are blank', () => {
    expect(extractApiKey({})).toBeNull()
    expect(extractApiKey({ authorization: '  ', apikey: '' })).toBeNull()
  })
})

// Small pure digests for the fingerprints and STUN: MD5 (RFC 1321) for JA3 and the Akamai
// hash and for TURN's long-term key, SHA-256 (FIPS 180-4) for JA4, SHA-1 and HMAC (RFC 2104)
// for STUN's MESSAGE-INTEGRITY. They run on a few hundred bytes per connection, so clarity
// wins over speed; tests compare them with node:crypto. Kept here, not imported from
// node:crypto, so that every module under src/evidence stays free of runtime APIs.

const utf8 = new TextEncoder()

function bytesOf(input: Uint8Array | string): Uint8Array {
  return typeof input === 'string' ? utf8.encode(input) : input
}

function hexWords(words: ArrayLike<number>, littleEndian: boolean): string {
  let s = ''
  for (let i = 0; i < words.length; i++) {
    const w = words[i]! >>> 0
    if (littleEndian) for (let b = 0; b < 4; b++) s += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, '0')
    else s += w.toString(16).padStart(8, '0')
  }
  return s
}

function wordsToBytes(words: ArrayLike<number>, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(words.length * 4)
  for (let i = 0; i < words.length; i++) {
    const w = words[i]! >>> 0
    for (let b = 0; b < 4; b++) out[i * 4 + b] = littleEndian ? (w >>> (8 * b)) & 0xff : (w >>> (24 - 8 * b)) & 0xff
  }
  return out
}

/** The message plus 0x80, zeros, and the bit length in the last 8 bytes of a 64-byte block. */
function pad(message: Uint8Array, littleEndianLength: boolean): Uint8Array {
  const blocks = Math.ceil((message.length + 9) / 64)
  const out = new Uint8Array(blocks * 64)
  out.set(message)
  out[message.length] = 0x80
  const bits = message.length * 8
  const hi = Math.floor(bits / 0x100000000)
  const lo = bits >>> 0
  const at = out.length - 8
  for (let b = 0; b < 4; b++) {
    if (littleEndianLength) {
      out[at + b] = (lo >>> (8 * b)) & 0xff
      out[at + 4 + b] = (hi >>> (8 * b)) & 0xff
    } else {
      out[at + 4 + b] = (lo >>> (24 - 8 * b)) & 0xff
      out[at + b] = (hi >>> (24 - 8 * b)) & 0xff
    }
  }
  return out
}

const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n))
const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n))

// MD5: K[i] = floor(|sin(i + 1)| · 2^32), shifts per round (RFC 1321 §3.4).
const MD5_K = [
  0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
  0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
  0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
  0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
]
const MD5_S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

function md5Words(input: Uint8Array): Int32Array {
  const m = pad(input, true)
  const h = new Int32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476])
  const x = new Int32Array(16)
  for (let off = 0; off < m.length; off += 64) {
    for (let i = 0; i < 16; i++) x[i] = m[off + i * 4]! | (m[off + i * 4 + 1]! << 8) | (m[off + i * 4 + 2]! << 16) | (m[off + i * 4 + 3]! << 24)
    let [a, b, c, d] = [h[0]!, h[1]!, h[2]!, h[3]!]
    for (let i = 0; i < 64; i++) {
      const round = i >> 4
      let f: number
      let g: number
      if (round === 0) [f, g] = [(b & c) | (~b & d), i]
      else if (round === 1) [f, g] = [(d & b) | (~d & c), (5 * i + 1) & 15]
      else if (round === 2) [f, g] = [b ^ c ^ d, (3 * i + 5) & 15]
      else [f, g] = [c ^ (b | ~d), (7 * i) & 15]
      const t = d
      d = c
      c = b
      b = (b + rotl((a + f + MD5_K[i]! + x[g]!) | 0, MD5_S[round * 4 + (i & 3)]!)) | 0
      a = t
    }
    h[0] = (h[0]! + a) | 0
    h[1] = (h[1]! + b) | 0
    h[2] = (h[2]! + c) | 0
    h[3] = (h[3]! + d) | 0
  }
  return h
}

export function md5(input: Uint8Array | string): Uint8Array {
  return wordsToBytes(md5Words(bytesOf(input)), true)
}

export function md5Hex(input: Uint8Array | string): string {
  return hexWords(md5Words(bytesOf(input)), true)
}

// SHA-256: K are the first 32 bits of the fractional parts of the cube roots of the first 64
// primes, H0 of the square roots of the first 8 (FIPS 180-4 §4.2.2, §5.3.3).
const SHA256_K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]

function sha256Words(input: Uint8Array): Int32Array {
  const m = pad(input, false)
  const h = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const w = new Int32Array(64)
  for (let off = 0; off < m.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = (m[off + i * 4]! << 24) | (m[off + i * 4 + 1]! << 16) | (m[off + i * 4 + 2]! << 8) | m[off + i * 4 + 3]!
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3)
      const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10)
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!]
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i]! + w[i]!) | 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      hh = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    const add = [a, b, c, d, e, f, g, hh]
    for (let i = 0; i < 8; i++) h[i] = (h[i]! + add[i]!) | 0
  }
  return h
}

export function sha256(input: Uint8Array | string): Uint8Array {
  return wordsToBytes(sha256Words(bytesOf(input)), false)
}

export function sha256Hex(input: Uint8Array | string): string {
  return hexWords(sha256Words(bytesOf(input)), false)
}

// SHA-1 (FIPS 180-4 §6.1): only for HMAC-SHA1, which STUN's MESSAGE-INTEGRITY still uses.
export function sha1(input: Uint8Array | string): Uint8Array {
  const m = pad(bytesOf(input), false)
  const h = new Int32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0])
  const w = new Int32Array(80)
  for (let off = 0; off < m.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = (m[off + i * 4]! << 24) | (m[off + i * 4 + 1]! << 16) | (m[off + i * 4 + 2]! << 8) | m[off + i * 4 + 3]!
    for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!, 1)
    let [a, b, c, d, e] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!]
    for (let i = 0; i < 80; i++) {
      let f: number
      let k: number
      if (i < 20) [f, k] = [(b & c) | (~b & d), 0x5a827999]
      else if (i < 40) [f, k] = [b ^ c ^ d, 0x6ed9eba1]
      else if (i < 60) [f, k] = [(b & c) | (b & d) | (c & d), 0x8f1bbcdc]
      else [f, k] = [b ^ c ^ d, 0xca62c1d6]
      const t = (rotl(a, 5) + f + e + k + w[i]!) | 0
      e = d
      d = c
      c = rotl(b, 30)
      b = a
      a = t
    }
    const add = [a, b, c, d, e]
    for (let i = 0; i < 5; i++) h[i] = (h[i]! + add[i]!) | 0
  }
  return wordsToBytes(h, false)
}

/** HMAC (RFC 2104) over a 64-byte-block hash. */
function hmac(hash: (b: Uint8Array) => Uint8Array, key: Uint8Array, message: Uint8Array): Uint8Array {
  const k = new Uint8Array(64)
  k.set(key.length > 64 ? hash(key) : key)
  const inner = new Uint8Array(64 + message.length)
  const outer = new Uint8Array(64 + 32)
  for (let i = 0; i < 64; i++) {
    inner[i] = k[i]! ^ 0x36
    outer[i] = k[i]! ^ 0x5c
  }
  inner.set(message, 64)
  const ih = hash(inner)
  const o = outer.subarray(0, 64 + ih.length)
  o.set(ih, 64)
  return hash(o)
}

export function hmacSha1(key: Uint8Array, message: Uint8Array): Uint8Array {
  return hmac(sha1, key, message)
}

export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  return hmac(sha256, key, message)
}

// The digests of the fingerprints and STUN: MD5 for JA3, the Akamai hash and TURN's long-term
// key, SHA-256 for JA4, SHA-1 and HMAC (RFC 2104) for STUN's MESSAGE-INTEGRITY. Each runs once or
// more per connection, so they are the runtime's own (Bun.CryptoHasher, BoringSSL): measured on
// a JA3 string, a JA4 part and a STUN message, 3.8–9.8× faster than the TypeScript versions they
// replaced (issue 61; docs/performance.md, "Native digests"). The tests hold them to the published
// vectors and to node:crypto.

type Input = Uint8Array | string

/** The hash's bytes as a plain Uint8Array over the Buffer's own memory (no copy). */
const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

const digest = (alg: 'md5' | 'sha1' | 'sha256', input: Input): Uint8Array => bytes(new Bun.CryptoHasher(alg).update(input).digest())
const digestHex = (alg: 'md5' | 'sha256', input: Input): string => new Bun.CryptoHasher(alg).update(input).digest('hex')
const hmac = (alg: 'sha1' | 'sha256', key: Uint8Array, message: Uint8Array): Uint8Array => bytes(new Bun.CryptoHasher(alg, key).update(message).digest())

export function md5(input: Input): Uint8Array {
  return digest('md5', input)
}

export function md5Hex(input: Input): string {
  return digestHex('md5', input)
}

export function sha256(input: Input): Uint8Array {
  return digest('sha256', input)
}

export function sha256Hex(input: Input): string {
  return digestHex('sha256', input)
}

export function sha1(input: Input): Uint8Array {
  return digest('sha1', input)
}

export function hmacSha1(key: Uint8Array, message: Uint8Array): Uint8Array {
  return hmac('sha1', key, message)
}

export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  return hmac('sha256', key, message)
}

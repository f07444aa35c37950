// API key format: `ab_` + 32 base62 characters of randomness (190 bits) + 6 base62
// characters of CRC-32 over the random part. Like GitHub's token format, the prefix makes a
// key recognisable in logs and secret scanners, and the checksum lets us reject typos and
// truncations before touching the database. Only the SHA-256 of the whole key is stored.

export const KEY_PREFIX = 'ab_'
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_CHARS = 32
const CHECKSUM_CHARS = 6
export const KEY_LENGTH = KEY_PREFIX.length + RANDOM_CHARS + CHECKSUM_CHARS
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`)

import { crc32 } from './crc32'

/** A source of uniformly random bytes (crypto.getRandomValues in production, seeded in tests). */
export type RandomBytes = (n: number) => Uint8Array

/** Uniform base62 string by rejection sampling: 62 * 4 = 248, so bytes >= 248 are redrawn. */
export function randomBase62(random: RandomBytes, length: number): string {
  let out = ''
  while (out.length < length) {
    for (const b of random(length * 2)) {
      if (b >= 248) continue
      out += ALPHABET[b % 62]
      if (out.length === length) break
    }
  }
  return out
}

function base62Fixed(n: number, width: number): string {
  let out = ''
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out
    n = Math.floor(n / 62)
  }
  return out
}

const utf8 = new TextEncoder()

function checksumOf(body: string): string {
  return base62Fixed(crc32(utf8.encode(body)), CHECKSUM_CHARS)
}

export function generateApiKey(random: RandomBytes): string {
  const body = randomBase62(random, RANDOM_CHARS)
  return KEY_PREFIX + body + checksumOf(body)
}

/** Format and checksum only: true says nothing about whether the key exists. */
export function isWellFormedApiKey(key: string): boolean {
  if (key.length !== KEY_LENGTH || !KEY_PATTERN.test(key)) return false
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + RANDOM_CHARS)
  return key.slice(-CHECKSUM_CHARS) === checksumOf(body)
}

/** What we show of a key after creation: enough to recognise it, never enough to use it. */
export function keyHint(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, KEY_PREFIX.length + 4), last4: key.slice(-4) }
}

/** Where the key came from. The Authorization header wins when both are sent (docs/api.md). */
export function extractApiKey(input: { authorization?: string | null; apikey?: string | null }): string | null {
  const auth = input.authorization?.trim()
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth)
    return m ? m[1]! : null
  }
  const q = input.apikey?.trim()
  return q ? q : null
}

/** What the database stores for a key (or a session token): hex SHA-256 of its UTF-8. The keys
 *  carry 190 random bits, so a fast unsalted hash is enough; a slow password hash would only add
 *  latency. The runtime's one-shot digest: a third of node:crypto's createHash for a key (every
 *  keyed request hashes one; its test holds it to node:crypto's). */
export function hashSecret(secret: string): string {
  return Bun.SHA256.hash(secret, 'hex')
}

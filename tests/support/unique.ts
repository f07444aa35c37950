// Identifiers a test makes, unique by construction (issue 43): a prefix of random bytes drawn
// once per process, encoded without loss, and a counter. Within a process the counter tells any
// two apart; between processes (bun test's files, Playwright's workers, a later run on the same
// PostgreSQL database) the 80 random bits do. Never the clock, never a lossy mapping: a
// clock-made nonce with its digits 0, 1, 8 and 9 mapped to `b` collided and turned the gate red.

import { randomBytes } from 'node:crypto'
import { NONCE_LENGTH } from '../../src/core/nonce'

/** The page nonce's alphabet (src/core/nonce.ts): RFC 4648 base32, lower case. */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

/** `bytes` as base32, 5 bits a character, every bit kept. */
export function base32(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const b of bytes) {
    value = (value << 8) | b
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
    value &= (1 << bits) - 1
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

/** `n` (0 ≤ n < 32^width) in base32, exactly `width` characters: one string per number. */
export function base32Counter(n: number, width: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 32 ** width) throw new RangeError(`${n} does not fit ${width} base32 characters`)
  let out = ''
  for (let i = 0; i < width; i++) {
    out = BASE32[n % 32] + out
    n = Math.floor(n / 32)
  }
  return out
}

/** This process's prefix: 80 random bits, 16 characters of [a-z2-7]. */
const RUN = base32(randomBytes(10))
let counter = 0

/** The next number of this process's counter: never the same twice. */
function next(): number {
  counter += 1
  return counter
}

/** `<tag>-<run>-<n>`: lower-case letters, digits and dashes, fit for an email's local part, a file or a database name. */
export function uniqueName(tag: string): string {
  return `${tag}-${RUN}-${next().toString(36)}`
}

/** A sign-up address no other test, process or earlier run on the same database has used. */
export function uniqueEmail(tag: string): string {
  return `${uniqueName(tag)}@example.test`
}

/** A PostgreSQL database name (≤ 63 bytes, lower case, no quoting needed): `<tag>_<run>_<n>`. */
export function uniqueDatabaseName(tag: string): string {
  const name = `${tag}_${RUN}_${next().toString(36)}`
  if (name.length > 63) throw new RangeError(`database name ${name} is longer than PostgreSQL's 63 bytes`)
  return name
}

/**
 * A page nonce the service accepts (`isNonce`): the run's 16 characters and the counter as 10
 * base32 characters (2^50 nonces a process), 26 in all.
 */
export function uniqueNonce(): string {
  const nonce = RUN + base32Counter(next(), NONCE_LENGTH - RUN.length)
  return nonce
}

/**
 * A loopback address of this process's own in 127.64.0.0 – 127.127.255.255, from its pid (pids
 * of live processes differ, and Linux's pid_max is at most 2^22): for a helper server (unbound)
 * that must not meet another run's on the same address.
 */
export function processLoopbackAddress(pid = process.pid): string {
  if (!Number.isSafeInteger(pid) || pid < 0 || pid >= 2 ** 22) throw new RangeError(`pid ${pid} is outside Linux's pid range`)
  return `127.${64 + (pid >> 16)}.${(pid >> 8) & 255}.${pid & 255}`
}

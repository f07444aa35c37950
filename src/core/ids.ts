import type { RandomBytes } from './keys'

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Canonical hyphenated UUID text, any version, either case. Takes null too: Elysia gives a
 *  path parameter with broken percent-encoding (`/tasks/%zz`) as null despite its string type. */
export function isUuid(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.length === 36 && UUID_PATTERN.test(value)
}

/** A random (version 4, RFC 9562) UUID from the given random source. */
export function uuidV4(random: RandomBytes): string {
  const b = random(16)
  b[6] = (b[6]! & 0x0f) | 0x40
  b[8] = (b[8]! & 0x3f) | 0x80
  return hex(b)
}

/**
 * A time-ordered (version 7, RFC 9562) UUID: the 48-bit Unix time in milliseconds, then 74 random
 * bits. Task ids are these, so that each insert lands at the right edge of the tasks' primary-key
 * index (pages already in memory) instead of on a random page of a table that has grown
 * (docs/performance.md). The time it shows is the task's created_at, which the task says anyway;
 * the 74 random bits keep an id as hard to guess as a version 4 one is for any use (2^74 ids a
 * millisecond).
 */
export function uuidV7(random: RandomBytes, now: Date): string {
  const b = random(16)
  let ms = Math.max(0, Math.floor(now.getTime()))
  for (let i = 5; i >= 0; i--) {
    b[i] = ms % 256
    ms = Math.floor(ms / 256)
  }
  b[6] = (b[6]! & 0x0f) | 0x70
  b[8] = (b[8]! & 0x3f) | 0x80
  return hex(b)
}

function hex(b: Uint8Array): string {
  let s = ''
  for (let i = 0; i < 16; i++) s += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + HEX[b[i]!]
  return s
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

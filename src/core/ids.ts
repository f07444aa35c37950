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
  let s = ''
  for (let i = 0; i < 16; i++) s += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + HEX[b[i]!]
  return s
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

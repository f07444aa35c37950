import { describe, expect, test } from 'bun:test'
import { isUuid, uuidV4, uuidV7 } from './ids'

describe('uuidV4', () => {
  test('sets the version 4 and the RFC 9562 variant bits', () => {
    const id = uuidV4((n) => new Uint8Array(n).fill(0xff))
    expect(id).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff')
    expect(uuidV4((n) => new Uint8Array(n))).toBe('00000000-0000-4000-8000-000000000000')
  })
  test('is 36 lower-case characters in hyphenated groups', () => {
    const id = uuidV4((n) => crypto.getRandomValues(new Uint8Array(n)))
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})

describe('uuidV7', () => {
  const at = new Date('2026-12-02T07:30:00.123Z')
  test('leads with the time in milliseconds, then the version 7 and the variant bits', () => {
    const ms = at.getTime().toString(16).padStart(12, '0')
    expect(uuidV7((n) => new Uint8Array(n), at)).toBe(`${ms.slice(0, 8)}-${ms.slice(8)}-7000-8000-000000000000`)
    expect(uuidV7((n) => new Uint8Array(n).fill(0xff), at)).toBe(`${ms.slice(0, 8)}-${ms.slice(8)}-7fff-bfff-ffffffffffff`)
  })
  test('sorts as the times it was made at, whatever the random bits', () => {
    const random = (n: number) => crypto.getRandomValues(new Uint8Array(n))
    const ids = [0, 1, 2, 1000, 86_400_000].map((d) => uuidV7(random, new Date(at.getTime() + d)))
    expect([...ids].sort()).toEqual(ids)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
  test('keeps 74 random bits: two ids of the same millisecond differ', () => {
    const random = (n: number) => crypto.getRandomValues(new Uint8Array(n))
    expect(uuidV7(random, at)).not.toBe(uuidV7(random, at))
  })
})

describe('isUuid', () => {
  test('accepts canonical UUIDs of any version and case', () => {
    expect(isUuid('00000000-0000-4000-8000-000000000000')).toBe(true)
    expect(isUuid('6BA7B810-9DAD-11D1-80B4-00C04FD430C8')).toBe(true)
  })
  test('rejects other forms', () => {
    expect(isUuid('6ba7b8109dad11d180b400c04fd430c8')).toBe(false)
    expect(isUuid('{6ba7b810-9dad-11d1-80b4-00c04fd430c8}')).toBe(false)
    expect(isUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c')).toBe(false)
    expect(isUuid('6ba7b810-9dad-11d1-80b4-00c04fd430cg')).toBe(false)
    expect(isUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8\n')).toBe(false)
    expect(isUuid('')).toBe(false)
  })
  test('rejects null and undefined (a path parameter Elysia could not decode)', () => {
    expect(isUuid(null)).toBe(false)
    expect(isUuid(undefined)).toBe(false)
  })
})

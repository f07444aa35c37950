import { describe, expect, test } from 'bun:test'
import { isUuid, uuidV4 } from './ids'

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

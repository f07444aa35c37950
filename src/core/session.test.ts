import { describe, expect, test } from 'bun:test'
import { generateSessionToken, isWellFormedSessionToken, SESSION_LIFETIME_SECONDS, sessionExpiry, sessionRenewal } from './session'

const real = (n: number) => crypto.getRandomValues(new Uint8Array(n))
const day = 24 * 60 * 60 * 1000

describe('session tokens', () => {
  test('carry at least 160 bits: 32 random bytes as 43 base64url characters', () => {
    const token = generateSessionToken(real)
    expect(token).toHaveLength(43)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    expect(isWellFormedSessionToken(token)).toBe(true)
  })

  test('are different every time', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateSessionToken(real)))
    expect(seen.size).toBe(200)
  })

  test('encode the random bytes, so a fixed source gives a fixed token', () => {
    const zeros = (n: number) => new Uint8Array(n)
    expect(generateSessionToken(zeros)).toBe('A'.repeat(43))
  })

  test('refuses a random source that returns too few bytes', () => {
    expect(() => generateSessionToken((n) => new Uint8Array(n - 1))).toThrow(/wanted 32/)
  })

  test('rejects malformed cookie values', () => {
    for (const bad of ['', 'A'.repeat(42), 'A'.repeat(44), `${'A'.repeat(42)}=`, `${'A'.repeat(42)}+`, `${'A'.repeat(42)}/`]) {
      expect(isWellFormedSessionToken(bad)).toBe(false)
    }
  })
})

describe('session lifetime', () => {
  const now = new Date('2026-11-15T12:00:00Z')

  test('a new session expires 14 days from now', () => {
    expect(sessionExpiry(now).getTime() - now.getTime()).toBe(SESSION_LIFETIME_SECONDS * 1000)
    expect(SESSION_LIFETIME_SECONDS).toBe(14 * 86400)
  })

  test('is not renewed while more than half of it is left', () => {
    expect(sessionRenewal(new Date(now.getTime() + 8 * day), now)).toBeNull()
    expect(sessionRenewal(new Date(now.getTime() + 7 * day), now)).toBeNull()
  })

  test('is renewed to a full lifetime when less than half is left', () => {
    expect(sessionRenewal(new Date(now.getTime() + 7 * day - 1), now)).toEqual(sessionExpiry(now))
    expect(sessionRenewal(new Date(now.getTime() + 1000), now)).toEqual(sessionExpiry(now))
  })

  test('an expired session is never renewed', () => {
    expect(sessionRenewal(now, now)).toBeNull()
    expect(sessionRenewal(new Date(now.getTime() - 1), now)).toBeNull()
  })
})

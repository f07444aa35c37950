import { describe, expect, test } from 'bun:test'
import { openFlash, sealFlash } from './flash'

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n))
const session = 'c2Vzc2lvbi10b2tlbi1mb3ItdGhlLWZsYXNoLXRlc3Q'

describe('flash cookie sealing', () => {
  test('opens with the session that sealed it', () => {
    const sealed = sealFlash(session, '{"key":"ab_secret"}', random)
    expect(openFlash(session, sealed)).toBe('{"key":"ab_secret"}')
  })

  test('does not show the plaintext and is cookie-safe', () => {
    const sealed = sealFlash(session, 'ab_secret', random)
    expect(sealed).not.toContain('ab_secret')
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  test('cannot be opened by another session', () => {
    expect(openFlash(`${session}x`, sealFlash(session, 'ab_secret', random))).toBeNull()
  })

  test('cannot be opened once altered', () => {
    const sealed = sealFlash(session, 'ab_secret', random)
    const bytes = Buffer.from(sealed, 'base64url')
    bytes[14]! ^= 1
    expect(openFlash(session, bytes.toString('base64url'))).toBeNull()
    expect(openFlash(session, sealed.slice(0, 10))).toBeNull()
    expect(openFlash(session, '')).toBeNull()
  })

  test('seals the same text differently each time', () => {
    expect(sealFlash(session, 'x', random)).not.toBe(sealFlash(session, 'x', random))
  })
})

import { describe, expect, spyOn, test } from 'bun:test'
import { hashPassword, verifyPassword } from './password'

describe('password hashing', () => {
  test('stores argon2id with the chosen cost, never the password', async () => {
    const hash = await hashPassword('correct horse battery staple')
    expect(hash).toStartWith('$argon2id$v=19$m=19456,t=2,p=1$')
    expect(hash).not.toContain('correct horse')
  })

  test('salts every hash', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'))
  })

  test('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery staple')
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true)
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false)
    expect(await verifyPassword('Correct horse battery staple', hash)).toBe(false)
  })

  test('treats passwords as exact text, spaces and non-ASCII included', async () => {
    const hash = await hashPassword(' pässwörd ✓ ')
    expect(await verifyPassword(' pässwörd ✓ ', hash)).toBe(true)
    expect(await verifyPassword('pässwörd ✓', hash)).toBe(false)
  })

  test('an account without a password never verifies', async () => {
    expect(await verifyPassword('', null)).toBe(false)
    expect(await verifyPassword('anything at all', null)).toBe(false)
  })

  test('checking an account without a password runs the same argon2id verification as a real check', async () => {
    // The property that keeps unknown emails from being told apart by timing, without timing:
    // both paths make exactly one Bun.password.verify call against an argon2id hash of the
    // same cost, and only the answer differs.
    const stored = await hashPassword('the real password')
    const verify = spyOn(Bun.password, 'verify')
    try {
      expect(await verifyPassword('a guess', stored)).toBe(false)
      expect(await verifyPassword('a guess', null)).toBe(false)
      expect(verify).toHaveBeenCalledTimes(2)
      const [[realPassword, realHash], [nonePassword, dummyHash]] = verify.mock.calls as unknown as [[string, string], [string, string]]
      expect(realHash).toBe(stored)
      expect(nonePassword).toBe(realPassword)
      const cost = (h: string) => h.split('$').slice(1, 4).join('$')
      expect(cost(dummyHash)).toBe(cost(stored))
      expect(cost(dummyHash)).toBe('argon2id$v=19$m=19456,t=2,p=1')
      // A complete hash (salt and digest of full length), not a stub that fails early.
      const shape = (h: string) => h.split('$').map((part) => part.length)
      expect(shape(dummyHash)).toEqual(shape(stored))
    } finally {
      verify.mockRestore()
    }
  })

  test('a corrupt stored hash is a failed check, not an exception', async () => {
    expect(await verifyPassword('x', 'not a hash')).toBe(false)
  })
})

import { describe, expect, test } from 'bun:test'
import { commonPasswordCount, isCommonPassword } from './common-passwords'

describe('isCommonPassword', () => {
  test('reads the whole list shipped by @zxcvbn-ts/language-common', () => {
    expect(commonPasswordCount()).toBe(49_233)
  })

  test('finds the passwords tried first, in any case', () => {
    for (const p of ['12345678', 'password', 'PassWord', 'qwerty123', 'football', 'letmein1']) expect(isCommonPassword(p)).toBe(true)
  })

  test('does not find passwords off the list', () => {
    for (const p of ['correct horse battery', 'k7#vQ2mz', 'password ', '']) expect(isCommonPassword(p)).toBe(false)
  })
})

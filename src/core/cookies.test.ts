import { describe, expect, test } from 'bun:test'
import { parseCookies, serializeCookie } from './cookies'

describe('parseCookies', () => {
  test('reads name=value pairs separated by semicolons', () => {
    const c = parseCookies('a=1; antibot_session=abc_-9;b=')
    expect(c.get('a')).toBe('1')
    expect(c.get('antibot_session')).toBe('abc_-9')
    expect(c.get('b')).toBe('')
  })

  test('keeps the first of two cookies with the same name', () => {
    expect(parseCookies('s=first; s=second').get('s')).toBe('first')
  })

  test('unquotes quoted values and skips parts without =', () => {
    const c = parseCookies('q="x y"; junk; z=2')
    expect(c.get('q')).toBe('x y')
    expect(c.get('z')).toBe('2')
    expect(c.has('junk')).toBe(false)
  })

  test('an absent header gives no cookies', () => {
    expect(parseCookies(null).size).toBe(0)
  })
})

describe('serializeCookie', () => {
  test('writes the session cookie attributes', () => {
    expect(serializeCookie('s', 'v', { path: '/', httpOnly: true, sameSite: 'Lax', secure: false, maxAge: 60 })).toBe('s=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax')
  })

  test('adds Secure when asked', () => {
    expect(serializeCookie('s', 'v', { path: '/', httpOnly: true, sameSite: 'Lax', secure: true })).toBe('s=v; Path=/; HttpOnly; Secure; SameSite=Lax')
  })

  test('deletes with Max-Age=0', () => {
    expect(serializeCookie('s', '', { path: '/', httpOnly: true, sameSite: 'Lax', secure: false, maxAge: 0 })).toContain('Max-Age=0')
  })

  test('refuses names and values that would break the header', () => {
    const o = { path: '/', httpOnly: true, sameSite: 'Lax', secure: false } as const
    expect(() => serializeCookie('a b', 'v', o)).toThrow(/not a valid cookie name/)
    expect(() => serializeCookie('a', 'v;Domain=evil', o)).toThrow(/cannot carry/)
    expect(() => serializeCookie('a', 'v\r\nX: y', o)).toThrow(/cannot carry/)
  })
})

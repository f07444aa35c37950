import { describe, expect, test } from 'bun:test'
import { acceptedOrigins, checkOrigin, csrfTokenFor, csrfTokenMatches, requestOrigin } from './csrf'

describe('CSRF tokens', () => {
  const secret = 'Q2hvb3NlIGEgcmFuZG9tIHNlc3Npb24gdG9rZW4gaGVyZQ'

  test('are the same for the same cookie secret, on any instance', () => {
    expect(csrfTokenFor(secret)).toBe(csrfTokenFor(secret))
  })

  test('differ between cookie secrets', () => {
    expect(csrfTokenFor(secret)).not.toBe(csrfTokenFor(`${secret}x`))
  })

  test('do not reveal the cookie secret', () => {
    expect(csrfTokenFor(secret)).not.toContain(secret)
    expect(csrfTokenFor(secret)).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  test('match only the token derived from the same secret', () => {
    expect(csrfTokenMatches(secret, csrfTokenFor(secret))).toBe(true)
    expect(csrfTokenMatches(secret, csrfTokenFor('other'))).toBe(false)
    expect(csrfTokenMatches(secret, csrfTokenFor(secret).slice(0, -1))).toBe(false)
    expect(csrfTokenMatches(secret, '')).toBe(false)
    expect(csrfTokenMatches(secret, null)).toBe(false)
    expect(csrfTokenMatches(secret, undefined)).toBe(false)
  })
})

describe('request origin', () => {
  test('is the scheme and host of the URL', () => {
    expect(requestOrigin(new URL('http://127.0.0.1:3000/login'), false)).toBe('http://127.0.0.1:3000')
  })

  test('is https when the request came over HTTPS through a trusted proxy', () => {
    expect(requestOrigin(new URL('http://antibot.example/login'), true)).toBe('https://antibot.example')
  })

  test('is lower-cased', () => {
    expect(requestOrigin(new URL('http://Antibot.Example/'), false)).toBe('http://antibot.example')
  })
})

describe('accepted origins', () => {
  test('a plain HTTP request accepts its own origin and the same host over HTTPS (a proxy not yet trusted)', () => {
    expect(acceptedOrigins(new URL('http://antibot.example/x'), false)).toEqual(['http://antibot.example', 'https://antibot.example'])
  })

  test('an HTTPS request accepts only HTTPS: an http:// page posting to it is a downgrade', () => {
    expect(acceptedOrigins(new URL('http://antibot.example/x'), true)).toEqual(['https://antibot.example'])
    expect(checkOrigin({ origin: 'http://antibot.example', referer: null, expected: acceptedOrigins(new URL('http://antibot.example/x'), true) })).toEqual({
      ok: false,
      code: 'foreign',
    })
  })
})

describe('Origin check', () => {
  const expected = 'http://127.0.0.1:3000'

  test('accepts our own origin', () => {
    expect(checkOrigin({ origin: 'http://127.0.0.1:3000', referer: null, expected })).toEqual({ ok: true })
  })

  test('refuses another site, another port and another scheme', () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:3001', 'https://127.0.0.1:3000', 'http://127.0.0.1:3000.evil.example']) {
      expect(checkOrigin({ origin, referer: null, expected })).toEqual({ ok: false, code: 'foreign' })
    }
  })

  test('refuses Origin: null even with a matching Referer', () => {
    expect(checkOrigin({ origin: 'null', referer: 'http://127.0.0.1:3000/dashboard', expected })).toEqual({ ok: false, code: 'foreign' })
  })

  test('falls back to the Referer when Origin is absent', () => {
    expect(checkOrigin({ origin: null, referer: 'http://127.0.0.1:3000/dashboard?x=1', expected })).toEqual({ ok: true })
    expect(checkOrigin({ origin: null, referer: 'http://evil.example/dashboard', expected })).toEqual({ ok: false, code: 'foreign' })
    expect(checkOrigin({ origin: null, referer: 'not a url', expected })).toEqual({ ok: false, code: 'foreign' })
  })

  test('refuses a request with neither header', () => {
    expect(checkOrigin({ origin: null, referer: null, expected })).toEqual({ ok: false, code: 'missing' })
    expect(checkOrigin({ origin: '', referer: '', expected })).toEqual({ ok: false, code: 'missing' })
  })
})

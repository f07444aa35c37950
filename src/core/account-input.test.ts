import { describe, expect, test } from 'bun:test'
import { checkExpiry, checkKeyInput, checkLogin, checkSignup, COMMON_PASSWORD, DEFAULT_KEY_NAME, normalizeEmail } from './account-input'

const now = new Date('2026-11-15T12:00:00Z')
const plans = [
  { id: 1, name: 'free' },
  { id: 2, name: 'pro' },
]

describe('normalizeEmail', () => {
  test('trims and lower-cases', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com')
  })
})

describe('checkSignup', () => {
  test('accepts an email and a password of 8 characters', () => {
    expect(checkSignup({ email: 'Ada@Example.com', password: 'k7#vQ2mz' })).toEqual({ ok: true, value: { email: 'ada@example.com', password: 'k7#vQ2mz' } })
  })

  test('refuses a common password of any case, saying why and what to do instead', () => {
    for (const password of ['12345678', 'password', 'Password', 'PASSWORD1', 'qwertyuiop', 'iloveyou', 'trustno1', 'sunshine']) {
      expect(checkSignup({ email: 'a@b.c', password })).toEqual({ ok: false, errors: { password: COMMON_PASSWORD } })
    }
    expect(COMMON_PASSWORD).toMatch(/^Choose another password: this one is among the most common passwords/)
  })

  test('keeps at least 8 characters first: a short common password is told its length', () => {
    expect(checkSignup({ email: 'a@b.c', password: '123456' })).toEqual({ ok: false, errors: { password: 'Choose a password of at least 8 characters.' } })
  })

  test('accepts passwords that are not on the list, however they look', () => {
    for (const password of ['correct horse battery', 'password that is long', '12345678-antibot-x']) expect(checkSignup({ email: 'a@b.c', password }).ok).toBe(true)
  })

  test('keeps the password exactly as typed, spaces included', () => {
    const r = checkSignup({ email: 'a@b.c', password: '  pass word  ' })
    expect(r.ok && r.value.password).toBe('  pass word  ')
  })

  test('names each field that is wrong', () => {
    expect(checkSignup({ email: '', password: '' })).toEqual({
      ok: false,
      errors: { email: 'Enter your email address.', password: 'Choose a password of at least 8 characters.' },
    })
    const bad = checkSignup({ email: 'not-an-email', password: 'x'.repeat(257) })
    expect(bad.ok).toBe(false)
    if (!bad.ok) {
      expect(bad.errors.email).toMatch(/such as name@example.com/)
      expect(bad.errors.password).toMatch(/at most 256/)
    }
  })

  test('refuses control characters and over-long emails', () => {
    expect(checkSignup({ email: 'a\u0000@b.c', password: 'k7#vQ2mz' }).ok).toBe(false)
    expect(checkSignup({ email: `${'a'.repeat(250)}@b.cd`, password: 'k7#vQ2mz' }).ok).toBe(false)
  })
  test('refuses what could not have been typed: U+FFFD (a byte that was not UTF-8) and lone surrogates', () => {
    for (const email of ['a\ufffd@b.c', 'a\ud800@b.c', 'a@b\u2028.c']) expect(checkSignup({ email, password: 'k7#vQ2mz' })).toEqual({ ok: false, errors: { email: 'Enter an email address such as name@example.com.' } })
    for (const password of ['pass\u0000word', 'pass\tword', 'pass\ufffdword', 'pass\udc00word', 'pass\u0085word']) {
      const r = checkSignup({ email: 'a@b.c', password })
      expect(r.ok || r.errors).toEqual({ password: 'Choose a password without control characters (such as tabs or line breaks) or bytes that are not UTF-8.' })
    }
  })

  test('names the length of an over-long email', () => {
    expect(checkSignup({ email: `${'a'.repeat(250)}@b.cd`, password: 'k7#vQ2mz' })).toEqual({
      ok: false,
      errors: { email: 'Enter an email address such as name@example.com, of at most 254 characters.' },
    })
  })
})

describe('checkLogin', () => {
  test('only asks for both fields', () => {
    expect(checkLogin({ email: 'x@y', password: 'short' }).ok).toBe(true)
    expect(checkLogin({ email: ' ', password: '' })).toEqual({ ok: false, errors: { email: 'Enter your email address.', password: 'Enter your password.' } })
  })

  test('refuses a password longer than any account can have without hashing it', () => {
    expect(checkLogin({ email: 'x@y', password: 'x'.repeat(10_000) }).ok).toBe(false)
  })

  test('refuses an email no account can have, by the sign-up rules (a NUL was a 500)', () => {
    for (const email of ['a\u0000b@x.y', 'a\ufffdb@x.y', 'no-at-sign', 'a b@x.y', `${'a'.repeat(250)}@x.yz`]) {
      const r = checkLogin({ email, password: 'whatever' })
      expect(r.ok).toBe(false)
      expect(!r.ok && r.errors.email).toMatch(/^Enter an email address such as name@example\.com/)
    }
  })

  test('takes any password an account could have, control characters included', () => {
    expect(checkLogin({ email: 'x@y', password: 'pass\u0000word' }).ok).toBe(true)
  })
})

describe('checkExpiry', () => {
  test('empty means no expiry', () => {
    expect(checkExpiry('', now)).toEqual({ ok: true, value: null })
    expect(checkExpiry(undefined, now)).toEqual({ ok: true, value: null })
  })

  test('a date means 00:00 UTC that day', () => {
    expect(checkExpiry('2027-01-31', now)).toEqual({ ok: true, value: new Date('2027-01-31T00:00:00Z') })
  })

  test('a full timestamp is accepted', () => {
    expect(checkExpiry('2026-11-15T12:00:01Z', now)).toEqual({ ok: true, value: new Date('2026-11-15T12:00:01Z') })
  })

  test('refuses the past and the present', () => {
    expect(checkExpiry('2026-11-15', now).ok).toBe(false)
    expect(checkExpiry('2026-11-15T12:00:00Z', now).ok).toBe(false)
  })

  test('refuses what is not a date', () => {
    expect(checkExpiry('next week', now)).toEqual({ ok: false, error: 'Enter a date such as 2027-01-31, or leave it empty for no expiry.' })
    expect(checkExpiry('2027-02-30', now).ok).toBe(false)
    expect(checkExpiry('9999-12-31T23:59:59-23:59', now)).toEqual({ ok: false, error: 'Choose a date no later than 9999-12-31 (UTC), or leave it empty for no expiry.' })
    expect(checkExpiry('0000-01-01', now)).toEqual({ ok: false, error: 'Choose a date in the future, or leave it empty for no expiry.' })
    expect(checkExpiry('9999-12-31', now)).toEqual({ ok: true, value: new Date('9999-12-31T00:00:00Z') })
  })
})

describe('checkKeyInput', () => {
  test('accepts a name, a plan and an expiry', () => {
    expect(checkKeyInput({ name: ' CI ', plan: 'pro', expires: '2027-01-01' }, plans, now)).toEqual({
      ok: true,
      value: { name: 'CI', plan: { id: 2, name: 'pro' }, expiresAt: new Date('2027-01-01T00:00:00Z') },
    })
  })

  test('an empty name gets the default name', () => {
    const r = checkKeyInput({ name: '', plan: 'free', expires: '' }, plans, now)
    expect(r.ok && r.value.name).toBe(DEFAULT_KEY_NAME)
  })

  test('refuses an unknown plan, naming the plans there are', () => {
    expect(checkKeyInput({ name: 'x', plan: 'gold' }, plans, now)).toEqual({ ok: false, errors: { plan: 'Choose one of the plans: free, pro.' } })
  })

  test('with no plan to choose from, says to ask the operator', () => {
    expect(checkKeyInput({ name: 'x', plan: 'free' }, [], now)).toEqual({ ok: false, errors: { plan: 'No plan is open for new keys; ask the operator of this service.' } })
  })

  test('refuses over-long names and control characters', () => {
    expect(checkKeyInput({ name: 'x'.repeat(101), plan: 'free' }, plans, now).ok).toBe(false)
    expect(checkKeyInput({ name: 'a\nb', plan: 'free' }, plans, now).ok).toBe(false)
    expect(checkKeyInput({ name: 'a\u0000b', plan: 'free' }, plans, now).ok).toBe(false)
    expect(checkKeyInput({ name: 'a\ud800b', plan: 'free' }, plans, now).ok).toBe(false)
  })

  test('keeps markup in a name as text: escaping is the page’s job', () => {
    const r = checkKeyInput({ name: '<script>alert(1)</script>', plan: 'free' }, plans, now)
    expect(r.ok && r.value.name).toBe('<script>alert(1)</script>')
  })
})

import { describe, expect, test } from 'bun:test'
import { acceptedTags, compareLanguages, firstAcceptLanguage, parseAcceptLanguage, preferredTags, qPattern } from './accept-language'

describe('parseAcceptLanguage', () => {
  test('reads tags and q-values in the order sent', () => {
    expect(parseAcceptLanguage('en-US,en;q=0.9,de;q=0.8')).toEqual([
      { tag: 'en-US', q: 1 },
      { tag: 'en', q: 0.9 },
      { tag: 'de', q: 0.8 },
    ])
  })
  test('tolerates spaces and keeps the wildcard', () => {
    expect(parseAcceptLanguage(' fr-CH , fr ; q=0.9, * ;q=0.5')).toEqual([
      { tag: 'fr-CH', q: 1 },
      { tag: 'fr', q: 0.9 },
      { tag: '*', q: 0.5 },
    ])
  })
  test('drops malformed ranges and q-values', () => {
    expect(parseAcceptLanguage('en;q=2, <x>, de;q=abc, it;q=0.3')).toEqual([{ tag: 'it', q: 0.3 }])
    expect(parseAcceptLanguage('')).toEqual([])
  })
  test('orders by preference, stable for equal q, without q=0', () => {
    expect(preferredTags(parseAcceptLanguage('de;q=0.5,en,fr;q=0.5,it;q=0'))).toEqual(['en', 'de', 'fr'])
  })
  test('reads Accept-Language in order, without q-values, dropping q=0 and *', () => {
    expect(acceptedTags('de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7')).toEqual(['de-DE', 'de', 'en-US', 'en'])
    expect(acceptedTags('fr-CH, fr;q=0.9, *;q=0.5, it;q=0')).toEqual(['fr-CH', 'fr'])
    expect(acceptedTags(undefined)).toEqual([])
  })
  test('firstAcceptLanguage takes the first tag without its weight', () => {
    expect(firstAcceptLanguage('de-DE,de;q=0.9')).toBe('de-DE')
    expect(firstAcceptLanguage('fr;q=0.8, en')).toBe('fr')
    expect(firstAcceptLanguage('*')).toBeNull()
  })
})

describe('qPattern', () => {
  test('recognises Chromium and Safari decrements, down to 0.1', () => {
    expect(qPattern(parseAcceptLanguage('en-US,en;q=0.9,de;q=0.8'))).toBe('decrement')
    const many = Array.from({ length: 12 }, (_, i) => (i === 0 ? 'a' : `l${String.fromCharCode(97 + i)};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`)).join(',')
    expect(qPattern(parseAcceptLanguage(many))).toBe('decrement')
  })
  test('recognises Firefox fractions', () => {
    expect(qPattern(parseAcceptLanguage('en-US,en;q=0.5'))).toBe('fraction')
    expect(qPattern(parseAcceptLanguage('en-US,en;q=0.7,de;q=0.3'))).toBe('fraction')
  })
  test('calls a single tag single and anything else other', () => {
    expect(qPattern(parseAcceptLanguage('en-US'))).toBe('single')
    expect(qPattern(parseAcceptLanguage('en-US,en;q=0.8'))).toBe('other')
  })
})

describe('compareLanguages', () => {
  test('accepts the same list', () => {
    expect(compareLanguages(parseAcceptLanguage('en-US,en;q=0.9'), ['en-US', 'en']).verdict).toBe('same')
    expect(compareLanguages(parseAcceptLanguage('en-US'), ['en-US']).verdict).toBe('same')
  })
  test("accepts Chromium's added base languages", () => {
    expect(compareLanguages(parseAcceptLanguage('en-US,en;q=0.9,de-DE;q=0.8,de;q=0.7'), ['en-US', 'de-DE']).verdict).toBe('same')
  })
  test('is case-insensitive', () => {
    expect(compareLanguages(parseAcceptLanguage('EN-us'), ['en-US']).verdict).toBe('same')
  })
  test('calls a header with only the first language reduced', () => {
    expect(compareLanguages(parseAcceptLanguage('en-US'), ['en-US', 'de']).verdict).toBe('reduced')
  })
  test('names missing and extra tags', () => {
    const c = compareLanguages(parseAcceptLanguage('ru-RU,ru;q=0.9'), ['en-US', 'en'])
    expect(c).toEqual({ verdict: 'different', missing: ['en-US', 'en'], extra: ['ru-RU', 'ru'], sameOrder: false })
  })
  test('notices the same tags in another order', () => {
    const c = compareLanguages(parseAcceptLanguage('de,en-US;q=0.9'), ['en-US', 'de'])
    expect(c.verdict).toBe('different')
    expect(c.sameOrder).toBe(false)
  })
  test('calls an empty navigator list different from a non-empty header', () => {
    expect(compareLanguages(parseAcceptLanguage('en-US'), []).verdict).toBe('different')
  })
})

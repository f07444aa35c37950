import { describe, expect, test } from 'bun:test'
import { findJsonProblem, MAX_DEPTH } from './json-safety'

/** `levels` nested containers: 1 is `{}` (objects) or `[]` (arrays). */
function nested(levels: number, kind: 'object' | 'array' = 'object'): unknown {
  let v: unknown = kind === 'object' ? {} : []
  for (let i = 1; i < levels; i++) v = kind === 'object' ? { a: v } : [v]
  return v
}

describe('findJsonProblem', () => {
  test('accepts ordinary JSON', () => {
    expect(findJsonProblem({ a: [1, 'x', null, true, { b: 2.5 }], 'ünï €': '😀' })).toBeNull()
    expect(findJsonProblem('plain')).toBeNull()
    expect(findJsonProblem(null)).toBeNull()
  })

  test('refuses U+0000 in a string with its path', () => {
    expect(findJsonProblem({ results: { canvas: { hash: 'a\u0000b' } } })).toEqual({
      path: 'results.canvas.hash',
      problem: 'string contains U+0000, which PostgreSQL cannot store',
    })
  })

  test('refuses U+0000 in a key', () => {
    expect(findJsonProblem({ results: { 'a\u0000': 1 } })).toEqual({
      path: 'results["a\\u0000"]',
      problem: 'key contains U+0000, which PostgreSQL cannot store',
    })
  })

  test('refuses lone surrogates in strings and keys, accepts pairs', () => {
    expect(findJsonProblem({ a: ['ok', '\ud800'] })).toEqual({ path: 'a[1]', problem: 'string contains an unpaired UTF-16 surrogate, which PostgreSQL cannot store' })
    expect(findJsonProblem({ a: 'x\udc00' })?.problem).toContain('unpaired UTF-16 surrogate')
    expect(findJsonProblem({ "\udfff": 1 })?.problem).toBe('key contains an unpaired UTF-16 surrogate, which PostgreSQL cannot store')
    expect(findJsonProblem({ a: '\ud83d\ude00' })).toBeNull()
  })

  test(`accepts nesting of exactly ${MAX_DEPTH} levels and refuses ${MAX_DEPTH + 1}`, () => {
    expect(MAX_DEPTH).toBe(32)
    expect(findJsonProblem(nested(32))).toBeNull()
    expect(findJsonProblem(nested(32, 'array'))).toBeNull()
    expect(findJsonProblem(nested(33))?.problem).toBe('nesting is deeper than 32 levels')
    expect(findJsonProblem(nested(33, 'array'))?.problem).toBe('nesting is deeper than 32 levels')
  })

  test('counts scalars inside the deepest container as fine', () => {
    let v: unknown = { leaf: 'x', n: 1 }
    for (let i = 1; i < 32; i++) v = { a: v }
    expect(findJsonProblem(v)).toBeNull()
  })

  test('walks very deep documents without overflowing the stack', () => {
    expect(findJsonProblem(nested(100_000, 'array'))?.problem).toBe('nesting is deeper than 32 levels')
  })

  test('refuses numbers that JSON.parse turned into Infinity', () => {
    expect(findJsonProblem(JSON.parse('{"a": 1e400}'))).toEqual({ path: 'a', problem: 'number is out of range' })
    expect(findJsonProblem({ a: [-Infinity] })?.path).toBe('a[0]')
    expect(findJsonProblem(NaN)).toEqual({ path: '(body)', problem: 'number is out of range' })
  })

  test('reports the first problem in document order', () => {
    expect(findJsonProblem({ first: '\u0000', second: '\ud800' })?.path).toBe('first')
    expect(findJsonProblem([{ x: 1 }, '\u0000', '\ud800'])?.path).toBe('[1]')
  })
})

import { describe, expect, test } from 'bun:test'
import { isDatabaseUnavailable } from './unavailable'

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })

describe('isDatabaseUnavailable', () => {
  test('postgres.js connection errors', () => {
    for (const code of ['CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED']) expect(isDatabaseUnavailable(withCode(code))).toBe(true)
  })

  test('socket errors: refused, reset, unreachable', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']) expect(isDatabaseUnavailable(withCode(code))).toBe(true)
  })

  test('server shutdown, start-up, statement timeout and connection exceptions', () => {
    for (const code of ['57P01', '57P02', '57P03', '57014', '53300', '08000', '08003', '08006', '08P01']) expect(isDatabaseUnavailable(withCode(code))).toBe(true)
  })

  test('finds the driver error under a wrapper (DrizzleQueryError has it as cause)', () => {
    const wrapped = new Error('Failed query: select 1', { cause: withCode('ECONNREFUSED') })
    expect(isDatabaseUnavailable(wrapped)).toBe(true)
    expect(isDatabaseUnavailable(new Error('outer', { cause: wrapped }))).toBe(true)
  })

  test('not for query errors, bugs, or things that are not errors', () => {
    for (const code of ['23505', '22P02', '42P01', '40001', 'ERR_INVALID_ARG_TYPE']) expect(isDatabaseUnavailable(withCode(code))).toBe(false)
    for (const e of [new TypeError('x is undefined'), null, undefined, 'ECONNREFUSED', 42, {}]) expect(isDatabaseUnavailable(e)).toBe(false)
  })

  test('stops on a cause cycle', () => {
    const a = new Error('a') as Error & { cause?: unknown }
    a.cause = a
    expect(isDatabaseUnavailable(a)).toBe(false)
  })
})

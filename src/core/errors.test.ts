import { describe, expect, test } from 'bun:test'
import { ERROR_TEXT, fetchFailureStatus, HttpError } from './errors'

describe('error texts', () => {
  test('are exactly the spec\'s', () => {
    expect(ERROR_TEXT.unauthorized).toBe('Valid API key required.')
    expect(ERROR_TEXT.forbidden).toBe('API key is inactive, expired, or has reached its request limit.')
    expect(ERROR_TEXT.taskNotFound).toBe('Task not found.')
  })
})

describe('fetchFailureStatus', () => {
  test('maps a missing or invalid key to 401', () => {
    expect(fetchFailureStatus('missing_key')).toEqual({ status: 401, error: 'Valid API key required.' })
    expect(fetchFailureStatus('invalid_key')).toEqual({ status: 401, error: 'Valid API key required.' })
  })
  test('maps an inactive, expired or exhausted key to 403', () => {
    for (const code of ['inactive', 'expired', 'limit'] as const) {
      expect(fetchFailureStatus(code)).toEqual({ status: 403, error: 'API key is inactive, expired, or has reached its request limit.' })
    }
  })
  test('maps a missing task to 404', () => {
    expect(fetchFailureStatus('not_found')).toEqual({ status: 404, error: 'Task not found.' })
  })
  test('maps a key with too many misses to 429, naming the wait', () => {
    expect(fetchFailureStatus('too_many_misses', 42)).toEqual({ status: 429, error: 'Too many requests for task ids that do not exist with this API key; retry in 42 s.' })
  })
})

describe('HttpError', () => {
  test('carries the status, the message and extra headers', () => {
    const e = new HttpError(413, 'too big', { 'x-a': '1' })
    expect(e).toBeInstanceOf(Error)
    expect(e.status).toBe(413)
    expect(e.message).toBe('too big')
    expect(e.headers).toEqual({ 'x-a': '1' })
    expect(new HttpError(400, 'x').headers).toEqual({})
  })
})

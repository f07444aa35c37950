import { describe, expect, test } from 'bun:test'
import { rateLimitHeaders } from './ratelimit'

describe('rateLimitHeaders', () => {
  test('names the monthly quota and window, the remaining units and the seconds to reset', () => {
    // November has 30 days; from the 15th at noon, 15.5 days remain.
    expect(rateLimitHeaders(1000, 1, new Date('2026-11-15T12:00:00Z'))).toEqual({
      'RateLimit-Policy': '"monthly";q=1000;w=2592000',
      RateLimit: '"monthly";r=999;t=1339200',
    })
  })
  test('never reports negative remaining units', () => {
    expect(rateLimitHeaders(5, 9, new Date('2026-11-15T12:00:00Z')).RateLimit).toBe('"monthly";r=0;t=1339200')
  })
  test('uses the length of the current month as the window', () => {
    expect(rateLimitHeaders(5, 0, new Date('2028-02-29T23:59:59Z'))).toEqual({
      'RateLimit-Policy': '"monthly";q=5;w=2505600',
      RateLimit: '"monthly";r=5;t=1',
    })
  })
})

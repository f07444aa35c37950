import { describe, expect, test } from 'bun:test'
import { dayOfMonth, daysInMonth, formatTimestamp, monthKey, monthStart, monthWindowSeconds, nextMonthStart, secondsUntilReset, utcDay } from './month'

const d = (iso: string) => new Date(iso)

describe('month boundaries (UTC calendar month)', () => {
  test('the month kept for the last day asked for never answers for another: instants back and forth across month ends agree with the calendar', () => {
    const instants = ['2026-01-31T23:59:59.999Z', '2026-02-01T00:00:00.000Z', '2026-01-31T00:00:00.000Z', '2026-02-28T23:59:59.999Z', '2026-03-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2024-02-29T12:00:00.000Z', '1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z']
    for (const iso of [...instants, ...instants.reverse()]) {
      const now = d(iso)
      const y = now.getUTCFullYear()
      const m = now.getUTCMonth()
      expect(monthKey(now)).toBe(`${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-01`)
      expect(monthStart(now).getTime()).toBe(Date.UTC(y, m, 1))
      expect(nextMonthStart(now).getTime()).toBe(Date.UTC(y, m + 1, 1))
      expect(monthWindowSeconds(now)).toBe((Date.UTC(y, m + 1, 1) - Date.UTC(y, m, 1)) / 1000)
      expect(secondsUntilReset(now)).toBe(Math.max(1, Math.ceil((Date.UTC(y, m + 1, 1) - now.getTime()) / 1000)))
      expect(utcDay(now)).toBe(Math.floor(now.getTime() / 86_400_000))
    }
    expect(utcDay(d('2026-02-01T00:00:00.000Z')) - utcDay(d('2026-01-31T23:59:59.999Z'))).toBe(1)
    expect(() => monthKey(new Date(Number.NaN))).toThrow()
  })

  test('starts the month at 00:00:00 UTC on the first', () => {
    expect(monthStart(d('2026-11-15T12:34:56.789Z')).toISOString()).toBe('2026-11-01T00:00:00.000Z')
    expect(monthKey(d('2026-11-15T12:34:56Z'))).toBe('2026-11-01')
  })

  test('rolls December over to January of the next year', () => {
    expect(nextMonthStart(d('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z')
    expect(monthKey(d('2027-01-01T00:00:00Z'))).toBe('2027-01-01')
  })

  test('keeps the last second of a month in that month and the next instant in the next', () => {
    expect(monthKey(d('2026-11-30T23:59:59.999Z'))).toBe('2026-11-01')
    expect(monthKey(d('2026-12-01T00:00:00.000Z'))).toBe('2026-12-01')
    expect(secondsUntilReset(d('2026-11-30T23:59:59Z'))).toBe(1)
  })

  test('uses UTC, not the local time zone of the offset given', () => {
    // 2026-12-01T00:30+01:00 is still November in UTC.
    expect(monthKey(d('2026-12-01T00:30:00+01:00'))).toBe('2026-11-01')
  })

  test('knows leap Februaries', () => {
    expect(daysInMonth(d('2028-02-10T00:00:00Z'))).toBe(29)
    expect(daysInMonth(d('2026-02-10T00:00:00Z'))).toBe(28)
    expect(daysInMonth(d('2100-02-10T00:00:00Z'))).toBe(28)
    expect(daysInMonth(d('2000-02-10T00:00:00Z'))).toBe(29)
    expect(nextMonthStart(d('2028-02-29T23:59:59Z')).toISOString()).toBe('2028-03-01T00:00:00.000Z')
    expect(monthWindowSeconds(d('2028-02-01T00:00:00Z'))).toBe(29 * 86400)
    expect(monthWindowSeconds(d('2026-02-01T00:00:00Z'))).toBe(28 * 86400)
  })

  test('measures 30- and 31-day months', () => {
    expect(daysInMonth(d('2026-11-01T00:00:00Z'))).toBe(30)
    expect(daysInMonth(d('2026-12-01T00:00:00Z'))).toBe(31)
    expect(monthWindowSeconds(d('2026-11-15T00:00:00Z'))).toBe(30 * 86400)
  })

  test('gives the 1-based UTC day of the month', () => {
    expect(dayOfMonth(d('2026-11-01T00:00:00Z'))).toBe(1)
    expect(dayOfMonth(d('2026-12-31T23:59:59Z'))).toBe(31)
  })

  test('counts whole seconds until the reset, rounding up, never below 1', () => {
    expect(secondsUntilReset(d('2026-11-15T12:00:00Z'))).toBe(15 * 86400 + 12 * 3600)
    expect(secondsUntilReset(d('2026-11-30T23:59:59.500Z'))).toBe(1)
    expect(secondsUntilReset(d('2026-11-01T00:00:00Z'))).toBe(30 * 86400)
  })
})

describe('formatTimestamp', () => {
  test('writes YYYY-MM-DDTHH:MM:SS+00:00 in UTC without fractional seconds', () => {
    expect(formatTimestamp(d('2026-11-15T12:00:00Z'))).toBe('2026-11-15T12:00:00+00:00')
    expect(formatTimestamp(d('2026-01-02T03:04:05.999Z'))).toBe('2026-01-02T03:04:05+00:00')
    expect(formatTimestamp(d('2026-07-01T01:30:00+02:00'))).toBe('2026-06-30T23:30:00+00:00')
    expect(formatTimestamp(d('2026-11-15T12:00:00Z'))).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/)
  })
})

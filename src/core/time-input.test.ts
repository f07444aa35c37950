import { describe, expect, test } from 'bun:test'
import { parseTimestampInput, readTimestampInput } from './time-input'

const iso = (v: string) => parseTimestampInput(v)?.toISOString() ?? null

describe('parseTimestampInput', () => {
  test('accepts ISO 8601 with Z or a numeric offset', () => {
    expect(iso('2027-01-31T00:00:00Z')).toBe('2027-01-31T00:00:00.000Z')
    expect(iso('2027-01-31T10:00:00+02:00')).toBe('2027-01-31T08:00:00.000Z')
    expect(iso('2027-01-31T10:00-05:30')).toBe('2027-01-31T15:30:00.000Z')
    expect(iso('2027-01-31T10:00:00.250Z')).toBe('2027-01-31T10:00:00.250Z')
  })
  test('reads a bare date as midnight UTC', () => {
    expect(iso('2027-01-31')).toBe('2027-01-31T00:00:00.000Z')
    expect(iso('2028-02-29')).toBe('2028-02-29T00:00:00.000Z')
  })
  test('refuses a time without a zone (it would be read in the server\'s zone)', () => {
    expect(iso('2027-01-31T10:00:00')).toBeNull()
  })
  test('refuses other notations', () => {
    for (const v of ['', 'tomorrow', '1798761600', '31/01/2027', '2027-1-31', '2027-01-31 10:00:00Z', '2027-01-31T10Z']) expect(iso(v)).toBeNull()
  })
  test('refuses impossible dates instead of rolling them over', () => {
    for (const v of ['2026-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00']) expect(iso(v)).toBeNull()
  })
  test('refuses impossible times and offsets', () => {
    for (const v of ['2026-01-01T24:00:00Z', '2026-01-01T23:60:00Z', '2026-01-01T23:59:60Z', '2026-01-01T10:00:00+24:00', '2026-01-01T10:00:00+01:60']) {
      expect(iso(v)).toBeNull()
    }
  })
  test('accepts 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z once in UTC, and says which side a refusal is on', () => {
    expect(iso('1970-01-01')).toBe('1970-01-01T00:00:00.000Z')
    expect(iso('9999-12-31T23:59:59Z')).toBe('9999-12-31T23:59:59.000Z')
    expect(iso('9999-12-31T23:59:59.999999999Z')).toBe('9999-12-31T23:59:59.999Z')
    expect(iso('1970-01-01T01:00:00+01:00')).toBe('1970-01-01T00:00:00.000Z')
    expect(iso('10000-01-01')).toBeNull()
    for (const v of ['9999-12-31T23:59:59-23:59', '9999-12-31T23:00:00-01:00']) expect(readTimestampInput(v)).toEqual({ ok: false, reason: 'too_late' })
    for (const v of ['0000-01-01', '0001-01-01', '0099-12-31', '1969-12-31T23:59:59Z', '1970-01-01T00:30:00+01:00']) {
      expect(readTimestampInput(v)).toEqual({ ok: false, reason: 'too_early' })
    }
  })
  test('judges February 29 by the year as written, also for years below 100', () => {
    expect(readTimestampInput('0004-02-29')).toEqual({ ok: false, reason: 'too_early' })
    expect(readTimestampInput('0100-02-29')).toEqual({ ok: false, reason: 'format' })
    expect(readTimestampInput('2000-02-29').ok).toBe(true)
  })
})

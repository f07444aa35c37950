import { describe, expect, test } from 'bun:test'
import { parseTimestampInput } from './time-input'

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
})

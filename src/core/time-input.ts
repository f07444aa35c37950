// Timestamps accepted from operators and users: ISO 8601 with Z or a numeric offset, or a bare
// date (midnight UTC). Anything else is refused rather than guessed: Date.parse rolls
// impossible dates over (`2026-02-30` becomes March 2, `T24:00` the next day), so every
// component is range-checked first. The instant, once in UTC, must lie in 1970-01-01 ..
// 9999-12-31: `9999-12-31T23:59:59-23:59` is in year 10000 in UTC and `0000-01-01` has no year
// PostgreSQL knows, and either would fail only when stored.

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/

/** The accepted instants, inclusive: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z. */
export const EARLIEST_TIMESTAMP = new Date(Date.UTC(1970, 0, 1))
export const LATEST_TIMESTAMP = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999))

export type TimestampInput = { ok: true; value: Date } | { ok: false; reason: 'format' | 'too_early' | 'too_late' }

/** The instant, or why not: `format` (not ISO 8601, or an impossible date or time), or outside the range. */
export function readTimestampInput(value: string): TimestampInput {
  const m = ISO.exec(value)
  if (!m) return { ok: false, reason: 'format' }
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = m.slice(1).map((p) => Number(p ?? 0)) as number[]
  // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999.
  const monthEnd = new Date(0)
  monthEnd.setUTCFullYear(year!, month!, 0)
  if (month! < 1 || month! > 12 || day! < 1 || day! > monthEnd.getUTCDate()) return { ok: false, reason: 'format' }
  if (hour! > 23 || minute! > 59 || second! > 59 || offsetHours! > 23 || offsetMinutes! > 59) return { ok: false, reason: 'format' }
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)
  if (!Number.isFinite(ms)) return { ok: false, reason: 'format' }
  if (ms < EARLIEST_TIMESTAMP.getTime()) return { ok: false, reason: 'too_early' }
  if (ms > LATEST_TIMESTAMP.getTime()) return { ok: false, reason: 'too_late' }
  return { ok: true, value: new Date(ms) }
}

export function parseTimestampInput(value: string): Date | null {
  const r = readTimestampInput(value)
  return r.ok ? r.value : null
}

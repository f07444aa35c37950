// Timestamps accepted from operators and users: ISO 8601 with Z or a numeric offset, or a bare
// date (midnight UTC). Anything else is refused rather than guessed: Date.parse rolls
// impossible dates over (`2026-02-30` becomes March 2, `T24:00` the next day), so every
// component is range-checked first.

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/

export function parseTimestampInput(value: string): Date | null {
  const m = ISO.exec(value)
  if (!m) return null
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = m.slice(1).map((p) => Number(p ?? 0)) as number[]
  const lastDay = new Date(Date.UTC(year!, month!, 0)).getUTCDate()
  if (month! < 1 || month! > 12 || day! < 1 || day! > lastDay) return null
  if (hour! > 23 || minute! > 59 || second! > 59 || offsetHours! > 23 || offsetMinutes! > 59) return null
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)
  return Number.isFinite(ms) ? new Date(ms) : null
}

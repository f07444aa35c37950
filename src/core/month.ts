// Usage is counted per UTC calendar month: the count resets at 00:00:00 UTC on the first day
// of each month, whatever the key's creation date (docs/api.md, "Decisions where the spec is silent").

const DAY_MS = 86_400_000

/** The UTC day of `now`, as a number of days since 1970-01-01 (a UTC day is 86,400,000 ms in JavaScript time). */
export const utcDay = (now: Date): number => Math.floor(now.getTime() / DAY_MS)

/**
 * The month of the last UTC day asked for: every keyed fetch asks for its month several times
 * (the usage row's key, the quota headers' reset and window), and they change once a day at
 * most. An invalid date is never kept (its day is NaN), so it fails as it did.
 */
let lastMonth: { day: number; key: string; startMs: number; nextStartMs: number } | undefined
function monthOf(now: Date): NonNullable<typeof lastMonth> {
  const day = utcDay(now)
  if (lastMonth?.day !== day) {
    const startMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)
    lastMonth = { day, key: new Date(startMs).toISOString().slice(0, 10), startMs, nextStartMs: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) }
  }
  return lastMonth
}

export function monthStart(now: Date): Date {
  return new Date(monthOf(now).startMs)
}

export function nextMonthStart(now: Date): Date {
  return new Date(monthOf(now).nextStartMs)
}

/** The month as the `YYYY-MM-01` date the usage table is keyed by. */
export function monthKey(now: Date): string {
  return monthOf(now).key
}

/** 1-based day of the month, UTC. */
export function dayOfMonth(now: Date): number {
  return now.getUTCDate()
}

export function daysInMonth(now: Date): number {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate()
}

/** Whole seconds until the count resets, at least 1. */
export function secondsUntilReset(now: Date): number {
  return Math.max(1, Math.ceil((monthOf(now).nextStartMs - now.getTime()) / 1000))
}

/** Length of the current month in seconds: the window of the rate-limit policy. */
export function monthWindowSeconds(now: Date): number {
  const m = monthOf(now)
  return (m.nextStartMs - m.startMs) / 1000
}

/** `YYYY-MM-DDTHH:MM:SS+00:00`, the spec's created_at form (UTC, no fractional seconds). */
export function formatTimestamp(d: Date): string {
  return `${d.toISOString().slice(0, 19)}+00:00`
}

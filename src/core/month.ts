// Usage is counted per UTC calendar month: the count resets at 00:00:00 UTC on the first day
// of each month, whatever the key's creation date (docs/api.md, "Decisions where the spec is silent").

export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
}

export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
}

/** The month as the `YYYY-MM-01` date the usage table is keyed by. */
export function monthKey(now: Date): string {
  return monthStart(now).toISOString().slice(0, 10)
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
  return Math.max(1, Math.ceil((nextMonthStart(now).getTime() - now.getTime()) / 1000))
}

/** Length of the current month in seconds: the window of the rate-limit policy. */
export function monthWindowSeconds(now: Date): number {
  return (nextMonthStart(now).getTime() - monthStart(now).getTime()) / 1000
}

/** `YYYY-MM-DDTHH:MM:SS+00:00`, the spec's created_at form (UTC, no fractional seconds). */
export function formatTimestamp(d: Date): string {
  return `${d.toISOString().slice(0, 19)}+00:00`
}

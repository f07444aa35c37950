// Expected failures are values; this module is the one place that turns them into HTTP
// statuses and the exact texts the interface spec fixes.

export const ERROR_TEXT = {
  unauthorized: 'Valid API key required.',
  forbidden: 'API key is inactive, expired, or has reached its request limit.',
  taskNotFound: 'Task not found.',
} as const

/** Any request that needed the database while it was away (503, with Retry-After). */
export const DATABASE_UNAVAILABLE = {
  error: 'Service temporarily unavailable: the database is not reachable; retry shortly.',
  retryAfterSeconds: 2,
} as const

export type KeyFailure = 'missing_key' | 'invalid_key' | 'inactive' | 'expired' | 'limit'
export type FetchFailure = KeyFailure | 'not_found' | 'too_many_misses'

/** The 429 for a key that asked for too many task ids that do not exist (src/core/fixed-window.ts). */
export const tooManyMissesText = (retryAfterSeconds: number) =>
  `Too many requests for task ids that do not exist with this API key; retry in ${retryAfterSeconds} s.`

export function fetchFailureStatus(code: FetchFailure, retryAfterSeconds = 1): { status: 401 | 403 | 404 | 429; error: string } {
  switch (code) {
    case 'missing_key':
    case 'invalid_key':
      return { status: 401, error: ERROR_TEXT.unauthorized }
    case 'inactive':
    case 'expired':
    case 'limit':
      return { status: 403, error: ERROR_TEXT.forbidden }
    case 'not_found':
      return { status: 404, error: ERROR_TEXT.taskNotFound }
    case 'too_many_misses':
      return { status: 429, error: tooManyMissesText(retryAfterSeconds) }
  }
}

/** A 4xx raised while handling a request: carries the status and the `{"error"}` text. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

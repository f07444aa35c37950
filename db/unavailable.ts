// Which errors mean "the database is not reachable right now" rather than "this request is
// wrong" or "we have a bug": the app answers those with 503 and Retry-After (src/app.ts), never
// 500. Drizzle wraps driver errors (DrizzleQueryError), so the cause chain is walked.

/** postgres.js's own connection errors, and the socket errors it passes through. */
const CONNECTION_CODES = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html): class 08
 * connection exception; 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up or shutting down); 57014 query_canceled, which is what statement_timeout
 * raises; 53300 too_many_connections.
 */
function unavailableSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '57014' || code === '53300'
}

/**
 * 55000 object_not_in_prerequisite_state is also what a database with ALLOW_CONNECTIONS false
 * answers a new connection (FATAL: "database … is not currently accepting connections"; issue
 * 50): unreachable for now, like 57P03. Only that case: the code covers other errors of a query.
 */
function refusingConnections(e: { code?: unknown; severity?: unknown; message?: unknown }): boolean {
  return e.code === '55000' && (e.severity === 'FATAL' || (typeof e.message === 'string' && e.message.includes('not currently accepting connections')))
}

export function isDatabaseUnavailable(error: unknown): boolean {
  let e: unknown = error
  for (let depth = 0; depth < 6 && e !== null && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || unavailableSqlState(code) || refusingConnections(e as object))) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

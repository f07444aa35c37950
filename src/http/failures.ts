// What a request that threw gets, and the request log line: one place for both, used by the
// app's hooks (src/app.ts) and by the routes Bun serves natively (src/http/native.ts).

import { DATABASE_UNAVAILABLE, HttpError } from '../core/errors'
import { isDatabaseUnavailable } from '../../db/unavailable'
import { redactUrl } from '../core/redact'
import { errorResponse } from './json'

type Log = ((line: string) => void) | undefined

/** The path and query of a request's URL (what url.pathname + url.search give), without parsing it. */
export function pathAndQuery(url: string): string {
  const scheme = url.indexOf('://')
  const start = url.indexOf('/', scheme < 0 ? 0 : scheme + 3)
  if (start < 0) return '/'
  const hash = url.indexOf('#', start)
  return hash < 0 ? url.slice(start) : url.slice(start, hash)
}

/** The path of a request's URL (url.pathname), and its query without the `?` (null without one). */
export function pathAndQueryParts(url: string): { path: string; query: string | null } {
  const pq = pathAndQuery(url)
  const q = pq.indexOf('?')
  return q < 0 ? { path: pq, query: null } : { path: pq.slice(0, q), query: pq.slice(q + 1) }
}

/** The request log's line: method, the URL with secrets redacted, status, milliseconds. */
export function requestLogLine(request: Request, status: number | string | undefined, ms: number): string {
  return `${request.method} ${redactUrl(pathAndQuery(request.url))} ${status} ${ms.toFixed(1)}ms`
}

/**
 * The response for an error a handler threw. `code` is Elysia's error code ('NOT_FOUND',
 * 'PARSE', 'VALIDATION', …; anything else is unexpected and always reported, with or
 * without request logging).
 */
export function errorFor(log: Log, code: unknown, error: unknown, request: Request): Response {
  if (error instanceof HttpError) return errorResponse(error.status, error.message, error.headers)
  if (isDatabaseUnavailable(error)) {
    return errorResponse(503, DATABASE_UNAVAILABLE.error, { 'retry-after': String(DATABASE_UNAVAILABLE.retryAfterSeconds), 'cache-control': 'no-store' })
  }
  const { path } = pathAndQueryParts(request.url)
  switch (code) {
    case 'NOT_FOUND':
      return errorResponse(404, `Not found: no route for ${request.method} ${path}`)
    case 'PARSE':
      return errorResponse(400, `Cannot read the request body: ${error instanceof Error ? error.message : String(error)}`)
    case 'VALIDATION':
      return errorResponse(422, `Invalid request: ${validationSummary(error)}`)
    default:
      ;(log ?? console.error)(`error ${request.method} ${redactUrl(path)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      return errorResponse(500, 'Internal error; the request was not completed.')
  }
}

function validationSummary(error: unknown): string {
  const e = error as { all?: Array<{ path?: string; message?: string }>; message?: string }
  const first = e.all?.[0]
  if (first) return `${first.path || '(request)'}: ${first.message ?? 'is not valid'}`
  return e.message ?? 'the request does not match the schema'
}

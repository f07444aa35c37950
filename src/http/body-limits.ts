// The largest request body each route accepts, in one place, so that a listener can refuse a
// larger one before reading a byte of it (issue 33): the HTTPS listener asks `routeBodyLimit`
// for every request, and the HTTP port's server is given `MAX_ROUTE_BODY_BYTES`, the largest of
// them (Bun.serve takes one limit). The routes themselves check the same numbers as they read.

import { MAX_ADMIN_BODY_BYTES } from './admin'
import { MAX_FORM_BYTES } from './forms'
import { MAX_TASK_BODY_BYTES } from './submission'

/**
 * Bun.serve's own body limit on the HTTP port: far above every route's, so that the routes
 * refuse in their own words (src/main.ts says why that holds no body in memory).
 */
export const PLAIN_BODY_CEILING = 1024 ** 3

/** The largest body any route accepts: a task submission (or a report of one). */
export const MAX_ROUTE_BODY_BYTES = Math.max(MAX_TASK_BODY_BYTES, MAX_FORM_BYTES, MAX_ADMIN_BODY_BYTES)

/**
 * The largest body `method` on `path` accepts; 0 for methods without a body. Paths the app does
 * not know get the form size, the smallest any POST route takes: the app answers them 404.
 */
export function routeBodyLimit(method: string, path: string): number {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return 0
  const p = path.split('?', 1)[0]!
  if (p === '/api/antibot/tasks' || /^\/tools\/[^/]+\/report$/.test(p)) return MAX_TASK_BODY_BYTES
  if (p.startsWith('/api/admin/')) return MAX_ADMIN_BODY_BYTES
  return MAX_FORM_BYTES
}

/**
 * How a refused body's error starts on `path`, as the route's own handler words it: the HTTPS
 * listener refuses a body over its limit, or one that comes too slowly, before the app sees it,
 * and answers in the route's words (`{"error": "Cannot create task: …"}`).
 */
export function routeBodyAction(path: string): string {
  const p = path.split('?', 1)[0]!
  if (p === '/api/antibot/tasks') return 'Cannot create task'
  if (/^\/tools\/[^/]+\/report$/.test(p)) return 'Cannot render report'
  return 'Cannot read the request'
}

// GET /metrics: the instance's Prometheus metrics (src/metrics.ts) in the text exposition
// format, for whoever holds METRICS_TOKEN (Authorization: Bearer <token>); 401 without it or
// with another, 404 while METRICS_TOKEN is unset (then no metrics are kept either). Served by
// the app, so on the HTTP port and on the HTTPS listener alike: each instance reports its own.

import { createHash, timingSafeEqual } from 'node:crypto'
import { Elysia } from 'elysia'
import type { Metrics } from '../metrics'
import { errorResponse } from './json'

const digest = (s: string) => createHash('sha256').update(s).digest()

/** The bearer token of an Authorization header, or null. */
function bearer(header: string | null): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '')
  return m ? m[1]! : null
}

export function metricsRoute(deps: { metrics?: Metrics | undefined; metricsToken?: string | undefined }) {
  const plugin = new Elysia({ name: 'metrics' })
  const { metrics, metricsToken } = deps
  if (!metrics || !metricsToken) return plugin
  // Digests of equal length, compared in constant time: neither the token's bytes nor its
  // length show in the time a wrong one takes.
  const expected = digest(metricsToken)
  return plugin.get(
    '/metrics',
    async ({ request }) => {
      const given = bearer(request.headers.get('authorization'))
      if (given === null || !timingSafeEqual(digest(given), expected)) {
        return errorResponse(401, 'Metrics token required: send Authorization: Bearer <METRICS_TOKEN>', { 'www-authenticate': 'Bearer', 'cache-control': 'no-store' })
      }
      return new Response(await metrics.text(), { headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' } })
    },
    { detail: { hide: true } },
  )
}

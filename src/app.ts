// createApp(deps) builds the whole service from its dependencies. It never listens and never
// reads the environment: src/main.ts does both, and tests drive the app with app.handle().

import { Elysia } from 'elysia'
import { html } from '@elysiajs/html'
import { assetsRoutes } from './http/assets'
import { DATABASE_UNAVAILABLE, HttpError } from './core/errors'
import { isDatabaseUnavailable } from '../db/unavailable'
import { redactUrl } from './core/redact'
import { adminApi } from './http/admin'
import type { AppDeps } from './http/deps'
import { healthApi } from './http/health'
import { apiDocs } from './http/openapi'
import { errorResponse } from './http/json'
import { tasksApi } from './http/tasks'
import { jwksRoute } from './http/jwks'
import { signupPages } from './http/signup'
import { sessionPages } from './http/sessions'
import { dashboardPages } from './http/dashboard'
import { accountKeys } from './http/account-keys'
import { toolsPages } from './http/tools'
import { withSecurityHeaders } from './http/page'

export type { AppDeps } from './http/deps'

export function createApp(deps: AppDeps) {
  const started = new WeakMap<Request, number>()
  const errorStatus = new WeakMap<Request, number>()
  const app = new Elysia()
    .onRequest(({ request }) => {
      if (deps.log) started.set(request, performance.now())
    })
    .onError(({ code, error, request }) => {
      const response = withSecurityHeaders(errorFor(code, error, request))
      // onAfterResponse does not see responses made here; remember the status for the log line.
      errorStatus.set(request, response.status)
      return response
    })
    // Every HTML page gets its CSP, nosniff, Referrer-Policy and (unless it may be framed)
    // X-Frame-Options, where the route did not set its own (src/http/page.ts).
    .onAfterHandle({ as: 'global' }, ({ responseValue, set }) => {
      if (responseValue instanceof Response) withSecurityHeaders(responseValue)
      // Values Elysia turns into a response itself (e.g. /openapi.json) are never HTML here.
      else set.headers['x-content-type-options'] = 'nosniff'
    })
    .onAfterResponse(({ request, set, responseValue }) => {
      if (!deps.log) return
      const t0 = started.get(request)
      const ms = t0 === undefined ? 0 : performance.now() - t0
      const status = errorStatus.get(request) ?? (responseValue instanceof Response ? responseValue.status : set.status)
      const url = new URL(request.url)
      deps.log(`${request.method} ${redactUrl(url.pathname + url.search)} ${status} ${ms.toFixed(1)}ms`)
    })
    .use(html({ autoDoctype: false }))
    .use(assetsRoutes(deps.assets))
    .use(healthApi({ db: deps.db }))
    .use(tasksApi(deps))
    .use(jwksRoute(deps))
    .use(toolsPages(deps))
    .use(adminApi(deps))
    .use(signupPages(deps))
    .use(sessionPages(deps))
    .use(dashboardPages(deps))
    .use(accountKeys(deps))
    .use(apiDocs(deps))
  return app

  function errorFor(code: unknown, error: unknown, request: Request): Response {
    if (error instanceof HttpError) return errorResponse(error.status, error.message, error.headers)
    if (isDatabaseUnavailable(error)) {
      return errorResponse(503, DATABASE_UNAVAILABLE.error, { 'retry-after': String(DATABASE_UNAVAILABLE.retryAfterSeconds), 'cache-control': 'no-store' })
    }
    const path = new URL(request.url).pathname
    switch (code) {
      case 'NOT_FOUND':
        return errorResponse(404, `Not found: no route for ${request.method} ${path}`)
      case 'PARSE':
        return errorResponse(400, `Cannot read the request body: ${error instanceof Error ? error.message : String(error)}`)
      case 'VALIDATION':
        return errorResponse(422, `Invalid request: ${validationSummary(error)}`)
      default:
        // Unexpected: always reported, with or without request logging.
        ;(deps.log ?? console.error)(`error ${request.method} ${redactUrl(path)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        return errorResponse(500, 'Internal error; the request was not completed.')
    }
  }
}

function validationSummary(error: unknown): string {
  const e = error as { all?: Array<{ path?: string; message?: string }>; message?: string }
  const first = e.all?.[0]
  if (first) return `${first.path || '(request)'}: ${first.message ?? 'is not valid'}`
  return e.message ?? 'the request does not match the schema'
}

export type App = ReturnType<typeof createApp>

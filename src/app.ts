// createApp(deps) builds the whole service from its dependencies. It never listens and never
// reads the environment: src/main.ts does both, and tests drive the app with app.handle().

import { Elysia } from 'elysia'
import { html } from '@elysiajs/html'
import { assetsRoutes } from './http/assets'
import { adminApi } from './http/admin'
import type { AppDeps } from './http/deps'
import { healthApi } from './http/health'
import { apiDocs } from './http/openapi'
import { errorFor, requestLogLine } from './http/failures'
import { taskHandlers, tasksApi } from './http/tasks'
import { runsApi } from './http/runs'
import { nativeTaskRoutes } from './http/native'
import { jwksRoute } from './http/jwks'
import { signupPages } from './http/signup'
import { sessionPages } from './http/sessions'
import { dashboardPages } from './http/dashboard'
import { accountKeys } from './http/account-keys'
import { toolsPages } from './http/tools'
import { withSecurityHeaders } from './http/page'
import { HSTS_HEADER, hstsValue } from './http/hsts'
import { isHttpsRequest } from './http/web-session'
import { metricsRoute } from './http/metrics'

export type { AppDeps } from './http/deps'

export function createApp(deps: AppDeps) {
  const hsts = deps.hstsMaxAge === undefined ? null : hstsValue(deps.hstsMaxAge)
  /** Strict-Transport-Security for a response to a request that came over HTTPS (src/http/hsts.ts). */
  const hstsFor = (server: Parameters<typeof isHttpsRequest>[0], request: Request) => (hsts !== null && isHttpsRequest(server, request, deps.trustedProxies) ? hsts : null)
  const started = new WeakMap<Request, number>()
  const { log, metrics } = deps
  const timed = !!(log || metrics)
  const errorStatus = new WeakMap<Request, number>()
  const tasks = taskHandlers(deps)
  // The task endpoints are also native Bun.serve routes when the app listens (src/http/native.ts).
  const app = new Elysia({ serve: { routes: nativeTaskRoutes(tasks, deps) } as never })
    .onRequest(({ request }) => {
      if (timed) started.set(request, performance.now())
    })
    .onError(({ code, error, request, server }) => {
      const response = withSecurityHeaders(errorFor(deps.log, code, error, request))
      const sts = hstsFor(server, request)
      if (sts) response.headers.set(HSTS_HEADER, sts)
      // onAfterResponse does not see responses made here; remember the status for the log line.
      errorStatus.set(request, response.status)
      return response
    })
    // Every HTML page gets its CSP, nosniff, Referrer-Policy and (unless it may be framed)
    // X-Frame-Options, where the route did not set its own (src/http/page.ts).
    .onAfterHandle({ as: 'global' }, ({ responseValue, set, request, server }) => {
      const sts = hstsFor(server, request)
      if (responseValue instanceof Response) {
        withSecurityHeaders(responseValue)
        if (sts) responseValue.headers.set(HSTS_HEADER, sts)
      } else {
        // Values Elysia turns into a response itself (e.g. /openapi.json) are never HTML here.
        set.headers['x-content-type-options'] = 'nosniff'
        if (sts) set.headers[HSTS_HEADER] = sts
      }
    })
    .onAfterResponse(({ request, set, responseValue, route }) => {
      if (!timed) return
      const t0 = started.get(request)
      const ms = t0 === undefined ? 0 : performance.now() - t0
      const status = errorStatus.get(request) ?? (responseValue instanceof Response ? responseValue.status : set.status)
      if (log) log(requestLogLine(request, status, ms))
      // `route`: the matched route's template, never the path (null when none matched).
      if (metrics) metrics.request(route, request.method, typeof status === 'number' ? status : Number(status) || 0, ms / 1000)
    })
    .use(html({ autoDoctype: false }))
    .use(assetsRoutes(deps.assets))
    .use(healthApi({ db: deps.db }))
    .use(tasksApi(tasks))
    .use(runsApi(deps))
    .use(jwksRoute(deps))
    .use(toolsPages(deps))
    .use(adminApi(deps))
    .use(signupPages(deps))
    .use(sessionPages(deps))
    .use(dashboardPages(deps))
    .use(accountKeys(deps))
    .use(apiDocs(deps))
    .use(metricsRoute(deps))
  return app
}

export type App = ReturnType<typeof createApp>

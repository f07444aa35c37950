// The task endpoints as routes Bun.serve runs natively on the plain-HTTP listener. They are the
// service's hot paths — every task a page stores, every keyed fetch a client makes — and the
// framework's per-request work (context, hooks, query parsing) was a measurable share of their
// time (docs/performance.md). The handlers are the very functions the Elysia routes call
// (src/http/tasks.ts); this wrapper gives them what the app's hooks give every other route:
// the response to a thrown error and the request log line. Their security header (nosniff; no
// HTML is answered here) is in every response they build (src/http/json.ts). Elysia merges
// these into the routes it hands Bun.serve (its `serve.routes` option), so `app.listen` serves
// them and `app.handle` (tests, the HTTPS listener) keeps going through the framework.

import type { AppDeps } from './deps'
import { errorFor, pathAndQueryParts, requestLogLine } from './failures'
import type { TaskHandlers } from './tasks'

type Server = Parameters<TaskHandlers['create']>[1]
type NativeHandler = (request: Request, server: Server) => Promise<Response>

const TASK_PREFIX = '/api/antibot/tasks/'

/** The last path segment as Elysia gives a `:param`: percent-decoded, null when the encoding is broken. */
export function taskIdSegment(url: string): string | null {
  const segment = pathAndQueryParts(url).path.slice(TASK_PREFIX.length)
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

export function nativeTaskRoutes(handlers: TaskHandlers, deps: Pick<AppDeps, 'log' | 'metrics'>): Record<string, Record<string, NativeHandler>> {
  const { log, metrics } = deps
  const timed = !!(log || metrics)
  /** `route`: the template, as the app's hook labels the same route's metrics. */
  const served = (route: string, run: NativeHandler): NativeHandler =>
    async (request, server) => {
      const t0 = timed ? performance.now() : 0
      let response: Response
      try {
        response = await run(request, server)
      } catch (error) {
        response = errorFor(log, 'UNKNOWN', error, request)
      }
      if (timed) {
        const ms = performance.now() - t0
        if (log) log(requestLogLine(request, response.status, ms))
        if (metrics) metrics.request(route, request.method, response.status, ms / 1000)
      }
      return response
    }
  return {
    '/api/antibot/tasks': { POST: served('/api/antibot/tasks', (request, server) => handlers.create(request, server)) },
    '/api/antibot/tasks/:task_id': { GET: served('/api/antibot/tasks/:task_id', (request) => handlers.fetch(request, taskIdSegment(request.url))) },
  }
}

import { Elysia } from 'elysia'
import { ping, type Db } from '../../db/client'
import { json } from './json'
import { DATABASE_UNAVAILABLE } from '../core/errors'
import * as operations from './operations'

/** 200 when the database answers within the timeout, 503 otherwise. */
export function healthApi(deps: { db: Db; timeoutMs?: number }) {
  const timeoutMs = deps.timeoutMs ?? 2000
  return new Elysia({ name: 'health' }).get(
    '/healthz',
    async () => {
      let timer: ReturnType<typeof setTimeout> | undefined
      try {
        await Promise.race([
          ping(deps.db),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), timeoutMs))),
        ])
        return json({ status: 'ok', database: 'ok' })
      } catch {
        // The same Retry-After as every other answer while the database is away (docs/operations.md).
        return json({ status: 'unavailable', database: 'unreachable' }, 503, { 'retry-after': String(DATABASE_UNAVAILABLE.retryAfterSeconds) })
      } finally {
        clearTimeout(timer)
      }
    },
    { detail: operations.health },
  )
}

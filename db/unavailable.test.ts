import { describe, expect, test } from 'bun:test'
import { isDatabaseUnavailable } from './unavailable'

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })

describe('isDatabaseUnavailable', () => {
  test('postgres.js connection errors', () => {
    for (const code of ['CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED']) expect(isDatabaseUnavailable(withCode(code))).toBe(true)
  })

  test('socket errors: refused, reset, unreachable', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']) expect(isDatabaseUnavailable(withCode(code))).toBe(true)
  })

  test('server shutdown, start-up, statement timeout and connection exceptions', () => {
    for (const code of ['57P01', '57P02', '57P03', '57014', '53300', '08000', '08003', '08006', '08P01']) expect(isDatabaseUnavailable(withCode(code))).toBe(true)
  })

  test('finds the driver error under a wrapper (DrizzleQueryError has it as cause)', () => {
    const wrapped = new Error('Failed query: select 1', { cause: withCode('ECONNREFUSED') })
    expect(isDatabaseUnavailable(wrapped)).toBe(true)
    expect(isDatabaseUnavailable(new Error('outer', { cause: wrapped }))).toBe(true)
  })

  test('not for query errors, bugs, or things that are not errors', () => {
    for (const code of ['23505', '22P02', '42P01', '40001', 'ERR_INVALID_ARG_TYPE']) expect(isDatabaseUnavailable(withCode(code))).toBe(false)
    for (const e of [new TypeError('x is undefined'), null, undefined, 'ECONNREFUSED', 42, {}]) expect(isDatabaseUnavailable(e)).toBe(false)
  })

  test('stops on a cause cycle', () => {
    const a = new Error('a') as Error & { cause?: unknown }
    a.cause = a
    expect(isDatabaseUnavailable(a)).toBe(false)
  })
})

describe('a database refusing connections (ALLOW_CONNECTIONS false: SQLSTATE 55000, issue 50)', () => {
  test('the FATAL 55000 of a new connection is unavailability; another 55000 of a query is not', () => {
    const refused = Object.assign(new Error('database "x" is not currently accepting connections'), { code: '55000', severity: 'FATAL' })
    expect(isDatabaseUnavailable(refused)).toBe(true)
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: refused }))).toBe(true)
    expect(isDatabaseUnavailable(Object.assign(new Error('cannot refresh materialized view concurrently'), { code: '55000', severity: 'ERROR' }))).toBe(false)
  })

  const url = process.env.TEST_DATABASE_URL
  test.skipIf(!url)('through a real PostgreSQL: both task endpoints and /healthz answer 503 with Retry-After 2, never 500', async () => {
    const { openTestDatabase } = await import('../tests/support/db')
    const { buildTestApp, makeKey } = await import('../tests/support/app')
    const postgres = (await import('postgres')).default
    const d = await openTestDatabase('postgres')
    const admin = postgres(url!, { max: 1, onnotice: () => {} })
    const name = new URL(d.url!).pathname.slice(1)
    try {
      const { app } = await buildTestApp(d.db, { clock: () => new Date() })
      const { key } = await makeKey(d.db)
      // Refuse new connections, and end the pool's own: each request must open a new one.
      await admin.unsafe(`alter database "${name}" allow_connections false`)
      await admin.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`)
      const answers = [
        await app.handle(new Request('http://localhost/api/antibot/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tool":"http-headers","results":{}}' })),
        await app.handle(new Request('http://localhost/api/antibot/tasks/00000000-0000-4000-8000-000000000001', { headers: { authorization: `Bearer ${key}` } })),
        await app.handle(new Request('http://localhost/healthz')),
      ]
      expect(answers.map((r) => [r.status, r.headers.get('retry-after')])).toEqual([
        [503, '2'],
        [503, '2'],
        [503, '2'],
      ])
    } finally {
      await admin.unsafe(`alter database "${name}" allow_connections true`).catch(() => {})
      await admin.end()
      await d.destroy()
    }
  }, 60_000)
})

import { describe, expect, test } from 'bun:test'
import type { PermissionsApiSignals, PermissionsLies } from '../../common/signals/permissions-api'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { permissionStatusGenuine, permissionsQueryNative } from './permissions-query-lies'

const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers: [], receivedAt: 0 }
const missing = { ok: false as const, error: { kind: 'error' as const, message: 'boom' }, ms: 1 }

function run(lies: PermissionsLies) {
  const s: PermissionsApiSignals = { registry: missing, notification: missing, lies: { ok: true, value: lies, ms: 1 }, worker: missing, features: missing, engine: missing }
  const [query, status] = runChecks([[permissionsQueryNative, 35], [permissionStatusGenuine, 25]], s, server, {}).checks
  return { query: query!, status: status! }
}

describe('permissions.query lies', () => {
  test('a native query with genuine answers passes both', () => {
    const r = run({ query: [], status: [] })
    expect([r.query.observed, r.status.observed]).toEqual(['all native-function tests pass', 'genuine PermissionStatus'])
    expect([r.query.verdict, r.status.verdict]).toEqual(['pass', 'pass'])
  })

  test('puppeteer-extra stealth: a proxied query and a re-prototyped status fail, naming the tests', () => {
    const r = run({ query: ['proxy', 'toString'], status: ['status-own-props'] })
    expect(r.query).toMatchObject({ verdict: 'fail', observed: { failedTests: ['proxy', 'toString'] }, points: 35 })
    expect(r.status).toMatchObject({ verdict: 'fail', observed: { failedTests: ['status-own-props'] }, points: 25 })
  })
})

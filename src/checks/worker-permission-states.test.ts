import { describe, expect, test } from 'bun:test'
import type { PermissionsApiSignals, PermissionsWorker } from '../../common/signals/permissions-api'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { permissionsWorker } from './worker-permission-states'
import { ok } from '../../tests/support/signals'

const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers: [], receivedAt: 0 }
const timeout = { ok: false as const, error: { kind: 'timeout' as const, message: 'no answer within 3000 ms' }, ms: 1 }
const REGISTRY = ok({ results: { notifications: { state: 'prompt' }, geolocation: { state: 'granted' }, midi: { error: 'TypeError', message: 'x' } }, control: { error: 'TypeError', message: 'x' } })

function run(worker: PermissionsWorker, registry: PermissionsApiSignals['registry'] = REGISTRY) {
  const s: PermissionsApiSignals = { registry, notification: timeout, lies: timeout, worker: ok(worker), features: timeout, engine: timeout }
  return runChecks([[permissionsWorker, 25]], s, server, {}).checks[0]!
}

describe('permissions-worker', () => {
  test('the same states pass; a query that threw in the worker or a name the page could not query is skipped', () => {
    expect(run({ supported: true, states: { notifications: 'prompt', geolocation: 'granted', midi: 'denied', camera: 'error' } })).toMatchObject({ verdict: 'pass', observed: '4 states agree' })
  })

  test('a page patch the worker does not see fails, naming the state on each side', () => {
    expect(run({ supported: true, states: { notifications: 'denied', geolocation: 'granted' } })).toMatchObject({ verdict: 'fail', observed: { notifications: { page: 'prompt', worker: 'denied' } } })
  })

  test('no navigator.permissions in workers (Firefox before 125), or no page registry, is not applicable', () => {
    expect(run({ supported: false, states: {} })).toMatchObject({ verdict: 'na', expected: 'this browser has no navigator.permissions in workers' })
    expect(run({ supported: true, states: { notifications: 'prompt' } }, timeout)).toMatchObject({ verdict: 'na', expected: 'timeout: no answer within 3000 ms' })
  })
})

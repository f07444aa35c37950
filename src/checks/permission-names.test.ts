import { describe, expect, test } from 'bun:test'
import type { QueryOutcome } from '../../common/permission-engines'
import type { PermissionRegistry, PermissionsApiSignals } from '../../common/signals/permissions-api'
import { engineClaim } from '../../common/user-agent'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { nameStatus, permissionRandomName, permissionsApiPresent, permissionsEngine, permissionsVersion, versionEvidence } from './permission-names'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const ENUM: QueryOutcome = { error: 'TypeError', message: "The provided value 'x' is not a valid enum value of type PermissionName." }
const missing = { ok: false as const, error: { kind: 'error' as const, message: 'boom' }, ms: 1 }

function run(registry: PermissionsApiSignals['registry'], ua = CHROME) {
  const server: ServerObservation = { ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0 }
  const s: PermissionsApiSignals = { registry, notification: missing, lies: missing, worker: missing, features: missing }
  const checks = runChecks([[permissionsApiPresent, 15], [permissionRandomName, 35], [permissionsEngine, 40], [permissionsVersion, 25]], s, server, {}).checks
  return Object.fromEntries(checks.map((c) => [c.id, c]))
}
const reg = (results: Record<string, QueryOutcome>, control: QueryOutcome = ENUM) => ({ ok: true as const, value: { results, control } satisfies PermissionRegistry, ms: 1 })

describe('permission names', () => {
  test('a handler that resolves a made-up name fails; rejecting it passes', () => {
    expect(run(reg({ geolocation: { state: 'prompt' } }, { state: 'prompt' }))['permission-random-name']!.verdict).toBe('fail')
    expect(run(reg({ geolocation: { state: 'prompt' } }))['permission-random-name']!.verdict).toBe('pass')
  })

  test('too few known names to tell the engine: engine and version are not applicable', () => {
    const r = run(reg({ geolocation: { state: 'prompt' }, notifications: { state: 'prompt' }, 'background-sync': ENUM }))
    expect(r['permissions-engine']).toMatchObject({ verdict: 'na', expected: 'the answered names fit no engine table (too few known names)' })
    expect(r['permissions-version']).toMatchObject({ verdict: 'na', expected: 'version ranges are tabulated for Chromium only' })
  })

  test('a registry that failed for another reason than a missing API is not applicable, saying why', () => {
    expect(run(missing)['permissions-api-present']).toMatchObject({ verdict: 'na', expected: 'error: boom' })
  })

  test('nameStatus and versionEvidence: a Chromium-only name known means Blink; its milestone bounds the version', () => {
    const status = nameStatus({ results: { 'background-sync': { state: 'granted' }, 'local-fonts': { state: 'prompt' }, 'persistent-storage': ENUM }, control: ENUM })
    expect(status).toEqual({ 'background-sync': 'granted', 'local-fonts': 'prompt', 'persistent-storage': 'unknown' })
    expect(versionEvidence(status, engineClaim(CHROME))?.atLeast).toBe(103)
    expect(versionEvidence(status, engineClaim('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'))).toBeNull()
  })
})

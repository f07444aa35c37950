import { describe, expect, test } from 'bun:test'
import type { QueryOutcome } from '../../common/permission-engines'
import type { PermissionRegistry, PermissionsApiSignals } from '../../common/signals/permissions-api'
import type { JsEngine } from '../../common/signals/shared'
import { engineClaim } from '../../common/user-agent'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import {
  CHROMIUM_156_KNOWN, CHROMIUM_156_UA, FIREFOX_153_KNOWN, FIREFOX_153_UA, INJECTED_FIREFOX_UA, SPIDERMONKEY_153, V8_156, blinkUnknown, geckoUnknown, registryOf,
} from '../core/tools/permissions-api.fixture'
import { NO_ENGINE_SIGNAL } from './page-engine'
import { nameStatus, permissionRandomName, permissionsApiPresent, permissionsEngine, permissionsVersion, versionEvidence } from './permission-names'
import { missing as absent, ok } from '../../tests/support/signals'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const ENUM: QueryOutcome = { error: 'TypeError', message: "The provided value 'x' is not a valid enum value of type PermissionName." }
const missing = absent('error', 'boom')

function run(registry: PermissionsApiSignals['registry'], ua = CHROME, engine?: JsEngine) {
  const server: ServerObservation = { ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0 }
  const s: PermissionsApiSignals = { registry, notification: missing, lies: missing, worker: missing, features: missing, engine: engine ? ok(engine) : missing }
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
    expect(r['permissions-engine']).toMatchObject({ verdict: 'na', expected: `the answered names fit no engine table (too few known names; ${NO_ENGINE_SIGNAL})` })
    expect(r['permissions-version']).toMatchObject({ verdict: 'na', expected: `version ranges are tabulated for Chromium only (${NO_ENGINE_SIGNAL})` })
  })

  test('a registry that failed for another reason than a missing API is not applicable, saying why', () => {
    expect(run(missing)['permissions-api-present']).toMatchObject({ verdict: 'na', expected: 'error: boom' })
  })

  test('Chromium 156 and Firefox ESR 153 as captured pass, saying the engine they judged by', () => {
    const chrome = run(registryOf(CHROMIUM_156_KNOWN, blinkUnknown), CHROMIUM_156_UA, V8_156)
    expect(chrome['permissions-engine']).toMatchObject({ verdict: 'pass', observed: { namesSay: 'Chromium (Blink)', engine: "judged by V8 (Blink), the engine the page's error messages show", knownNames: 33 } })
    expect(chrome['permissions-version']).toMatchObject({ verdict: 'pass', observed: { engineAtLeast: 111, userAgentVersion: 156 } })
    const firefox = run(registryOf(FIREFOX_153_KNOWN, geckoUnknown), FIREFOX_153_UA, SPIDERMONKEY_153)
    expect(firefox['permissions-engine']).toMatchObject({ verdict: 'pass', observed: { namesSay: 'Firefox (Gecko)', engine: "judged by SpiderMonkey (Gecko), the engine the page's error messages show", knownNames: 9 } })
    expect(firefox['permissions-version']).toMatchObject({ verdict: 'na', expected: "version ranges are tabulated for Chromium only (judged by SpiderMonkey (Gecko), the engine the page's error messages show)" })
  })

  test('a name the table gives Chromium alone, once Firefox knows it, does not fail a SpiderMonkey page under a Firefox User-Agent', () => {
    const adopted = registryOf({ ...FIREFOX_153_KNOWN, 'clipboard-read': { state: 'prompt' } }, geckoUnknown)
    expect(run(adopted, FIREFOX_153_UA, SPIDERMONKEY_153)['permissions-engine']).toMatchObject({ verdict: 'pass', observed: { namesSay: 'Chromium (Blink)' } })
    // Without the engine signal, the table decides as before.
    expect(run(adopted, FIREFOX_153_UA)['permissions-engine']!.verdict).toBe('fail')
  })

  test('Chromium under a Firefox User-Agent fails, as does a registry faked to look like Gecko on V8', () => {
    expect(run(registryOf(CHROMIUM_156_KNOWN, blinkUnknown), INJECTED_FIREFOX_UA, V8_156)['permissions-engine']!.verdict).toBe('fail')
    expect(run(registryOf(FIREFOX_153_KNOWN, geckoUnknown), INJECTED_FIREFOX_UA, V8_156)['permissions-engine']).toMatchObject({ verdict: 'fail', observed: { namesSay: 'Firefox (Gecko)' } })
  })

  test('no Permissions API is held to the version of the engine that runs the page', () => {
    const none = absent('unsupported', 'no navigator.permissions.query')
    expect(run(none, CHROMIUM_156_UA, V8_156)['permissions-api-present']).toMatchObject({ verdict: 'fail', expected: "navigator.permissions in chrome 156 (Chromium (Blink)); judged by V8 (Blink), the engine the page's error messages show" })
  })

  test('nameStatus and versionEvidence: a Chromium-only name known means Blink; its milestone bounds the version', () => {
    const status = nameStatus({ results: { 'background-sync': { state: 'granted' }, 'local-fonts': { state: 'prompt' }, 'persistent-storage': ENUM }, control: ENUM })
    expect(status).toEqual({ 'background-sync': 'granted', 'local-fonts': 'prompt', 'persistent-storage': 'unknown' })
    expect(versionEvidence(status, engineClaim(CHROME))?.atLeast).toBe(103)
    expect(versionEvidence(status, engineClaim('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'))).toBeNull()
    // The engine that runs the page settles it: SpiderMonkey has no Chromium version.
    expect(versionEvidence(status, engineClaim(CHROME), 'gecko')).toBeNull()
  })
})

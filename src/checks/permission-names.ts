// What permissions.query answers for every registry name (probes/signals/permission-registry.ts):
// the API exists, a made-up name is rejected, and the names the engine knows fit the engine and
// version the User-Agent claims, held to the engine the page's error messages show
// (page-engine.ts) where they tell one. The engine tables are in common/permission-engines.ts.
// https://w3c.github.io/permissions-registry/

import type { Engine, EngineClaim } from '../../common/user-agent'
import { blinkVersionEvidence, classifyOutcome, engineFromPermissions, type NameStatus, type VersionEvidence } from '../../common/permission-engines'
import type { PermissionRegistry, PermissionsApiSignals } from '../../common/signals/permissions-api'
import { checkOn, na } from './define'
import { ENGINE_LABEL, claimOf, engineClaimText, fitsClaim } from './engine-claim'
import { pageEngine } from './page-engine'

const namesCheck = checkOn<PermissionsApiSignals>()

/** How the engine took each name: a state, known but unsupported, or not in its enum. */
export function nameStatus(reg: PermissionRegistry): Record<string, NameStatus> {
  const status: Record<string, NameStatus> = {}
  for (const [name, outcome] of Object.entries(reg.results)) status[name] = classifyOutcome(outcome)
  return status
}

/**
 * The Chromium version range the names show, when the claim is Chromium and so is the engine:
 * the one the error messages show (`running`), or the names' when those tell none.
 */
export function versionEvidence(status: Record<string, NameStatus>, claim: EngineClaim, running: Engine = 'unknown'): VersionEvidence | null {
  const engine = running !== 'unknown' ? running : engineFromPermissions(status)
  return claim.engine === 'blink' && engine === 'blink' ? blinkVersionEvidence(status, claim.major) : null
}

/** The version from which an engine has navigator.permissions (null: the engine is unknown). */
function permissionsSince(engine: Engine): number | null {
  return engine === 'blink' ? 43 : engine === 'gecko' ? 46 : engine === 'webkit' ? 16 : null
}

export const permissionsApiPresent = namesCheck({
  id: 'permissions-api-present',
  name: 'Permissions API is present',
  found: 'the Permissions API is missing',
  source: 'client',
  why: 'navigator.permissions exists in Chrome since 43, Firefox since 46 and Safari since 16. A browser claiming one of those without it is either older than it says or has had the API removed.',
  ref: 'https://developer.mozilla.org/docs/Web/API/Navigator/permissions#browser_compatibility',
  needs: [],
  uses: ['registry', 'engine'],
  judge: ({ registry, engine }, { server, raw, missing }) => {
    if (registry) return { verdict: 'pass', observed: 'navigator.permissions.query exists', expected: 'navigator.permissions' }
    const claim = claimOf(server)
    const { engine: running, basis } = pageEngine(engine)
    // The version is the claim's; the engine it is counted in is the one running the page where the error messages tell it.
    const since = permissionsSince(running !== 'unknown' ? running : claim.engine)
    if (raw.registry && !raw.registry.ok && raw.registry.error.kind === 'unsupported' && since !== null && claim.major !== null) {
      return { verdict: claim.major >= since ? 'fail' : 'pass', observed: missing('registry'), expected: `navigator.permissions in ${engineClaimText(claim)}; ${basis}` }
    }
    return na(missing('registry'))
  },
})

export const permissionRandomName = namesCheck({
  id: 'permission-random-name',
  name: 'A made-up permission name is rejected',
  found: 'a made-up permission name is accepted',
  source: 'client',
  why: 'Every engine rejects a name outside its PermissionName enum with a TypeError before looking at any setting. A query handler that resolves a random name answers everything itself: the query was replaced.',
  ref: 'https://w3c.github.io/permissions/#dom-permissions-query',
  needs: ['registry'],
  judge: ({ registry }) => ({ verdict: 'state' in registry.control ? 'fail' : 'pass', observed: registry.control, expected: 'a TypeError (not a valid PermissionName)' }),
})

export const permissionsEngine = namesCheck({
  id: 'permissions-engine',
  name: 'Permission names fit the claimed engine',
  found: 'permission names do not fit the claimed engine',
  source: 'server',
  why: "Each engine knows its own set of names: only Chromium accepts background-sync, payment-handler or clipboard-read; WebKit knows accelerometer and speaker-selection but not persistent-storage; Gecko knows persistent-storage and none of those. Which names are rejected as unknown tells the engine regardless of what the User-Agent header says. Engines adopt names over time, so where the page's error messages tell the engine (they come from the JavaScript engine itself) the claim is held to that engine, and the names decide only when the messages tell none.",
  ref: 'https://source.chromium.org/chromium/chromium/src/+/main:third_party/blink/renderer/modules/permissions/permission_descriptor.idl',
  needs: ['registry'],
  uses: ['engine'],
  judge: ({ registry, engine }, { server }) => {
    const claim = claimOf(server)
    const status = nameStatus(registry)
    const byPermissions = engineFromPermissions(status)
    const { engine: running, basis } = pageEngine(engine)
    if (claim.engine === 'unknown') return na('the User-Agent header names no known engine')
    if (byPermissions === 'unknown') return na(`the answered names fit no engine table (too few known names; ${basis})`)
    const known = Object.keys(status).filter((n) => status[n] !== 'unknown')
    return {
      verdict: fitsClaim(byPermissions, claim.engine, running) ? 'pass' : 'fail',
      observed: { namesSay: ENGINE_LABEL[byPermissions], engine: basis, userAgentSays: engineClaimText(claim), knownNames: known.length, unknownNames: Object.keys(status).length - known.length },
      expected: `${ENGINE_LABEL[claim.engine]}, as the User-Agent says${running !== 'unknown' ? ', running the page' : ''}`,
    }
  },
})

export const permissionsVersion = namesCheck({
  id: 'permissions-version',
  name: 'Permission names fit the claimed version',
  found: 'permission names do not fit the claimed version',
  source: 'server',
  why: 'Chromium added names over time (periodic-background-sync 80, screen-wake-lock 84, idle-detection 94, local-fonts 103, window-management 111). A name the claimed version could not know means the engine is newer than the User-Agent says (a frozen or copied UA); a name missing from a version two or more milestones after it appeared means the engine is older.',
  ref: 'https://chromestatus.com/features',
  needs: ['registry'],
  uses: ['engine'],
  judge: ({ registry, engine }, { server }) => {
    const claim = claimOf(server)
    const { engine: running, basis } = pageEngine(engine)
    const version = versionEvidence(nameStatus(registry), claim, running)
    if (!version || claim.major === null) return na(`version ranges are tabulated for Chromium only (${basis})`)
    const newer = version.atLeast !== null && claim.major < version.atLeast
    return {
      verdict: newer || version.missing.length ? 'fail' : 'pass',
      observed: {
        userAgentVersion: claim.major,
        engineAtLeast: version.atLeast,
        ...(version.atLeastBecause ? { because: version.atLeastBecause } : {}),
        ...(version.missing.length ? { unknownButExpected: version.missing } : {}),
      },
      expected: `names consistent with Chromium ${claim.major}; ${basis}`,
    }
  },
})

// permissions-api: the permission registry as the browser answers it (which names its engine
// knows tells the engine and a version range), the Notification/permissions mismatch, whether
// permissions.query and its answers are genuine, the same states in a worker, and which feature
// APIs and engine markers exist, all against the browser the User-Agent header claims.

import { Type, type Static } from '@sinclair/typebox'
import { check, type Check, type CheckDef } from '../scoring'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { engineClaim, type EngineClaim } from '../../../common/user-agent'
import { header, type ServerObservation } from './observation'
import {
  BLINK_DESKTOP_APIS, BLINK_ONLY_APIS, blinkVersionEvidence, classifyOutcome, engineFromMarkers, engineFromPermissions, type NameStatus,
} from '../../../common/permission-engines'
import { legacyTool } from './types'

const Str = (n: number) => Type.String({ maxLength: n })
const Bool = Type.Boolean()
const Key = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9-]{0,39}$' })
const Outcome = Type.Union([Type.Object({ state: Str(16) }), Type.Object({ error: Str(40), message: Str(160) })])

export const PermissionsApiSignals = Type.Object({
  registry: Signal(Type.Object({ results: Type.Record(Key, Outcome, { maxProperties: 80 }), control: Outcome })),
  notification: Signal(Type.Object({ permission: Type.Union([Str(16), Type.Null()]) })),
  lies: Signal(Type.Object({ query: Type.Array(Str(40), { maxItems: 20 }), status: Type.Array(Str(40), { maxItems: 10 }) })),
  worker: Signal(Type.Object({ supported: Bool, states: Type.Record(Key, Str(16), { maxProperties: 16 }) })),
  features: Signal(
    Type.Object({
      secureContext: Bool,
      apis: Type.Record(Key, Bool, { maxProperties: 80 }),
      markers: Type.Record(Key, Bool, { maxProperties: 20 }),
    }),
  ),
})
export type PermissionsApiSignals = Static<typeof PermissionsApiSignals>

const DEFS = {
  present: {
    id: 'permissions-api-present', name: 'Permissions API is present', source: 'client', weight: 15,
    why: 'navigator.permissions exists in Chrome since 43, Firefox since 46 and Safari since 16. A browser claiming one of those without it is either older than it says or has had the API removed.',
  },
  control: {
    id: 'permission-random-name', name: 'A made-up permission name is rejected', source: 'client', weight: 35,
    why: 'Every engine rejects a name outside its PermissionName enum with a TypeError before looking at any setting. A query handler that resolves a random name answers everything itself: the query was replaced.',
  },
  engine: {
    id: 'permissions-engine', name: 'Permission names fit the claimed engine', source: 'server', weight: 40,
    why: 'Each engine knows its own set of names: only Chromium accepts background-sync, payment-handler or clipboard-read; WebKit knows accelerometer and speaker-selection but not persistent-storage; Gecko knows persistent-storage and none of those. Which names are rejected as unknown tells the engine regardless of what the User-Agent header says.',
  },
  version: {
    id: 'permissions-version', name: 'Permission names fit the claimed version', source: 'server', weight: 25,
    why: 'Chromium added names over time (periodic-background-sync 80, screen-wake-lock 84, idle-detection 94, local-fonts 103, window-management 111). A name the claimed version could not know means the engine is newer than the User-Agent says (a frozen or copied UA); a name missing from a version two or more milestones after it appeared means the engine is older.',
  },
  notification: {
    id: 'notification-permission', name: 'Notification.permission agrees with permissions.query', source: 'client', weight: 40,
    why: 'Notification.permission and permissions.query({name: "notifications"}) read the same setting (default ↔ prompt). Old headless Chromium answered "denied" to one and "prompt" to the other (crbug 1052332); a stealth patch of one side gives the same disagreement.',
  },
  notificationDenied: {
    id: 'notification-default', name: 'Notifications are not denied by default', source: 'client', weight: 8,
    why: 'A fresh profile asks before showing notifications ("default"); headless and automation profiles often deny them outright. Many people block notifications for all sites, so this is only a small warning.',
  },
  queryNative: {
    id: 'permissions-query-native', name: 'permissions.query is the engine’s own', source: 'client', weight: 35,
    why: 'Native methods print "[native code]", have no prototype or own toString, are not constructors, reject calls on foreign objects and cannot be given a prototype cycle; a Proxy or replacement (puppeteer-extra stealth patches query this way) fails at least one. Privacy extensions rarely touch permissions.query, so a lie here is a strong automation tell.',
  },
  statusGenuine: {
    id: 'permission-status-genuine', name: 'Answers are real PermissionStatus objects', source: 'client', weight: 25,
    why: 'A real PermissionStatus has no own properties and its state comes from the prototype getter. Fakes built with Object.setPrototypeOf({state}, PermissionStatus.prototype) carry their own state and make the native getter throw.',
  },
  worker: {
    id: 'permissions-worker', name: 'A worker sees the same permission states', source: 'client', weight: 25,
    why: 'Workers have their own navigator.permissions; a patch applied to the page does not reach them. The same setting must give the same state in both.',
  },
  markers: {
    id: 'engine-markers', name: 'Engine-specific features fit the claimed engine', source: 'server', weight: 30,
    why: 'Each engine carries properties the others lack: webkitRequestFileSystem and -webkit-app-region in Chromium, mozInnerScreenX and -moz-appearance in Firefox, GestureEvent, ApplePaySession and -webkit-touch-callout in Safari. Markers of another engine than the User-Agent names, or of two engines at once, show a spoofed UA or a patched environment.',
  },
  apis: {
    id: 'feature-apis', name: 'Feature APIs fit the claimed browser', source: 'server', weight: 20,
    why: 'WebUSB, WebHID, Web Serial, userAgentData and the other Fugu APIs exist only in Chromium, and some only on desktop. Chromium-only APIs in a browser claiming Firefox or Safari, or desktop-only APIs under an Android User-Agent (device emulation), fail. Desktop Chromium missing several of its APIs only warns: Brave and enterprise policies remove some.',
  },
} as const satisfies Record<string, CheckDef>

const na = (def: CheckDef, why: string) => check(def, { verdict: 'na', observed: null, expected: why })

const ENGINE_LABEL = { blink: 'Chromium (Blink)', gecko: 'Firefox (Gecko)', webkit: 'Safari (WebKit)', unknown: 'unknown', mixed: 'two engines at once' } as const

/** The version from which an engine has navigator.permissions (null: the engine is unknown). */
function permissionsSince(c: EngineClaim): number | null {
  return c.engine === 'blink' ? 43 : c.engine === 'gecko' ? 46 : c.engine === 'webkit' ? 16 : null
}

const DESKTOP_ONLY_BLINK = ['hid', 'fileSystemAccess', 'eyeDropper', 'localFonts', 'documentPip', 'windowControlsOverlay']

export const permissionsApi = legacyTool({
  id: 'permissions-api',
  signals: PermissionsApiSignals,
  sections: Type.Object({ permissions: Type.Unknown() }),
  judge(s: PermissionsApiSignals, server: ServerObservation) {
    const checks: Check[] = []
    const reg = valueOf(s.registry)
    const notif = valueOf(s.notification)
    const lies = valueOf(s.lies)
    const worker = valueOf(s.worker)
    const features = valueOf(s.features)
    const claim = engineClaim(server.userAgent || header(server, 'user-agent') || '')
    const claimed = `${claim.browser}${claim.major !== null ? ` ${claim.major}` : ''} (${ENGINE_LABEL[claim.engine]})`

    const status: Record<string, NameStatus> = {}
    if (reg) for (const [name, outcome] of Object.entries(reg.results)) status[name] = classifyOutcome(outcome)
    const byPermissions = reg ? engineFromPermissions(status) : 'unknown'

    // 1. The API itself.
    const since = permissionsSince(claim)
    if (reg) checks.push(check(DEFS.present, { verdict: 'pass', observed: 'navigator.permissions.query exists', expected: 'navigator.permissions' }))
    else if (!s.registry.ok && s.registry.error.kind === 'unsupported' && since !== null && claim.major !== null) {
      checks.push(check(DEFS.present, { verdict: claim.major >= since ? 'fail' : 'pass', observed: whyMissing(s.registry), expected: `navigator.permissions in ${claimed}` }))
    } else checks.push(na(DEFS.present, whyMissing(s.registry)))

    // 2. The random name.
    if (reg) {
      const resolved = 'state' in reg.control
      checks.push(check(DEFS.control, { verdict: resolved ? 'fail' : 'pass', observed: reg.control, expected: 'a TypeError (not a valid PermissionName)' }))
    } else checks.push(na(DEFS.control, whyMissing(s.registry)))

    // 3–4. Engine and version from the names.
    if (reg && byPermissions !== 'unknown' && claim.engine !== 'unknown') {
      const known = Object.keys(status).filter((n) => status[n] !== 'unknown')
      checks.push(
        check(DEFS.engine, {
          verdict: byPermissions === claim.engine ? 'pass' : 'fail',
          observed: { namesSay: ENGINE_LABEL[byPermissions], userAgentSays: claimed, knownNames: known.length, unknownNames: Object.keys(status).length - known.length },
          expected: ENGINE_LABEL[claim.engine],
        }),
      )
    } else checks.push(na(DEFS.engine, !reg ? whyMissing(s.registry) : claim.engine === 'unknown' ? 'the User-Agent header names no known engine' : 'the answered names fit no engine table (too few known names)'))

    const version = claim.engine === 'blink' && byPermissions === 'blink' ? blinkVersionEvidence(status, claim.major) : null
    if (version && claim.major !== null) {
      const newer = version.atLeast !== null && claim.major < version.atLeast
      checks.push(
        check(DEFS.version, {
          verdict: newer || version.missing.length ? 'fail' : 'pass',
          observed: {
            userAgentVersion: claim.major,
            engineAtLeast: version.atLeast,
            ...(version.atLeastBecause ? { because: version.atLeastBecause } : {}),
            ...(version.missing.length ? { unknownButExpected: version.missing } : {}),
          },
          expected: `names consistent with Chromium ${claim.major}`,
        }),
      )
    } else checks.push(na(DEFS.version, reg ? 'version ranges are tabulated for Chromium only' : whyMissing(s.registry)))

    // 5–6. Notification.
    // The raw state: a fake answer may not even be a PermissionState ('default').
    const nOutcome = reg?.results['notifications']
    const nq = nOutcome && 'state' in nOutcome ? nOutcome.state : undefined
    if (notif && notif.permission !== null && nq) {
      const mapped = notif.permission === 'default' ? 'prompt' : notif.permission
      checks.push(check(DEFS.notification, { verdict: mapped === nq ? 'pass' : 'fail', observed: { 'Notification.permission': notif.permission, 'permissions.query': nq }, expected: 'the same setting (default ↔ prompt)' }))
      checks.push(check(DEFS.notificationDenied, { verdict: notif.permission === 'denied' && nq === 'denied' ? 'warn' : 'pass', observed: notif.permission, expected: 'default (a fresh profile asks first)' }))
    } else {
      const why = !notif ? whyMissing(s.notification) : notif.permission === null ? 'no Notification API (iOS Safari outside home-screen apps)' : !reg ? whyMissing(s.registry) : 'permissions.query has no notifications state'
      checks.push(na(DEFS.notification, why), na(DEFS.notificationDenied, why))
    }

    // 7–8. Lies.
    if (lies) {
      checks.push(check(DEFS.queryNative, { verdict: lies.query.length ? 'fail' : 'pass', observed: lies.query.length ? { failedTests: lies.query } : 'all native-function tests pass', expected: 'a native, unproxied Permissions.prototype.query' }))
      checks.push(check(DEFS.statusGenuine, { verdict: lies.status.length ? 'fail' : 'pass', observed: lies.status.length ? { failedTests: lies.status } : 'genuine PermissionStatus', expected: 'no own properties, PermissionStatus prototype, working state getter' }))
    } else checks.push(na(DEFS.queryNative, whyMissing(s.lies)), na(DEFS.statusGenuine, whyMissing(s.lies)))

    // 9. Worker.
    if (worker?.supported && reg) {
      const diff = Object.entries(worker.states).filter(([n, st]) => {
        const main = reg.results[n]
        return main && 'state' in main && st !== 'error' && st !== main.state
      })
      checks.push(
        check(DEFS.worker, {
          verdict: diff.length ? 'fail' : 'pass',
          observed: diff.length ? Object.fromEntries(diff.map(([n, st]) => [n, { page: (reg.results[n] as { state: string }).state, worker: st }])) : `${Object.keys(worker.states).length} states agree`,
          expected: 'the same states in the page and in a worker',
        }),
      )
    } else checks.push(na(DEFS.worker, worker ? 'this browser has no navigator.permissions in workers' : whyMissing(s.worker) || whyMissing(s.registry)))

    // 10–11. Features.
    const byMarkers = features ? engineFromMarkers(features.markers) : 'unknown'
    if (features && byMarkers !== 'unknown' && claim.engine !== 'unknown') {
      checks.push(
        check(DEFS.markers, {
          verdict: byMarkers === claim.engine ? 'pass' : 'fail',
          observed: { markersSay: ENGINE_LABEL[byMarkers], present: Object.keys(features.markers).filter((m) => features.markers[m]), userAgentSays: claimed },
          expected: ENGINE_LABEL[claim.engine],
        }),
      )
    } else checks.push(na(DEFS.markers, !features ? whyMissing(s.features) : claim.engine === 'unknown' ? 'the User-Agent header names no known engine' : 'no engine marker found'))

    let missingExpected: string[] = []
    if (features && claim.engine !== 'unknown') {
      const has = (a: string) => features.apis[a] === true
      let verdict: 'pass' | 'warn' | 'fail' = 'pass'
      let observed: unknown
      let expected: string
      if (claim.engine !== 'blink') {
        const foreign = BLINK_ONLY_APIS.filter(has)
        verdict = foreign.length ? 'fail' : 'pass'
        observed = foreign.length ? { chromiumOnlyApis: foreign } : 'no Chromium-only API'
        expected = `no Chromium-only API in ${claimed}`
      } else if (claim.os === 'android') {
        const desktop = DESKTOP_ONLY_BLINK.filter(has)
        verdict = desktop.length >= 2 ? 'fail' : 'pass'
        observed = desktop.length ? { desktopOnlyApis: desktop } : 'no desktop-only API'
        expected = 'no desktop-only Chromium API under an Android User-Agent'
      } else if (features.secureContext) {
        missingExpected = Object.entries(BLINK_DESKTOP_APIS)
          .filter(([a, v]) => (claim.major === null || claim.major >= v) && !has(a))
          .map(([a]) => a)
        verdict = missingExpected.length >= 3 ? 'warn' : 'pass'
        observed = missingExpected.length ? { missing: missingExpected } : `all ${Object.keys(BLINK_DESKTOP_APIS).length} desktop Chromium APIs present`
        expected = `the APIs desktop ${claimed} ships in secure contexts`
      } else {
        verdict = 'pass'
        observed = 'insecure context: secure-only APIs are hidden'
        expected = 'secure context to compare'
      }
      checks.push(check(DEFS.apis, { verdict, observed, expected }))
    } else checks.push(na(DEFS.apis, !features ? whyMissing(s.features) : 'the User-Agent header names no known engine'))

    return {
      checks,
      sections: {
        permissions: {
          states: status,
          engine: { byPermissions, byMarkers, claimed: claim.engine, claimedBrowser: claim.browser, claimedVersion: claim.major },
          engineAtLeast: version?.atLeast ?? null,
          notification: notif?.permission ?? null,
          secureContext: features?.secureContext ?? null,
          apis: features ? Object.keys(features.apis).filter((a) => features.apis[a]) : null,
          missingExpectedApis: missingExpected,
        },
      },
    }
  },
})

// Which feature APIs and engine markers the page has (probes/signals/feature-apis.ts), against
// the browser the User-Agent claims. The tables are in common/permission-engines.ts.
// https://developer.chrome.com/docs/capabilities/status (the Chromium-only "Fugu" APIs)

import type { EngineClaim } from '../../common/user-agent'
import { BLINK_DESKTOP_APIS, BLINK_ONLY_APIS, engineFromMarkers } from '../../common/permission-engines'
import type { FeatureApis, PermissionsApiSignals } from '../../common/signals/permissions-api'
import type { Verdict } from '../core/scoring'
import { checkOn, na } from './define'
import { ENGINE_LABEL, claimOf, engineClaimText } from './engine-claim'

const featuresCheck = checkOn<PermissionsApiSignals>()

const DESKTOP_ONLY_BLINK = ['hid', 'fileSystemAccess', 'eyeDropper', 'localFonts', 'documentPip', 'windowControlsOverlay']

/**
 * The APIs desktop Chromium of the claimed version ships in secure contexts that the page lacks;
 * empty unless the claim is desktop Chromium and the page is a secure context.
 */
export function missingDesktopApis(features: FeatureApis, claim: EngineClaim): string[] {
  if (claim.engine !== 'blink' || claim.os === 'android' || !features.secureContext) return []
  return Object.entries(BLINK_DESKTOP_APIS)
    .filter(([a, v]) => (claim.major === null || claim.major >= v) && features.apis[a] !== true)
    .map(([a]) => a)
}

export const engineMarkers = featuresCheck({
  id: 'engine-markers',
  name: 'Engine-specific features fit the claimed engine',
  source: 'server',
  why: 'Each engine carries properties the others lack: webkitRequestFileSystem and -webkit-app-region in Chromium, mozInnerScreenX and -moz-appearance in Firefox, GestureEvent, ApplePaySession and -webkit-touch-callout in Safari. Markers of another engine than the User-Agent names, or of two engines at once, show a spoofed UA or a patched environment.',
  needs: ['features'],
  judge: ({ features }, { server }) => {
    const claim = claimOf(server)
    const byMarkers = engineFromMarkers(features.markers)
    if (claim.engine === 'unknown') return na('the User-Agent header names no known engine')
    if (byMarkers === 'unknown') return na('no engine marker found')
    return {
      verdict: byMarkers === claim.engine ? 'pass' : 'fail',
      observed: { markersSay: ENGINE_LABEL[byMarkers], present: Object.keys(features.markers).filter((m) => features.markers[m]), userAgentSays: engineClaimText(claim) },
      expected: ENGINE_LABEL[claim.engine],
    }
  },
})

export const featureApis = featuresCheck({
  id: 'feature-apis',
  name: 'Feature APIs fit the claimed browser',
  source: 'server',
  why: 'WebUSB, WebHID, Web Serial, userAgentData and the other Fugu APIs exist only in Chromium, and some only on desktop. Chromium-only APIs in a browser claiming Firefox or Safari, or desktop-only APIs under an Android User-Agent (device emulation), fail. Desktop Chromium missing several of its APIs only warns: Brave and enterprise policies remove some.',
  ref: 'https://developer.chrome.com/docs/capabilities/status',
  needs: ['features'],
  judge: ({ features }, { server }) => {
    const claim = claimOf(server)
    const claimed = engineClaimText(claim)
    const has = (a: string) => features.apis[a] === true
    if (claim.engine === 'unknown') return na('the User-Agent header names no known engine')
    if (claim.engine !== 'blink') {
      const foreign = BLINK_ONLY_APIS.filter(has)
      return { verdict: foreign.length ? 'fail' : 'pass', observed: foreign.length ? { chromiumOnlyApis: foreign } : 'no Chromium-only API', expected: `no Chromium-only API in ${claimed}` }
    }
    if (claim.os === 'android') {
      const desktop = DESKTOP_ONLY_BLINK.filter(has)
      return { verdict: desktop.length >= 2 ? 'fail' : 'pass', observed: desktop.length ? { desktopOnlyApis: desktop } : 'no desktop-only API', expected: 'no desktop-only Chromium API under an Android User-Agent' }
    }
    if (!features.secureContext) return { verdict: 'pass', observed: 'insecure context: secure-only APIs are hidden', expected: 'secure context to compare' }
    const missing = missingDesktopApis(features, claim)
    const verdict: Verdict = missing.length >= 3 ? 'warn' : 'pass'
    return {
      verdict,
      observed: missing.length ? { missing } : `all ${Object.keys(BLINK_DESKTOP_APIS).length} desktop Chromium APIs present`,
      expected: `the APIs desktop ${claimed} ships in secure contexts`,
    }
  },
})

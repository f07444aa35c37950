// Which feature APIs and engine markers the page has (probes/signals/feature-apis.ts), against
// the browser the User-Agent claims and the engine the page's error messages show
// (page-engine.ts). The tables are in common/permission-engines.ts; they tell what an engine
// shipped when they were written, so an API or marker an engine adopted since must not fail it:
// where the error messages tell the engine, that engine is what the claim is held to.
// https://developer.chrome.com/docs/capabilities/status (the Chromium-only "Fugu" APIs)

import { BLINK_DESKTOP_APIS, CHROMIUM_FIRST_APIS, ENGINE_MARKERS, engineFromMarkers } from '../../common/permission-engines'
import type { FeatureApis, PermissionsApiSignals } from '../../common/signals/permissions-api'
import type { Engine, EngineClaim } from '../../common/user-agent'
import type { Verdict } from '../core/scoring'
import { checkOn, na } from './define'
import { ENGINE_LABEL, claimOf, engineClaimText, fitsClaim } from './engine-claim'
import { pageEngine } from './page-engine'

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

/** The markers present, by name. */
const presentMarkers = (markers: Readonly<Record<string, boolean>>) => Object.keys(markers).filter((m) => markers[m])

/** An engine's own markers (none for an unknown engine). */
const ownMarkers = (engine: Engine): readonly string[] => (engine === 'unknown' ? [] : ENGINE_MARKERS[engine])

export const engineMarkers = featuresCheck({
  id: 'engine-markers',
  name: 'Engine-specific features fit the claimed engine',
  found: 'engine-specific features do not fit the claimed engine',
  source: 'server',
  why: "Each engine carries properties the others lack: webkitRequestFileSystem and -webkit-app-region in Chromium, mozInnerScreenX and -moz-appearance in Firefox, GestureEvent, ApplePaySession and -webkit-touch-callout in Safari. Markers of another engine than the User-Agent names, or of two engines at once, show a spoofed UA or a patched environment. Engines adopt each other's prefixed properties over time, so where the page's error messages tell the engine (they come from the JavaScript engine itself), the claim is held to that engine, and the markers decide only when the messages tell none.",
  needs: ['features'],
  uses: ['engine'],
  judge: ({ features, engine }, { server }) => {
    const claim = claimOf(server)
    const byMarkers = engineFromMarkers(features.markers)
    const { engine: running, basis } = pageEngine(engine)
    if (claim.engine === 'unknown') return na('the User-Agent header names no known engine')
    if (byMarkers === 'unknown') return na(`no engine marker found (${basis})`)
    const fits = fitsClaim(byMarkers, claim.engine, running)
    return {
      verdict: fits ? 'pass' : 'fail',
      observed: {
        markersSay: ENGINE_LABEL[byMarkers],
        present: presentMarkers(features.markers),
        engine: basis,
        // The engine claimed runs, yet the markers say otherwise: it adopted another engine's property.
        ...(fits && byMarkers !== claim.engine ? { adopted: presentMarkers(features.markers).filter((m) => !ownMarkers(claim.engine).includes(m)) } : {}),
        userAgentSays: engineClaimText(claim),
      },
      expected: `${ENGINE_LABEL[claim.engine]}, as the User-Agent says${running !== 'unknown' ? ', running the page' : ''}`,
    }
  },
})

export const featureApis = featuresCheck({
  id: 'feature-apis',
  name: 'Feature APIs fit the claimed browser',
  found: 'feature APIs do not fit the claimed browser',
  source: 'server',
  why: "WebUSB, WebHID, Web Serial, userAgentData and the other Fugu APIs were Chromium's alone, and some exist only on desktop. Other engines adopt some of them (Firefox 153 ships Web Serial and Document Picture-in-Picture), so under a Firefox or Safari User-Agent they fail only when the page's error messages show V8 (Chromium itself), or, when the messages tell no engine, when most of them are there at once. Desktop-only APIs under an Android User-Agent (device emulation) fail. Desktop Chromium missing several of its APIs only warns: Brave and enterprise policies remove some.",
  ref: 'https://developer.chrome.com/docs/capabilities/status',
  needs: ['features'],
  uses: ['engine'],
  judge: ({ features, engine }, { server }) => {
    const claim = claimOf(server)
    const claimed = engineClaimText(claim)
    const { engine: running, basis: by } = pageEngine(engine)
    const has = (a: string) => features.apis[a] === true
    if (claim.engine === 'unknown') return na('the User-Agent header names no known engine')
    if (claim.engine !== 'blink') {
      const chromiumFirst = CHROMIUM_FIRST_APIS.filter(has)
      // The engine claimed is the one running: what it has is what it ships, tables aside.
      const verdict: Verdict =
        running === claim.engine ? 'pass' : running === 'blink' ? (chromiumFirst.length ? 'fail' : 'pass') : chromiumFirst.length * 2 >= CHROMIUM_FIRST_APIS.length ? 'fail' : 'pass'
      return {
        verdict,
        observed: { chromiumFirstApis: chromiumFirst, engine: by },
        expected:
          running === claim.engine
            ? `the APIs ${ENGINE_LABEL[running]} ships, Chromium's first ones it adopted included`
            : running === 'blink'
              ? `no Chromium API in ${claimed}`
              : `fewer than half of Chromium's ${CHROMIUM_FIRST_APIS.length} own APIs in ${claimed}`,
      }
    }
    if (running !== 'unknown' && running !== 'blink') {
      // Chromium claimed, another engine runs: its missing APIs are that engine's, not a policy's.
      const missing = Object.keys(BLINK_DESKTOP_APIS).filter((a) => !has(a))
      return { verdict: 'fail', observed: { missing, engine: by }, expected: `the APIs ${claimed} ships, on V8 (Blink)` }
    }
    if (claim.os === 'android') {
      const desktop = DESKTOP_ONLY_BLINK.filter(has)
      return { verdict: desktop.length >= 2 ? 'fail' : 'pass', observed: { desktopOnlyApis: desktop, engine: by }, expected: 'no desktop-only Chromium API under an Android User-Agent' }
    }
    if (!features.secureContext) return { verdict: 'pass', observed: { secureContext: false, engine: by }, expected: 'a secure context to compare (secure-only APIs are hidden)' }
    const missing = missingDesktopApis(features, claim)
    return {
      verdict: missing.length >= 3 ? 'warn' : 'pass',
      observed: { missing, engine: by },
      expected: `the ${Object.keys(BLINK_DESKTOP_APIS).length} APIs desktop ${claimed} ships in secure contexts`,
    }
  },
})

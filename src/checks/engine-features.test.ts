import { describe, expect, test } from 'bun:test'
import { engineClaim } from '../../common/user-agent'
import type { FeatureApis, PermissionsApiSignals } from '../../common/signals/permissions-api'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { engineMarkers, featureApis, missingDesktopApis } from './engine-features'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
const missing = { ok: false as const, error: { kind: 'error' as const, message: 'boom' }, ms: 1 }
const NO_MARKERS = { webkitRequestFileSystem: false, cssAppRegion: false, mozInnerScreenX: false, cssMozAppearance: false, gestureEvent: false, applePaySession: false, cssTouchCallout: false }

function run(features: FeatureApis, ua: string) {
  const server: ServerObservation = { ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0 }
  const s: PermissionsApiSignals = { registry: missing, notification: missing, lies: missing, worker: missing, features: { ok: true, value: features, ms: 1 } }
  const [markers, apis] = runChecks([[engineMarkers, 30], [featureApis, 20]], s, server, {}).checks
  return { markers: markers!, apis: apis! }
}

describe('engine markers and feature APIs', () => {
  test('a real Safari: WebKit markers, no Chromium-only API', () => {
    const r = run({ secureContext: true, apis: { credentials: true, webauthn: true }, markers: { ...NO_MARKERS, gestureEvent: true, applePaySession: true } }, SAFARI)
    expect([r.markers.verdict, r.apis.verdict]).toEqual(['pass', 'pass'])
  })

  test('Chromium under a Safari User-Agent: Blink markers and WebUSB fail', () => {
    const r = run({ secureContext: true, apis: { usb: true, hid: true }, markers: { ...NO_MARKERS, webkitRequestFileSystem: true } }, SAFARI)
    expect(r.markers).toMatchObject({ verdict: 'fail', observed: { markersSay: 'Chromium (Blink)', present: ['webkitRequestFileSystem'] } })
    expect(r.apis).toMatchObject({ verdict: 'fail', observed: { chromiumOnlyApis: ['usb', 'hid'] } })
  })

  test('no marker at all is not applicable', () => {
    expect(run({ secureContext: true, apis: {}, markers: NO_MARKERS }, CHROME).markers).toMatchObject({ verdict: 'na', expected: 'no engine marker found' })
  })

  test('missingDesktopApis lists only what desktop Chromium of that version ships, in secure contexts', () => {
    const chrome = engineClaim(CHROME)
    const few: FeatureApis = { secureContext: true, apis: { usb: true, credentials: true, webauthn: true, wakeLock: true, mediaDevices: true, clipboard: true, fileSystemAccess: true, hid: true, serial: true }, markers: NO_MARKERS }
    expect(missingDesktopApis(few, chrome)).toEqual(['eyeDropper', 'localFonts', 'windowManagement'])
    expect(missingDesktopApis({ ...few, secureContext: false }, chrome)).toEqual([])
    expect(missingDesktopApis(few, engineClaim(SAFARI))).toEqual([])
  })
})

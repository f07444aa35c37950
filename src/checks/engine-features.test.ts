import { describe, expect, test } from 'bun:test'
import { engineClaim } from '../../common/user-agent'
import type { FeatureApis, PermissionsApiSignals } from '../../common/signals/permissions-api'
import type { JsEngine } from '../../common/signals/shared'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import {
  CHROMIUM_156_FEATURES, CHROMIUM_156_UA, FIREFOX_153_FEATURES, FIREFOX_153_UA, INJECTED_FIREFOX_UA, SPIDERMONKEY_153, V8_156,
} from '../core/tools/permissions-api.fixture'
import { engineMarkers, featureApis, missingDesktopApis } from './engine-features'
import { NO_ENGINE_SIGNAL } from './page-engine'
import { missing, ok } from '../../tests/support/signals'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
const ANDROID = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const NO_MARKERS = { webkitRequestFileSystem: false, cssAppRegion: false, mozInnerScreenX: false, cssMozAppearance: false, gestureEvent: false, applePaySession: false, cssTouchCallout: false }
/** JavaScriptCore's wording (no Safari on this machine: as in bot-detector.fixture.ts). */
const JSC: JsEngine = { evalLength: 37, nullError: "null is not an object (evaluating 'JSON.parse('null').x')", rangeError: 'toFixed() argument must be between 0 and 100' }
/** Error messages that fit no engine (a patched toFixed disagrees with V8's null message). */
const MIXED: JsEngine = { ...V8_156, rangeError: 'precision -1 out of range' }

function run(features: FeatureApis, ua: string, engine?: JsEngine) {
  const server: ServerObservation = { ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0 }
  const none = missing('error', 'boom')
  const s: PermissionsApiSignals = { registry: none, notification: none, lies: none, worker: none, features: ok(features), engine: engine ? ok(engine) : none }
  const [markers, apis] = runChecks([[engineMarkers, 30], [featureApis, 20]], s, server, {}).checks
  return { markers: markers!, apis: apis! }
}

describe('engine markers and feature APIs', () => {
  test('Firefox ESR 153 as captured: Web Serial and Document PiP on SpiderMonkey pass, and say the engine they judged by', () => {
    const r = run(FIREFOX_153_FEATURES, FIREFOX_153_UA, SPIDERMONKEY_153)
    expect(r.apis).toMatchObject({ verdict: 'pass', observed: { chromiumFirstApis: ['serial', 'documentPip'], engine: "judged by SpiderMonkey (Gecko), the engine the page's error messages show" } })
    expect(r.markers).toMatchObject({ verdict: 'pass', observed: { markersSay: 'Firefox (Gecko)', engine: "judged by SpiderMonkey (Gecko), the engine the page's error messages show" } })
  })

  test('the same two APIs pass without the engine signal too: fewer than half of Chromium’s own', () => {
    expect(run(FIREFOX_153_FEATURES, FIREFOX_153_UA).apis).toMatchObject({ verdict: 'pass', observed: { engine: NO_ENGINE_SIGNAL } })
    expect(run(FIREFOX_153_FEATURES, FIREFOX_153_UA, MIXED).apis).toMatchObject({ verdict: 'pass', observed: { engine: "judged without an engine: the page's error messages match none" } })
  })

  test('Chromium 156 under a Firefox User-Agent (the injected Firefox fingerprint): V8 with Chromium’s APIs and markers fails', () => {
    const r = run(CHROMIUM_156_FEATURES, INJECTED_FIREFOX_UA, V8_156)
    expect(r.apis).toMatchObject({ verdict: 'fail', observed: { engine: "judged by V8 (Blink), the engine the page's error messages show" } })
    expect((r.apis.observed as { chromiumFirstApis: string[] }).chromiumFirstApis).toHaveLength(10)
    expect(r.markers).toMatchObject({ verdict: 'fail', observed: { markersSay: 'Chromium (Blink)' } })
  })

  test('without an engine, most of Chromium’s own APIs under a Safari User-Agent still fail', () => {
    expect(run(CHROMIUM_156_FEATURES, SAFARI).apis.verdict).toBe('fail')
    expect(run({ secureContext: true, apis: { usb: true, hid: true }, markers: NO_MARKERS }, SAFARI).apis.verdict).toBe('pass')
  })

  test('V8 under a Safari User-Agent fails on a single Chromium API', () => {
    expect(run({ secureContext: true, apis: { usb: true }, markers: NO_MARKERS }, SAFARI, V8_156).apis.verdict).toBe('fail')
    expect(run({ secureContext: true, apis: {}, markers: NO_MARKERS }, SAFARI, V8_156).apis.verdict).toBe('pass')
  })

  test('a real Safari: WebKit markers, no Chromium API', () => {
    const r = run({ secureContext: true, apis: { credentials: true, webauthn: true }, markers: { ...NO_MARKERS, gestureEvent: true, applePaySession: true } }, SAFARI, JSC)
    expect([r.markers.verdict, r.apis.verdict]).toEqual(['pass', 'pass'])
  })

  test('a Chromium marker under a Safari User-Agent fails when the messages tell no engine; on JavaScriptCore it is a property WebKit adopted', () => {
    const blinkMarkers = { ...NO_MARKERS, webkitRequestFileSystem: true }
    expect(run({ secureContext: true, apis: {}, markers: blinkMarkers }, SAFARI).markers.verdict).toBe('fail')
    // JavaScriptCore runs the page as claimed: a marker the table gives Chromium is one WebKit adopted.
    expect(run({ secureContext: true, apis: {}, markers: { ...blinkMarkers, gestureEvent: true } }, SAFARI, JSC).markers).toMatchObject({ verdict: 'pass', observed: { markersSay: 'two engines at once', adopted: ['webkitRequestFileSystem'] } })
  })

  test('markers of two engines fail when the messages tell no engine', () => {
    expect(run({ secureContext: true, apis: {}, markers: { ...CHROMIUM_156_FEATURES.markers, mozInnerScreenX: true } }, CHROME).markers.verdict).toBe('fail')
  })

  test('no marker at all is not applicable', () => {
    expect(run({ secureContext: true, apis: {}, markers: NO_MARKERS }, CHROME).markers).toMatchObject({ verdict: 'na', expected: `no engine marker found (${NO_ENGINE_SIGNAL})` })
  })

  test('Chromium 156 as captured passes; a Chrome User-Agent on SpiderMonkey fails, its missing APIs listed', () => {
    expect(run(CHROMIUM_156_FEATURES, CHROMIUM_156_UA, V8_156).apis).toMatchObject({ verdict: 'pass', observed: { missing: [] } })
    const r = run(FIREFOX_153_FEATURES, CHROMIUM_156_UA, SPIDERMONKEY_153)
    expect(r.apis).toMatchObject({ verdict: 'fail', observed: { missing: ['usb', 'fileSystemAccess', 'hid', 'eyeDropper', 'localFonts', 'windowManagement'] } })
    expect(r.markers.verdict).toBe('fail')
  })

  test('desktop Chrome missing several of its APIs warns; under an Android User-Agent desktop-only APIs fail', () => {
    const few = { credentials: true, mediaDevices: true, userAgentData: true }
    expect(run({ secureContext: true, apis: few, markers: CHROMIUM_156_FEATURES.markers }, CHROME, V8_156).apis.verdict).toBe('warn')
    expect(run({ secureContext: false, apis: few, markers: CHROMIUM_156_FEATURES.markers }, CHROME, V8_156).apis.verdict).toBe('pass')
    expect(run(CHROMIUM_156_FEATURES, ANDROID, V8_156).apis).toMatchObject({ verdict: 'fail', observed: { desktopOnlyApis: ['hid', 'fileSystemAccess', 'eyeDropper', 'localFonts', 'documentPip', 'windowControlsOverlay'] } })
  })

  test('missingDesktopApis lists only what desktop Chromium of that version ships, in secure contexts', () => {
    const chrome = engineClaim(CHROME)
    const few: FeatureApis = { secureContext: true, apis: { usb: true, credentials: true, webauthn: true, wakeLock: true, mediaDevices: true, clipboard: true, fileSystemAccess: true, hid: true, serial: true }, markers: NO_MARKERS }
    expect(missingDesktopApis(few, chrome)).toEqual(['eyeDropper', 'localFonts', 'windowManagement'])
    expect(missingDesktopApis({ ...few, secureContext: false }, chrome)).toEqual([])
    expect(missingDesktopApis(few, engineClaim(SAFARI))).toEqual([])
  })
})

import { describe, expect, test } from 'bun:test'
import { summarize, type Check } from '../scoring'
import type { ServerObservation } from './observation'
import { PERMISSION_NAMES, type QueryOutcome } from '../../../common/permission-engines'
import type { PermissionsApiSignals } from '../../../common/signals/permissions-api'
import { permissionsApi } from './permissions-api'
import { CHROMIUM_156_UA, FIREFOX_153_UA, INJECTED_FIREFOX_UA, SPIDERMONKEY_153, V8_156, chromium156, firefox153 } from './permissions-api.fixture'

const CHROME_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const CHROME_90 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.93 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'
const ANDROID = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const SAFARI_15 = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Safari/605.1.15'

const server = (ua: string): ServerObservation => ({ ip: '192.0.2.9', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 1_800_000_000_000 })
const ok = <T>(value: T) => ({ ok: true as const, value, ms: 4 })
const err = (kind: 'unsupported' | 'timeout' | 'error' | 'blocked', message: string) => ({ ok: false as const, error: { kind, message }, ms: 4 })
const ENUM = (n: string): QueryOutcome => ({ error: 'TypeError', message: `The provided value '${n}' is not a valid enum value of type PermissionName.` })

/** What Chromium 131 on a desktop answers (from a real run, trimmed). */
const CHROMIUM_STATES: Record<string, QueryOutcome> = {
  geolocation: { state: 'prompt' }, notifications: { state: 'prompt' }, push: { state: 'prompt' }, midi: { state: 'prompt' }, camera: { state: 'prompt' },
  microphone: { state: 'prompt' }, 'background-fetch': { state: 'granted' }, 'background-sync': { state: 'granted' }, 'persistent-storage': { state: 'prompt' },
  accelerometer: { state: 'granted' }, gyroscope: { state: 'granted' }, magnetometer: { state: 'granted' }, 'clipboard-read': { state: 'prompt' },
  'clipboard-write': { state: 'granted' }, 'screen-wake-lock': { state: 'granted' }, 'display-capture': { state: 'prompt' }, 'idle-detection': { state: 'prompt' },
  'periodic-background-sync': { state: 'denied' }, 'payment-handler': { state: 'granted' }, 'storage-access': { state: 'prompt' }, 'window-management': { state: 'prompt' },
  'local-fonts': { state: 'prompt' }, nfc: { error: 'TypeError', message: 'Web NFC is not enabled.' },
}
const FIREFOX_STATES: Record<string, QueryOutcome> = {
  geolocation: { state: 'prompt' }, notifications: { state: 'prompt' }, push: { state: 'prompt' }, 'persistent-storage': { state: 'prompt' }, midi: { state: 'prompt' },
  camera: { state: 'prompt' }, microphone: { state: 'prompt' }, 'storage-access': { state: 'prompt' }, 'screen-wake-lock': { state: 'granted' },
}
const registry = (known: Record<string, QueryOutcome>) => ok({ results: Object.fromEntries(PERMISSION_NAMES.map((n) => [n, known[n] ?? ENUM(n)])), control: ENUM('xq-abc') })

const CHROMIUM_APIS = Object.fromEntries(
  ['usb', 'hid', 'serial', 'credentials', 'webauthn', 'paymentRequest', 'wakeLock', 'mediaDevices', 'clipboard', 'fileSystemAccess', 'eyeDropper', 'localFonts', 'windowManagement', 'documentPip', 'userAgentData', 'idleDetector', 'windowControlsOverlay'].map((a) => [a, true]),
)
const CHROMIUM_MARKERS = { webkitRequestFileSystem: true, cssAppRegion: true, mozInnerScreenX: false, cssMozAppearance: false, gestureEvent: false, applePaySession: false, cssTouchCallout: false }
const FIREFOX_MARKERS = { ...CHROMIUM_MARKERS, webkitRequestFileSystem: false, cssAppRegion: false, mozInnerScreenX: true, cssMozAppearance: true }

function chromium(over: Partial<PermissionsApiSignals> = {}): PermissionsApiSignals {
  return {
    registry: registry(CHROMIUM_STATES),
    notification: ok({ notification: 'default', query: 'prompt', queryError: null }),
    lies: ok({ query: [], status: [] }),
    worker: ok({ supported: true, states: { notifications: 'prompt', geolocation: 'prompt', camera: 'prompt', microphone: 'prompt', midi: 'prompt', 'persistent-storage': 'prompt' } }),
    features: ok({ secureContext: true, apis: CHROMIUM_APIS, markers: CHROMIUM_MARKERS }),
    engine: ok(V8_156),
    ...over,
  }
}

const byId = (checks: Check[], id: string) => {
  const c = checks.find((x) => x.id === id)
  if (!c) throw new Error(`no check ${id}`)
  return c
}
const judge = (s: PermissionsApiSignals, ua = CHROME_WIN) => permissionsApi.judge(s, server(ua))

describe('permissions-api judge', () => {
  test('a desktop Chrome passes every check', () => {
    const { checks, sections } = judge(chromium())
    expect(checks.filter((c) => c.verdict !== 'pass').map((c) => [c.id, c.verdict])).toEqual([])
    expect(summarize(checks).score).toBe(100)
    expect(sections!.permissions).toMatchObject({ engine: { byPermissions: 'blink', byMarkers: 'blink', byErrors: 'blink', claimed: 'blink' }, engineAtLeast: 111 })
  })

  test('a real Firefox passes', () => {
    const s = chromium({
      registry: registry(FIREFOX_STATES),
      worker: ok({ supported: true, states: { notifications: 'prompt', geolocation: 'prompt', camera: 'prompt', microphone: 'prompt', midi: 'prompt', 'persistent-storage': 'prompt' } }),
      features: ok({ secureContext: true, apis: { credentials: true, webauthn: true, mediaDevices: true, clipboard: true }, markers: FIREFOX_MARKERS }),
      engine: ok(SPIDERMONKEY_153),
    })
    const { checks } = judge(s, FIREFOX)
    expect(checks.filter((c) => c.verdict === 'fail' || c.verdict === 'warn').map((c) => c.id)).toEqual([])
    expect(byId(checks, 'permissions-version').verdict).toBe('na')
  })

  test('Chromium claiming to be Firefox fails the engine, marker and API checks', () => {
    const { checks } = judge(chromium(), FIREFOX)
    expect(byId(checks, 'permissions-engine').verdict).toBe('fail')
    expect(byId(checks, 'engine-markers').verdict).toBe('fail')
    expect(byId(checks, 'feature-apis').verdict).toBe('fail')
    expect(summarize(checks).score).toBe(10)
  })

  test('a User-Agent older than the engine fails the version check', () => {
    const v = byId(judge(chromium(), CHROME_90).checks, 'permissions-version')
    expect(v.verdict).toBe('fail')
    expect(v.observed).toMatchObject({ userAgentVersion: 90, engineAtLeast: 111, because: 'window-management' })
  })

  test('an engine older than its User-Agent fails the version check', () => {
    const old = { ...CHROMIUM_STATES }
    delete old['local-fonts']
    delete old['window-management']
    const v = byId(judge(chromium({ registry: registry(old) })).checks, 'permissions-version')
    expect(v.verdict).toBe('fail')
    expect(v.observed).toMatchObject({ unknownButExpected: ['local-fonts', 'window-management'] })
  })

  test('old headless: Notification denied while the query says prompt', () => {
    const { checks } = judge(chromium({ notification: ok({ notification: 'denied', query: 'prompt', queryError: null }) }))
    expect(byId(checks, 'notification-permission').verdict).toBe('fail')
  })

  test('a query answering "default" (not a PermissionState) disagrees with Notification', () => {
    const states = { ...CHROMIUM_STATES, notifications: { state: 'default' } }
    const notification = ok({ notification: 'default', query: 'default', queryError: null })
    expect(byId(judge(chromium({ registry: registry(states), notification })).checks, 'notification-permission').verdict).toBe('fail')
  })

  test('notifications denied on both sides only warns', () => {
    const states = { ...CHROMIUM_STATES, notifications: { state: 'denied' } }
    const { checks } = judge(chromium({ registry: registry(states), notification: ok({ notification: 'denied', query: 'denied', queryError: null }), worker: ok({ supported: true, states: { notifications: 'denied' } }) }))
    expect(byId(checks, 'notification-permission').verdict).toBe('pass')
    expect(byId(checks, 'notification-default').verdict).toBe('warn')
    expect(summarize(checks).score).toBe(96)
  })

  test('a stealth-patched query: proxy detected, fake status, worker disagrees, random name resolves', () => {
    const reg = registry(CHROMIUM_STATES)
    const s = chromium({
      registry: ok({ ...reg.value, control: { state: 'prompt' } }),
      lies: ok({ query: ['proxy'], status: ['status-own-props', 'status-state'] }),
      notification: ok({ notification: 'default', query: 'prompt', queryError: null }),
      worker: ok({ supported: true, states: { notifications: 'denied', geolocation: 'prompt' } }),
    })
    const { checks } = judge(s)
    for (const id of ['permission-random-name', 'permissions-query-native', 'permission-status-genuine', 'permissions-worker']) expect(byId(checks, id).verdict).toBe('fail')
    expect(summarize(checks).score).toBe(0)
  })

  test('desktop APIs under an Android User-Agent fail (device emulation)', () => {
    expect(byId(judge(chromium(), ANDROID).checks, 'feature-apis').verdict).toBe('fail')
  })

  test('desktop Chrome missing several of its APIs warns; an insecure context is not judged', () => {
    const few = { credentials: true, mediaDevices: true, userAgentData: true }
    expect(byId(judge(chromium({ features: ok({ secureContext: true, apis: few, markers: CHROMIUM_MARKERS }) })).checks, 'feature-apis').verdict).toBe('warn')
    expect(byId(judge(chromium({ features: ok({ secureContext: false, apis: few, markers: CHROMIUM_MARKERS }) })).checks, 'feature-apis').verdict).toBe('pass')
  })

  test('no Permissions API: fails for a version that has it, passes for Safari 15', () => {
    const none = chromium({ registry: err('unsupported', 'no navigator.permissions.query') })
    expect(byId(judge(none).checks, 'permissions-api-present').verdict).toBe('fail')
    expect(byId(judge(none, SAFARI_15).checks, 'permissions-api-present').verdict).toBe('pass')
  })

  test('markers of two engines at once fail when the error messages tell no engine; on V8 under a Chrome User-Agent the stray one is adopted', () => {
    const s = chromium({ features: ok({ secureContext: true, apis: CHROMIUM_APIS, markers: { ...CHROMIUM_MARKERS, mozInnerScreenX: true } }) })
    expect(byId(judge({ ...s, engine: err('timeout', 'no answer') }).checks, 'engine-markers').verdict).toBe('fail')
    expect(byId(judge(s).checks, 'engine-markers')).toMatchObject({ verdict: 'pass', observed: { adopted: ['mozInnerScreenX'] } })
  })

  test('missing signals and an unknown User-Agent give na', () => {
    const s: PermissionsApiSignals = {
      registry: err('timeout', 'no answer within 3000 ms'),
      notification: err('error', 'boom'),
      lies: err('error', 'boom'),
      worker: err('blocked', 'cannot start a worker'),
      features: err('error', 'boom'),
      engine: err('error', 'boom'),
    }
    const { checks } = judge(s, 'curl/8.5.0')
    expect(checks.every((c) => c.verdict === 'na')).toBe(true)
    expect(summarize(checks).score).toBe(100)
    expect(byId(judge(chromium(), 'curl/8.5.0').checks, 'permissions-engine').verdict).toBe('na')
  })

  test('Chromium 156 and Firefox ESR 153 as captured: no failed or warned check, 100', () => {
    for (const [s, ua] of [[chromium156(), CHROMIUM_156_UA], [firefox153(), FIREFOX_153_UA]] as const) {
      const { checks } = judge(s, ua)
      expect(checks.filter((c) => c.verdict === 'fail' || c.verdict === 'warn').map((c) => c.id)).toEqual([])
      expect(summarize(checks).score).toBe(100)
    }
    const { sections } = judge(firefox153(), FIREFOX_153_UA)
    expect(sections!.permissions).toMatchObject({
      engine: { byPermissions: 'gecko', byMarkers: 'gecko', byErrors: 'gecko', claimed: 'gecko' },
      apis: ['midi', 'opfs', 'serial', 'wakeLock', 'webauthn', 'clipboard', 'credentials', 'documentPip', 'pushManager', 'mediaDevices', 'notification', 'sharedWorker', 'serviceWorker', 'storageAccess', 'userActivation'],
    })
  })

  test('Chromium 156 under the injected Firefox fingerprint’s User-Agent: engine, markers and APIs fail, judged by V8', () => {
    const { checks } = judge(chromium156(), INJECTED_FIREFOX_UA)
    expect(checks.filter((c) => c.verdict === 'fail').map((c) => c.id)).toEqual(['permissions-engine', 'engine-markers', 'feature-apis'])
    for (const id of ['permissions-engine', 'engine-markers', 'feature-apis']) expect(byId(checks, id).observed).toMatchObject({ engine: "judged by V8 (Blink), the engine the page's error messages show" })
    expect(summarize(checks).score).toBe(10)
  })
})

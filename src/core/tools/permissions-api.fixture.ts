// permissions-api signals captured on this machine (issue 12, the tools matrix): Debian Chromium 156
// and Firefox ESR 153 (its default profile; resistFingerprinting gives the same), headful on
// Xvfb, no automation. Names a browser rejects as outside its PermissionName enum are rebuilt
// from the engine's wording (the probe keeps 160 characters of it), which is what the page sent.

import { PERMISSION_NAMES, type QueryOutcome } from '../../../common/permission-engines'
import type { FeatureApis, PermissionsApiSignals } from '../../../common/signals/permissions-api'
import type { JsEngine } from '../../../common/signals/shared'
import { ok } from '../../../tests/support/signals'

/** What permissions.query rejected as unknown said, in Chromium and in Firefox. */
export const blinkUnknown = (n: string): QueryOutcome => ({
  error: 'TypeError',
  message: `Failed to execute 'query' on 'Permissions': Failed to read the 'name' property from 'PermissionDescriptor': The provided value '${n}' is not a valid enum value of type PermissionName.`.slice(0, 160),
})
export const geckoUnknown = (n: string): QueryOutcome => ({ error: 'TypeError', message: `'${n}' (value of 'name' member of PermissionDescriptor) is not a valid value for enumeration PermissionName.` })

/** Every name of PERMISSION_NAMES: the known ones as given, the rest rejected as `unknown` words it. */
export const registryOf = (known: Readonly<Record<string, QueryOutcome>>, unknown: (n: string) => QueryOutcome) =>
  ok({ results: Object.fromEntries(PERMISSION_NAMES.map((n) => [n, known[n] ?? unknown(n)])), control: unknown('xq-01kypg80') })

/** The js-engine probe in each browser. */
export const V8_156: JsEngine = { nullError: "Cannot read properties of null (reading 'x')", evalLength: 33, rangeError: 'toFixed() digits argument must be between 0 and 100' }
export const SPIDERMONKEY_153: JsEngine = { nullError: "can't access property \"x\", JSON.parse(...) is null", evalLength: 37, rangeError: 'precision -1 out of range' }

/** The names Chromium 156 knows (a state, or rejected after parsing). */
export const CHROMIUM_156_KNOWN: Record<string, QueryOutcome> = {
  nfc: { error: 'TypeError', message: "Failed to execute 'query' on 'Permissions': Web NFC is not enabled." },
  midi: { state: 'prompt' },
  push: { state: 'prompt' },
  camera: { state: 'prompt' },
  gyroscope: { state: 'granted' },
  fullscreen: { error: 'TypeError', message: "Failed to execute 'query' on 'Permissions': Fullscreen Permission only supports allowWithoutGesture:true." },
  microphone: { state: 'prompt' },
  geolocation: { state: 'prompt' },
  'local-fonts': { state: 'prompt' },
  magnetometer: { state: 'granted' },
  'pointer-lock': { state: 'granted' },
  accelerometer: { state: 'granted' },
  'keyboard-lock': { state: 'granted' },
  notifications: { state: 'prompt' },
  'clipboard-read': { state: 'prompt' },
  'idle-detection': { state: 'prompt' },
  'storage-access': { state: 'granted' },
  'background-sync': { state: 'granted' },
  'clipboard-write': { state: 'granted' },
  'display-capture': { state: 'prompt' },
  'payment-handler': { state: 'granted' },
  'background-fetch': { state: 'granted' },
  'screen-wake-lock': { state: 'granted' },
  'system-wake-lock': { error: 'TypeError', message: "Failed to execute 'query' on 'Permissions': System Wake Lock is not enabled." },
  'speaker-selection': { error: 'TypeError', message: "Failed to execute 'query' on 'Permissions': The Speaker Selection API is not enabled." },
  'window-management': { state: 'prompt' },
  'persistent-storage': { state: 'prompt' },
  'ambient-light-sensor': { error: 'TypeError', message: "Failed to execute 'query' on 'Permissions': GenericSensorExtraClasses flag is not enabled." },
  'local-network-access': { state: 'prompt' },
  'web-app-installation': { error: 'TypeError', message: "Failed to execute 'query' on 'Permissions': The Web App Install API is not enabled." },
  'captured-surface-control': { state: 'prompt' },
  'periodic-background-sync': { state: 'denied' },
  'top-level-storage-access': { error: 'TypeError', message: "Failed to execute 'query' on 'Permissions': The requested origin is invalid." },
}

/** The names Firefox ESR 153 knows. */
export const FIREFOX_153_KNOWN: Record<string, QueryOutcome> = {
  midi: { state: 'prompt' },
  push: { state: 'prompt' },
  camera: { state: 'prompt' },
  microphone: { state: 'prompt' },
  geolocation: { state: 'prompt' },
  notifications: { state: 'prompt' },
  'storage-access': { state: 'prompt' },
  'screen-wake-lock': { state: 'granted' },
  'persistent-storage': { state: 'prompt' },
}

export const CHROMIUM_156_FEATURES: FeatureApis = {
  secureContext: true,
  apis: {
    xr: true, hid: true, usb: true, midi: true, opfs: true, share: false, serial: true, webNfc: false, webgpu: true, battery: true, contacts: false,
    keyboard: true, wakeLock: true, webauthn: true, bluetooth: false, clipboard: true, eyeDropper: true, localFonts: true, scheduling: true,
    credentials: true, documentPip: true, pushManager: true, idleDetector: true, mediaDevices: true, notification: true, periodicSync: true,
    presentation: true, sharedWorker: true, serviceWorker: true, storageAccess: true, userAgentData: true, backgroundSync: true,
    paymentRequest: true, userActivation: true, backgroundFetch: true, barcodeDetector: false, virtualKeyboard: true, fileSystemAccess: true,
    windowManagement: true, speechRecognition: true, networkInformation: true, windowControlsOverlay: true,
  },
  markers: {
    cssAppRegion: true, gestureEvent: false, applePaySession: false, cssTouchCallout: false, mozInnerScreenX: false, cssMozAppearance: false,
    webkitRequestFileSystem: true,
  },
}

/** Firefox ESR 153 has navigator.serial and documentPictureInPicture, which Chromium shipped first. */
export const FIREFOX_153_FEATURES: FeatureApis = {
  secureContext: true,
  apis: {
    xr: false, hid: false, usb: false, midi: true, opfs: true, share: false, serial: true, webNfc: false, webgpu: false, battery: false,
    contacts: false, keyboard: false, wakeLock: true, webauthn: true, bluetooth: false, clipboard: true, eyeDropper: false, localFonts: false,
    scheduling: false, credentials: true, documentPip: true, pushManager: true, idleDetector: false, mediaDevices: true, notification: true,
    periodicSync: false, presentation: false, sharedWorker: true, serviceWorker: true, storageAccess: true, userAgentData: false,
    backgroundSync: false, paymentRequest: false, userActivation: true, backgroundFetch: false, barcodeDetector: false, virtualKeyboard: false,
    fileSystemAccess: false, windowManagement: false, speechRecognition: false, networkInformation: false, windowControlsOverlay: false,
  },
  markers: {
    cssAppRegion: false, gestureEvent: false, applePaySession: false, cssTouchCallout: false, mozInnerScreenX: true, cssMozAppearance: true,
    webkitRequestFileSystem: false,
  },
}

const NOTIFICATION = ok({ notification: 'default', query: 'prompt', queryError: null })
const LIES = ok({ query: [] as string[], status: [] as string[] })
const WORKER = ok({ supported: true, states: { midi: 'prompt', camera: 'prompt', microphone: 'prompt', geolocation: 'prompt', notifications: 'prompt', 'persistent-storage': 'prompt' } })

export function chromium156(): PermissionsApiSignals {
  return { registry: registryOf(CHROMIUM_156_KNOWN, blinkUnknown), notification: NOTIFICATION, lies: LIES, worker: WORKER, features: ok(CHROMIUM_156_FEATURES), engine: ok(V8_156) }
}

export function firefox153(): PermissionsApiSignals {
  return { registry: registryOf(FIREFOX_153_KNOWN, geckoUnknown), notification: NOTIFICATION, lies: LIES, worker: WORKER, features: ok(FIREFOX_153_FEATURES), engine: ok(SPIDERMONKEY_153) }
}

export const CHROMIUM_156_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
export const FIREFOX_153_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0'
/** The spoofer-firefox of the tools matrix: fingerprint-injector's Windows Firefox fingerprint on headless Chromium 156. */
export const INJECTED_FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:135.0) Gecko/20100101 Firefox/135.0'

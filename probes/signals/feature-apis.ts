// Which feature APIs exist, and engine markers that only one engine has. The judge compares them
// with the browser the User-Agent claims: Chromium ships WebUSB/HID/Serial, userAgentData and
// the Fugu APIs; Firefox and Safari do not, and each has its own leftovers (mozInnerScreenX and
// -moz-appearance; GestureEvent, ApplePaySession and -webkit-touch-callout). Many of these only
// exist in secure contexts, which is reported with them. Presence is tested with `in` and
// typeof, never by calling anything (no prompts).

import type { FeatureApis } from '../../common/signals/permissions-api'

export function featureApis(): FeatureApis {
  const w = window as unknown as Record<string, unknown>
  const n = navigator as unknown as Record<string, unknown>
  const fn = (v: unknown) => typeof v === 'function'
  const css = (p: string, v: string) => {
    try {
      return CSS.supports(p, v)
    } catch {
      return false
    }
  }
  const storage = n.storage as { getDirectory?: unknown } | undefined
  const apis = {
    usb: 'usb' in n, hid: 'hid' in n, serial: 'serial' in n, bluetooth: 'bluetooth' in n, credentials: 'credentials' in n,
    webauthn: fn(w.PublicKeyCredential), paymentRequest: fn(w.PaymentRequest), share: fn(n.share), contacts: 'contacts' in n,
    battery: fn(n.getBattery), networkInformation: 'connection' in n, wakeLock: 'wakeLock' in n, presentation: 'presentation' in n,
    xr: 'xr' in n, mediaDevices: 'mediaDevices' in n, clipboard: 'clipboard' in n, fileSystemAccess: fn(w.showOpenFilePicker),
    opfs: fn(storage?.getDirectory), webgpu: 'gpu' in n, keyboard: 'keyboard' in n, virtualKeyboard: 'virtualKeyboard' in n,
    windowControlsOverlay: 'windowControlsOverlay' in n, userActivation: 'userActivation' in n, scheduling: 'scheduling' in n,
    serviceWorker: 'serviceWorker' in n, pushManager: fn(w.PushManager), notification: fn(w.Notification), midi: fn(n.requestMIDIAccess),
    webNfc: fn(w.NDEFReader), idleDetector: fn(w.IdleDetector), eyeDropper: fn(w.EyeDropper), barcodeDetector: fn(w.BarcodeDetector),
    backgroundFetch: fn(w.BackgroundFetchManager), backgroundSync: fn(w.SyncManager), periodicSync: fn(w.PeriodicSyncManager),
    localFonts: fn(w.queryLocalFonts), windowManagement: fn(w.getScreenDetails), documentPip: 'documentPictureInPicture' in w,
    sharedWorker: fn(w.SharedWorker), speechRecognition: 'SpeechRecognition' in w || 'webkitSpeechRecognition' in w,
    storageAccess: fn((document as unknown as Record<string, unknown>).requestStorageAccess), userAgentData: 'userAgentData' in n,
  }
  const markers = {
    webkitRequestFileSystem: fn(w.webkitRequestFileSystem),
    cssAppRegion: css('-webkit-app-region', 'drag'),
    mozInnerScreenX: 'mozInnerScreenX' in w,
    cssMozAppearance: css('-moz-appearance', 'none'),
    gestureEvent: fn(w.GestureEvent),
    applePaySession: 'ApplePaySession' in w,
    cssTouchCallout: css('-webkit-touch-callout', 'none'),
  }
  return { secureContext: isSecureContext, apis, markers }
}

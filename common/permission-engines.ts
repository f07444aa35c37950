// Which permission names and feature APIs each engine knows, and the pure inference from what a
// browser answered to the engine (and, for Blink, a version range). Shared by the
// permissions-api probe (the names to query, the APIs to look for) and its judge.
//
// Sources for the enums: Blink third_party/blink/renderer/modules/permissions/permission_descriptor.idl
// and permission_utils.cc; Gecko dom/webidl/Permissions.webidl (geolocation, notifications, push,
// persistent-storage, midi, storage-access, screen-wake-lock, camera, microphone); WebKit
// Source/WebCore/Modules/permissions/PermissionName.idl (accelerometer, background-fetch,
// bluetooth, camera, display-capture, geolocation, gyroscope, magnetometer, microphone, midi,
// nfc, notifications, push, screen-wake-lock, speaker-selection). A name outside the engine's
// IDL enum is rejected with a TypeError while the descriptor is converted ("… is not a valid enum
// value of type PermissionName" in Chromium, "… is not a valid value for enumeration
// PermissionName" in Firefox), before any permission logic runs; a known name the build does not
// support is rejected later, with NotSupportedError or a TypeError saying it is not enabled.

import type { QueryOutcome } from './signals/permissions-api'
import type { Engine } from './user-agent'

export type { QueryOutcome }

/** The names queried, in a deliberate order: the spec registry first, then engine-specific ones. */
export const PERMISSION_NAMES = [
  'geolocation', 'notifications', 'push', 'midi', 'camera', 'microphone', 'speaker-selection', 'device-info', 'background-fetch',
  'background-sync', 'bluetooth', 'persistent-storage', 'ambient-light-sensor', 'accelerometer', 'gyroscope', 'magnetometer',
  'clipboard-read', 'clipboard-write', 'screen-wake-lock', 'system-wake-lock', 'nfc', 'display-capture', 'accessibility-events',
  'idle-detection', 'periodic-background-sync', 'payment-handler', 'storage-access', 'top-level-storage-access', 'window-management',
  'window-placement', 'local-fonts', 'keyboard-lock', 'pointer-lock', 'fullscreen', 'captured-surface-control', 'speaker',
  'camera-pan-tilt-zoom', 'xr-spatial-tracking', 'web-app-installation', 'local-network-access', 'protected-media-identifier',
  'durable-storage', 'vr', 'ar',
] as const

/** recognised: the engine knows the name (resolved, or rejected after parsing); unknown: not in its enum. */
export type NameStatus = 'granted' | 'denied' | 'prompt' | 'unsupported' | 'unknown'

export function classifyOutcome(o: QueryOutcome): NameStatus {
  if ('state' in o) return o.state === 'granted' || o.state === 'denied' ? o.state : 'prompt'
  if (o.error !== 'TypeError') return 'unsupported'
  // Chromium rejects known-but-disabled names with a TypeError too, but says why.
  if (/enum/i.test(o.message)) return 'unknown'
  return /not enabled|not supported|only supports|is invalid|requires/i.test(o.message) ? 'unsupported' : 'unknown'
}

export const recognised = (s: NameStatus | undefined) => s !== undefined && s !== 'unknown'

/**
 * Names only one engine's enum had when this was written. Engines adopt names, so this is one
 * witness among others: the checks let the engine the page's error messages show settle it
 * (src/checks/engine-claim.ts fitsClaim).
 */
const BLINK_ONLY = ['background-sync', 'payment-handler', 'clipboard-read', 'clipboard-write', 'periodic-background-sync', 'idle-detection']
const WEBKIT_NOT_GECKO = ['accelerometer', 'gyroscope', 'speaker-selection', 'display-capture', 'background-fetch']

export function engineFromPermissions(status: Readonly<Record<string, NameStatus>>): Engine {
  if (BLINK_ONLY.some((n) => recognised(status[n]))) return 'blink'
  if (WEBKIT_NOT_GECKO.some((n) => recognised(status[n]))) return 'webkit'
  if (recognised(status['persistent-storage'])) return 'gecko'
  return 'unknown'
}

/**
 * Chromium milestones in which names joined the enum (chromestatus / release notes):
 * Periodic Background Sync 80, Screen Wake Lock 84, Idle Detection 94, Window Placement 100
 * (renamed window-management in 111, the old name later dropped), Local Font Access 103.
 */
export const BLINK_NAME_SINCE: Readonly<Record<string, { since: number; dropped?: boolean }>> = {
  'periodic-background-sync': { since: 80 },
  'screen-wake-lock': { since: 84 },
  'idle-detection': { since: 94 },
  'window-placement': { since: 100, dropped: true },
  'local-fonts': { since: 103 },
  'window-management': { since: 111 },
}

export interface VersionEvidence {
  /** The engine is at least this version (newest recognised name). */
  atLeast: number | null
  atLeastBecause: string | null
  /** Names the claimed version should know (added two or more milestones earlier) but does not. */
  missing: string[]
}

export function blinkVersionEvidence(status: Readonly<Record<string, NameStatus>>, claimedMajor: number | null): VersionEvidence {
  let atLeast: number | null = null
  let atLeastBecause: string | null = null
  const missing: string[] = []
  for (const [name, { since, dropped }] of Object.entries(BLINK_NAME_SINCE)) {
    const s = status[name]
    if (recognised(s) && (atLeast === null || since > atLeast)) {
      atLeast = since
      atLeastBecause = name
    }
    if (s === 'unknown' && !dropped && claimedMajor !== null && claimedMajor >= since + 2) missing.push(name)
  }
  return { atLeast, atLeastBecause, missing }
}

/** Feature APIs looked for, each with the engines that ship it (b: Blink, g: Gecko, w: WebKit). */
export const FEATURE_APIS = [
  'usb', 'hid', 'serial', 'bluetooth', 'credentials', 'webauthn', 'paymentRequest', 'share', 'contacts', 'battery', 'networkInformation',
  'wakeLock', 'presentation', 'xr', 'mediaDevices', 'clipboard', 'fileSystemAccess', 'opfs', 'webgpu', 'keyboard', 'virtualKeyboard',
  'windowControlsOverlay', 'userActivation', 'scheduling', 'serviceWorker', 'pushManager', 'notification', 'midi', 'webNfc',
  'idleDetector', 'eyeDropper', 'barcodeDetector', 'backgroundFetch', 'backgroundSync', 'periodicSync', 'localFonts',
  'windowManagement', 'documentPip', 'sharedWorker', 'speechRecognition', 'storageAccess', 'userAgentData',
] as const

/** Engine markers: properties and CSS that only one engine has. */
export const ENGINE_MARKERS = {
  blink: ['webkitRequestFileSystem', 'cssAppRegion'],
  gecko: ['mozInnerScreenX', 'cssMozAppearance'],
  webkit: ['gestureEvent', 'applePaySession', 'cssTouchCallout'],
} as const

export type EngineMarker = (typeof ENGINE_MARKERS)[keyof typeof ENGINE_MARKERS][number]

/** The engine the markers point to; 'mixed' when markers of two engines are present. */
export function engineFromMarkers(markers: Readonly<Record<string, boolean>>): Engine | 'mixed' {
  const hits = (Object.keys(ENGINE_MARKERS) as Array<keyof typeof ENGINE_MARKERS>).filter((e) => ENGINE_MARKERS[e].some((m) => markers[m]))
  if (hits.length > 1) return 'mixed'
  return hits[0] ?? 'unknown'
}

/**
 * APIs Chromium shipped first and long alone (the Fugu APIs, userAgentData). Other engines adopt
 * some in time: Firefox ESR 153 has navigator.serial and documentPictureInPicture. So presence is
 * judged against the engine the page's error messages show (src/checks/engine-features.ts), and
 * only Chromium itself, or most of this list at once, gives a non-Chromium claim away.
 */
export const CHROMIUM_FIRST_APIS = ['usb', 'hid', 'serial', 'userAgentData', 'backgroundFetch', 'periodicSync', 'idleDetector', 'localFonts', 'windowManagement', 'documentPip'] as const

/** APIs desktop Chromium exposes in secure contexts, with the milestone that shipped them. */
export const BLINK_DESKTOP_APIS: Readonly<Record<string, number>> = {
  usb: 61, credentials: 51, webauthn: 67, wakeLock: 84, mediaDevices: 47, clipboard: 66, fileSystemAccess: 86, hid: 89, serial: 89, eyeDropper: 95, localFonts: 103, windowManagement: 100,
}

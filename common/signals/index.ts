// Every tool's signal schema by tool id: what its page sends as `results.signals`. The page
// runner (probes/core/runner.ts) is typed by it, so a probe whose output drifts from the
// schema the server validates fails the type check; the server validates with the same schemas.

import type { TSchema } from '@sinclair/typebox'
import type { ToolId } from '../tools'
import { BotDetectorSignals } from './bot-detector'
import { IpLeakSignals } from './ip-leak'
import { WebrtcLeakSignals } from './webrtc-leak'
import { HttpHeadersSignals } from './http-headers'
import { BrowserFingerprintSignals } from './browser-fingerprint'
import { CanvasFingerprintSignals } from './canvas-fingerprint'
import { FontDetectionSignals } from './font-detection'
import { AudioFingerprintSignals } from './audio-fingerprint'
import { TlsFingerprintSignals } from './tls-fingerprint'
import { TimezoneGeoSignals } from './timezone-geo'
import { ScreenDisplaySignals } from './screen-display'
import { PermissionsApiSignals } from './permissions-api'
import { DnsLeakSignals } from './dns-leak'
import { VpnDetectorSignals } from './vpn-detector'

export const TOOL_SIGNALS = {
  'bot-detector': BotDetectorSignals,
  'ip-leak': IpLeakSignals,
  'webrtc-leak': WebrtcLeakSignals,
  'http-headers': HttpHeadersSignals,
  'browser-fingerprint': BrowserFingerprintSignals,
  'canvas-fingerprint': CanvasFingerprintSignals,
  'font-detection': FontDetectionSignals,
  'audio-fingerprint': AudioFingerprintSignals,
  'tls-fingerprint': TlsFingerprintSignals,
  'timezone-geo': TimezoneGeoSignals,
  'screen-display': ScreenDisplaySignals,
  'permissions-api': PermissionsApiSignals,
  'dns-leak': DnsLeakSignals,
  'vpn-detector': VpnDetectorSignals,
} as const satisfies Record<ToolId, TSchema>

// Server-side definitions of the tools, keyed by identifier. A tool's page collects the
// signals its definition validates and judges.

import type { ToolId } from '../../../common/tools'
import type { RegisteredTool } from './types'
import { botDetector } from './bot-detector'
import { audioFingerprint } from './audio-fingerprint'
import { canvasFingerprint } from './canvas-fingerprint'
import { browserFingerprint } from './browser-fingerprint'
import { fontDetection } from './font-detection'
import { httpHeaders } from './http-headers'
import { ipLeak } from './ip-leak'
import { permissionsApi } from './permissions-api'
import { screenDisplay } from './screen-display'
import { dnsLeak } from './dns-leak'
import { timezoneGeo } from './timezone-geo'
import { tlsFingerprint } from './tls-fingerprint'
import { vpnDetector } from './vpn-detector'
import { webrtcLeak } from './webrtc-leak'

export const TOOL_DEFINITIONS: Record<ToolId, RegisteredTool> = {
  'bot-detector': botDetector,
  'audio-fingerprint': audioFingerprint,
  'canvas-fingerprint': canvasFingerprint,
  'browser-fingerprint': browserFingerprint,
  'font-detection': fontDetection,
  'http-headers': httpHeaders,
  'ip-leak': ipLeak,
  'permissions-api': permissionsApi,
  'screen-display': screenDisplay,
  'dns-leak': dnsLeak,
  'timezone-geo': timezoneGeo,
  'tls-fingerprint': tlsFingerprint,
  'vpn-detector': vpnDetector,
  'webrtc-leak': webrtcLeak,
}

// Font-detection signals of an ordinary Windows desktop Chrome and the font sets of other
// systems, for the tool's tests and its checks' (src/checks/font-list, claimed-os-fonts,
// font-witnesses).

import type { FontDetectionSignals, FontMetrics } from '../../../common/signals/font-detection'
import type { Check } from '../scoring'
import { V8 } from './bot-detector.fixture'
import { fontDetection } from './font-detection'
import type { ServerObservation } from './observation'

export const WIN_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
export const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
export const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'

export const server = (userAgent: string, headers: [string, string][] = []): ServerObservation => ({ ip: '203.0.113.7', userAgent, headers: [['user-agent', userAgent], ...headers], receivedAt: 1_800_000_000_000 })
export const ok = <T>(value: T) => ({ ok: true as const, value, ms: 3 })
export const err = (kind: 'unsupported' | 'timeout' | 'error', message: string) => ({ ok: false as const, error: { kind, message }, ms: 3 })

export const sys = (family: string) => ({ caption: family, icon: family, menu: family, 'message-box': family, 'small-caption': family, 'status-bar': family })
export const metrics = (detected: string[], over: Partial<FontMetrics> = {}) =>
  ok({ detected, tested: 139, bases: { monospace: [433.5, 56] as [number, number], 'sans-serif': [475.4, 55] as [number, number], serif: [473.5, 55] as [number, number] }, controlDetected: false, stable: true, offsetAgrees: true, mainFrameAgrees: true, frame: 'iframe' as const, ...over })

export const WINDOWS_FONTS = ['Segoe UI', 'Segoe UI Symbol', 'Segoe UI Emoji', 'Marlett', 'Microsoft Sans Serif', 'Calibri', 'Cambria', 'Consolas', 'Arial', 'Times New Roman', 'Courier New', 'Verdana', 'Georgia', 'Tahoma']
export const CONTAINER_FONTS = ['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono', 'Liberation Sans', 'Liberation Serif', 'Liberation Mono', 'Arimo', 'Tinos', 'Cousine', 'Arial', 'Times New Roman', 'Courier New', 'Helvetica']

/** A Windows desktop Chrome, with `over` replacing whole signals. */
export function signals(over: Partial<FontDetectionSignals> = {}): FontDetectionSignals {
  return {
    metrics: metrics(WINDOWS_FONTS),
    fontsCheck: ok({ control: true, absent: [], tested: 139 }),
    fontFace: ok({ loaded: ['Segoe UI', 'Calibri'], failed: ['Helvetica Neue', 'Geneva', 'DejaVu Sans'], control: false }),
    systemFonts: ok(sys('"Segoe UI"')),
    platform: ok({ platform: 'Win32', uaDataPlatform: 'Windows' }),
    engine: ok(V8),
    ...over,
  }
}

export const judge = (s: FontDetectionSignals, ua = WIN_CHROME, headers: [string, string][] = []) => fontDetection.judge(s, server(ua, headers))
export const byId = (checks: Check[], id: string) => {
  const c = checks.find((x) => x.id === id)
  if (!c) throw new Error(`no check ${id}`)
  return c
}

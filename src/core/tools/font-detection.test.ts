import { describe, expect, test } from 'bun:test'
import { summarize, type Check } from '../scoring'
import { fontDetection, type FontDetectionSignals } from './font-detection'
import type { ServerObservation } from './observation'

const WIN_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'

const server = (userAgent: string, headers: [string, string][] = []): ServerObservation => ({ ip: '203.0.113.7', userAgent, headers: [['user-agent', userAgent], ...headers], receivedAt: 1_800_000_000_000 })
const ok = <T>(value: T) => ({ ok: true as const, value, ms: 3 })
const err = (kind: 'unsupported' | 'timeout' | 'error', message: string) => ({ ok: false as const, error: { kind, message }, ms: 3 })

const sys = (family: string) => ({ caption: family, icon: family, menu: family, 'message-box': family, 'small-caption': family, 'status-bar': family })
const metrics = (detected: string[], over: Partial<Extract<FontDetectionSignals['metrics'], { ok: true }>['value']> = {}) =>
  ok({ detected, tested: 139, bases: { monospace: [433.5, 56] as [number, number], 'sans-serif': [475.4, 55] as [number, number], serif: [473.5, 55] as [number, number] }, controlDetected: false, stable: true, offsetAgrees: true, mainFrameAgrees: true, frame: 'iframe' as const, ...over })

const WINDOWS_FONTS = ['Segoe UI', 'Segoe UI Symbol', 'Segoe UI Emoji', 'Marlett', 'Microsoft Sans Serif', 'Calibri', 'Cambria', 'Consolas', 'Arial', 'Times New Roman', 'Courier New', 'Verdana', 'Georgia', 'Tahoma']
const CONTAINER_FONTS = ['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono', 'Liberation Sans', 'Liberation Serif', 'Liberation Mono', 'Arimo', 'Tinos', 'Cousine', 'Arial', 'Times New Roman', 'Courier New', 'Helvetica']

function signals(over: Partial<FontDetectionSignals> = {}): FontDetectionSignals {
  return {
    metrics: metrics(WINDOWS_FONTS),
    fontsCheck: ok({ control: true, absent: [], tested: 139 }),
    fontFace: ok({ loaded: ['Segoe UI', 'Calibri'], failed: ['Helvetica Neue', 'Geneva', 'DejaVu Sans'], control: false }),
    systemFonts: ok(sys('"Segoe UI"')),
    platform: ok({ platform: 'Win32', uaDataPlatform: 'Windows' }),
    ...over,
  }
}

const judge = (s: FontDetectionSignals, ua = WIN_CHROME, headers: [string, string][] = []) => fontDetection.judge(s, server(ua, headers))
const byId = (checks: Check[], id: string) => {
  const c = checks.find((x) => x.id === id)
  if (!c) throw new Error(`no check ${id}`)
  return c
}

describe('font-detection judge', () => {
  test('a Windows desktop Chrome passes every check', () => {
    const { checks, sections } = judge(signals())
    expect(checks.filter((c) => c.verdict !== 'pass').map((c) => c.id)).toEqual([])
    expect(summarize(checks).score).toBe(100)
    expect(sections!.fonts).toMatchObject({ inferredOs: 'windows', confidence: 'strong', count: WINDOWS_FONTS.length, claimedOs: 'windows' })
  })

  test('headless Chromium in a container: Linux fonts agree with a Linux UA, but the font set is a server one', () => {
    const s = signals({
      metrics: metrics(CONTAINER_FONTS),
      fontFace: ok({ loaded: ['DejaVu Sans', 'Liberation Sans'], failed: ['Segoe UI', 'Calibri'], control: false }),
      systemFonts: ok(sys('Arial')),
      platform: ok({ platform: 'Linux x86_64', uaDataPlatform: 'Linux' }),
    })
    const { checks } = judge(s, HEADLESS)
    expect(byId(checks, 'fonts-match-os').verdict).toBe('pass')
    expect(byId(checks, 'system-font-os').verdict).toBe('pass')
    expect(byId(checks, 'font-set-desktop').verdict).toBe('warn')
    expect(summarize(checks).score).toBe(94)
  })

  test('a Windows User-Agent on a Linux box fails the OS check and the system-font check', () => {
    const s = signals({ metrics: metrics(CONTAINER_FONTS), fontFace: ok({ loaded: ['DejaVu Sans'], failed: [], control: false }), systemFonts: ok(sys('Arial')) })
    const { checks } = judge(s, WIN_CHROME)
    const os = byId(checks, 'fonts-match-os')
    expect(os.verdict).toBe('fail')
    expect(os.source).toBe('server')
    expect(os.expected).toContain('not of Linux')
    expect(byId(checks, 'system-font-os').verdict).toBe('fail')
    expect(summarize(checks).score).toBeLessThanOrEqual(40)
  })

  test('Segoe UI and Calibri on a browser that claims macOS fails', () => {
    const { checks } = judge(signals(), MAC_CHROME)
    expect(byId(checks, 'fonts-match-os').verdict).toBe('fail')
    expect(byId(checks, 'system-font-os').verdict).toBe('fail')
  })

  test('a Mac with Office and a few Windows fonts installed still passes', () => {
    const s = signals({
      metrics: metrics(['Helvetica Neue', 'Menlo', 'Monaco', 'Geneva', 'Lucida Grande', 'Calibri', 'Cambria', 'Consolas', 'Segoe UI']),
      fontFace: ok({ loaded: ['Helvetica Neue', 'Calibri'], failed: [], control: false }),
      systemFonts: ok(sys('system-ui')),
      platform: ok({ platform: 'MacIntel', uaDataPlatform: 'macOS' }),
    })
    const { checks } = judge(s, MAC_CHROME)
    expect(byId(checks, 'fonts-match-os').verdict).toBe('pass')
    expect(summarize(checks).score).toBe(100)
  })

  test('"system-ui" on a Windows claim only warns', () => {
    const { checks } = judge(signals({ systemFonts: ok(sys('system-ui')) }))
    expect(byId(checks, 'system-font-os').verdict).toBe('warn')
  })

  test('noised metrics are reported as such and their font list is not used', () => {
    const { checks, sections } = judge(signals({ metrics: metrics(['Segoe UI', 'Zapfino', 'Ubuntu'], { controlDetected: true }) }))
    expect(byId(checks, 'font-metrics-honest').verdict).toBe('warn')
    expect(byId(checks, 'fonts-match-os').verdict).toBe('na')
    expect(byId(checks, 'fonts-detected').verdict).toBe('na')
    expect(sections!.fonts).toMatchObject({ noised: true, detected: [] })
  })

  test('a page realm that measures differently from the iframe is a targeted patch', () => {
    const { checks } = judge(signals({ metrics: metrics(WINDOWS_FONTS, { mainFrameAgrees: false }) }))
    expect(byId(checks, 'font-metrics-honest').verdict).toBe('fail')
  })

  test('local() loading a random name fails; a local font missing from the metrics warns', () => {
    expect(byId(judge(signals({ fontFace: ok({ loaded: ['Segoe UI'], failed: [], control: true }) })).checks, 'font-face-local').verdict).toBe('fail')
    expect(byId(judge(signals({ fontFace: ok({ loaded: ['Segoe UI', 'Ubuntu'], failed: [], control: false }) })).checks, 'font-face-local').verdict).toBe('warn')
  })

  test('document.fonts.check: spec behaviour passes, a discriminating check that contradicts the metrics warns', () => {
    expect(byId(judge(signals()).checks, 'fonts-check-api').verdict).toBe('pass')
    const lying = judge(signals({ fontsCheck: ok({ control: false, absent: ['Segoe UI', 'Marlett', 'Calibri', 'Arial', 'Consolas', 'Cambria', 'Tahoma', 'Verdana', 'Georgia', 'Courier New', 'Segoe UI Symbol', 'Segoe UI Emoji', 'Times New Roman', 'Microsoft Sans Serif'], tested: 139 }) }))
    expect(byId(lying.checks, 'fonts-check-api').verdict).toBe('warn')
  })

  test('no fonts at all warns', () => {
    expect(byId(judge(signals({ metrics: metrics([]) })).checks, 'fonts-detected').verdict).toBe('warn')
  })

  test('missing signals give na checks, never a failure', () => {
    const s: FontDetectionSignals = {
      metrics: err('timeout', 'no answer within 3000 ms'),
      fontsCheck: err('unsupported', 'no document.fonts.check'),
      fontFace: err('unsupported', 'no FontFace constructor'),
      systemFonts: err('error', 'boom'),
      platform: err('error', 'boom'),
    }
    const { checks } = judge(s)
    expect(checks.every((c) => c.verdict === 'na')).toBe(true)
    expect(byId(checks, 'font-metrics-honest').expected).toContain('timeout')
    expect(summarize(checks)).toEqual({ total: 0, passed: 0, failed: 0, warnings: 0, score: 100 })
  })

  test('an unknown User-Agent leaves the OS checks not applicable', () => {
    const { checks } = judge(signals(), 'curl/8.5.0')
    expect(byId(checks, 'fonts-match-os').verdict).toBe('na')
    expect(byId(checks, 'system-font-os').verdict).toBe('na')
  })
})

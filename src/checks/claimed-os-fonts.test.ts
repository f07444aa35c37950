import { describe, expect, test } from 'bun:test'
import { summarize } from '../core/scoring'
import { WIN_CHROME, MAC_CHROME, ok, sys, metrics, CONTAINER_FONTS, signals, judge, byId } from '../core/tools/font-detection.fixture'
import { compareSystemFonts, fontOsInference } from './claimed-os-fonts'
import { SPIDERMONKEY } from '../core/tools/bot-detector.fixture'

describe('claimed-os-fonts: the fonts against the OS the User-Agent claims', () => {
  test('a Windows User-Agent on a Linux box fails the OS check and the system-font check', () => {
    const s = signals({ metrics: metrics(CONTAINER_FONTS), fontFace: ok({ loaded: ['DejaVu Sans'], failed: [], control: false }), systemFonts: ok(sys('Arial')) })
    const { checks } = judge(s, WIN_CHROME)
    const os = byId(checks, 'fonts-match-os')
    expect(os.verdict).toBe('fail')
    expect(os.source).toBe('server')
    expect(os.expected).toContain('not of Linux')
    expect(byId(checks, 'system-font-os')).toMatchObject({
      verdict: 'fail',
      expected: "the Windows UI font (Arial means Linux or Android from Blink only; judged by V8 (Blink), the engine the page's error messages show)",
    })
    expect(summarize(checks).score).toBeLessThanOrEqual(40)
  })

  test("Arial says Linux only from Blink: on SpiderMonkey, or without the engine signal, it implies nothing", () => {
    const arial = signals({ metrics: metrics(CONTAINER_FONTS), systemFonts: ok(sys('Arial')), engine: ok(SPIDERMONKEY) })
    const c = byId(judge(arial, WIN_CHROME).checks, 'system-font-os')
    expect(c).toMatchObject({ verdict: 'pass', observed: { families: ['Arial'], implies: [] } })
    expect(c.expected).toContain('judged by SpiderMonkey (Gecko)')
    const { engine: _, ...old } = arial
    expect(byId(judge(old, WIN_CHROME).checks, 'system-font-os').expected).toContain('the page did not report its error messages')
    expect(compareSystemFonts(['Arial'], 'windows', 'gecko').verdict).toBe('pass')
    expect(compareSystemFonts(['Arial'], 'windows', 'blink').verdict).toBe('fail')
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

  test('an unknown User-Agent leaves the OS checks not applicable', () => {
    const { checks } = judge(signals(), 'curl/8.5.0')
    expect(byId(checks, 'fonts-match-os').verdict).toBe('na')
    expect(byId(checks, 'system-font-os').verdict).toBe('na')
  })

  test('system fonts: the claimed OS among the implied ones passes, only system-ui elsewhere warns, a named font elsewhere fails', () => {
    expect(compareSystemFonts(['"Segoe UI"'], 'windows').verdict).toBe('pass')
    expect(compareSystemFonts(['system-ui'], 'windows').verdict).toBe('warn')
    expect(compareSystemFonts(['"Segoe UI"'], 'apple')).toEqual({ verdict: 'fail', implied: ['windows'] })
  })

  test('the OS inference counts fonts local() loaded only when its random control did not load', () => {
    const m = metrics(['Arial']).value
    expect(fontOsInference(m, { loaded: ['Segoe UI', 'Calibri'], failed: [], control: false })?.os).toBe('windows')
    expect(fontOsInference(m, { loaded: ['Segoe UI', 'Calibri'], failed: [], control: true })?.os).not.toBe('windows')
    expect(fontOsInference({ ...m, controlDetected: true }, undefined)).toBeNull()
  })
})

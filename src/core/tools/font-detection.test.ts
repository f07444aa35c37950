import { describe, expect, test } from 'bun:test'
import { summarize } from '../scoring'
import type { FontDetectionSignals } from '../../../common/signals/font-detection'
import { HEADLESS, ok, err, sys, metrics, WINDOWS_FONTS, CONTAINER_FONTS, signals, judge, byId } from './font-detection.fixture'

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
})

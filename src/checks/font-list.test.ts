import { describe, expect, test } from 'bun:test'
import { metrics, WINDOWS_FONTS, signals, judge, byId } from '../core/tools/font-detection.fixture'
import { metricsNoised, trustedFonts } from './font-list'

describe('font-list: the measured font list and whether it can be trusted', () => {
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

  test('no fonts at all warns', () => {
    expect(byId(judge(signals({ metrics: metrics([]) })).checks, 'fonts-detected').verdict).toBe('warn')
  })

  test('the font list is trusted only when the control family and the re-measure are clean', () => {
    const clean = metrics(['Arial']).value
    expect(metricsNoised(clean)).toBe(false)
    expect(trustedFonts(clean)).toEqual(['Arial'])
    expect(trustedFonts({ ...clean, stable: false })).toBeNull()
    expect(trustedFonts({ ...clean, controlDetected: true })).toBeNull()
    expect(trustedFonts(undefined)).toBeNull()
  })
})

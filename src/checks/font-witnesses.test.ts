import { describe, expect, test } from 'bun:test'
import { ok, signals, judge, byId } from '../core/tools/font-detection.fixture'

describe('font-witnesses: FontFace local() and document.fonts.check against the metrics', () => {
  test('local() loading a random name fails; a local font missing from the metrics warns', () => {
    expect(byId(judge(signals({ fontFace: ok({ loaded: ['Segoe UI'], failed: [], control: true }) })).checks, 'font-face-local').verdict).toBe('fail')
    expect(byId(judge(signals({ fontFace: ok({ loaded: ['Segoe UI', 'Ubuntu'], failed: [], control: false }) })).checks, 'font-face-local').verdict).toBe('warn')
  })

  test('document.fonts.check: spec behaviour passes, a discriminating check that contradicts the metrics warns', () => {
    expect(byId(judge(signals()).checks, 'fonts-check-api').verdict).toBe('pass')
    const lying = judge(signals({ fontsCheck: ok({ control: false, absent: ['Segoe UI', 'Marlett', 'Calibri', 'Arial', 'Consolas', 'Cambria', 'Tahoma', 'Verdana', 'Georgia', 'Courier New', 'Segoe UI Symbol', 'Segoe UI Emoji', 'Times New Roman', 'Microsoft Sans Serif'], tested: 139 }) }))
    expect(byId(lying.checks, 'fonts-check-api').verdict).toBe('warn')
  })
})

import { describe, expect, test } from 'bun:test'
import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { colorDepth, outerEqualsInner, screenSize, screenTaskbar, windowPosition } from './screen-geometry'
import { ok } from '../../tests/support/signals'

const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers: [], receivedAt: 0 }
const unsupported = { ok: false as const, error: { kind: 'unsupported' as const, message: 'no visualViewport' }, ms: 1 }
type Screen = ScreenDisplaySignals['screen'] & { ok: true }
type Win = ScreenDisplaySignals['window'] & { ok: true }

const SCREEN: Screen['value'] = { width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24, pixelDepth: 24, orientation: 'landscape-primary' }
const WINDOW: Win['value'] = { innerWidth: 1920, innerHeight: 945, outerWidth: 1920, outerHeight: 1040, screenX: 0, screenY: 0, devicePixelRatio: 1 }

function run(screen: Partial<Screen['value']> = {}, win: Partial<Win['value']> = {}) {
  const s: ScreenDisplaySignals = { screen: ok({ ...SCREEN, ...screen }), window: ok({ ...WINDOW, ...win }), visualViewport: unsupported, media: unsupported, touch: unsupported }
  const checks = runChecks([[screenSize, 30], [outerEqualsInner, 20], [screenTaskbar, 4], [colorDepth, 6], [windowPosition, 4]], s, server, {}).checks
  return Object.fromEntries(checks.map((c) => [c.id, c.verdict]))
}

describe('screen geometry', () => {
  test('a maximised desktop window passes everything', () => {
    expect(run()).toEqual({ 'screen-size': 'pass', 'outer-equals-inner': 'pass', 'screen-taskbar': 'pass', 'color-depth': 'pass', 'window-position': 'pass' })
  })

  test('a 0×0 screen, or an available area larger than the screen, fails screen-size', () => {
    expect(run({ width: 0, height: 0, availWidth: 0, availHeight: 0 })['screen-size']).toBe('fail')
    expect(run({ availHeight: 1200 })['screen-size']).toBe('fail')
  })

  test('a headless window (outer == inner at 0, 0, no taskbar) fails chrome and warns on taskbar and position', () => {
    const r = run({ availHeight: 1080 }, { innerHeight: 1040, outerHeight: 1040 })
    expect(r).toMatchObject({ 'outer-equals-inner': 'fail', 'screen-taskbar': 'warn', 'window-position': 'warn' })
  })

  test('an outer size of 0 has no chrome', () => {
    expect(run({}, { outerWidth: 0, outerHeight: 0 })['outer-equals-inner']).toBe('fail')
  })

  test('a window placed away from the origin is not judged by position', () => {
    expect(run({}, { innerHeight: 1040, screenX: 40, screenY: 20 })['window-position']).toBe('pass')
  })

  test('colour depths other than 24, 30 and 48 warn', () => {
    expect(run({ colorDepth: 30 })['color-depth']).toBe('pass')
    expect(run({ colorDepth: 16 })['color-depth']).toBe('warn')
  })
})

import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { defaultViewport, type ViewportSignals } from './default-viewport'
import { ok } from '../../tests/support/signals'

const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers: [], receivedAt: 0 }
const screen = (width: number, height: number, availWidth = width, availHeight = height) => ok({ width, height, availWidth, availHeight })
const viewport = (innerWidth: number, innerHeight: number) => ok({ innerWidth, innerHeight })
const run = (s: ViewportSignals) => runChecks([[defaultViewport, 16]], s, server, {}).checks[0]!

describe('default-viewport', () => {
  test('an ordinary desktop window passes', () => {
    expect(run({ screen: screen(1920, 1080, 1920, 1040), window: viewport(1920, 945) })).toMatchObject({
      verdict: 'pass',
      observed: 'viewport 1920×945, screen 1920×1080 (available 1920×1040)',
      expected: 'not 800x600 or 1280x720 with a full screen',
    })
  })

  test('Playwright’s 1280×720 page on a 1280×720 screen with no taskbar warns', () => {
    expect(run({ screen: screen(1280, 720), window: viewport(1280, 720) })).toMatchObject({ verdict: 'warn', points: 8 })
  })

  test('an 800×600 viewport warns whatever the screen', () => {
    expect(run({ screen: screen(1920, 1080, 1920, 1040), window: viewport(800, 600) }).verdict).toBe('warn')
  })

  test('an 800×600 screen with no taskbar warns (a VM without display drivers, headless Chromium)', () => {
    expect(run({ screen: screen(800, 600), window: viewport(800, 513) }).verdict).toBe('warn')
  })

  test('a laptop at 150 % scaling (1280×720 screen with a taskbar) passes', () => {
    expect(run({ screen: screen(1280, 720, 1280, 680), window: viewport(1280, 593) }).verdict).toBe('pass')
  })

  test('1024×768 (an iPad, an old monitor) is not an automation default', () => {
    expect(run({ screen: screen(1024, 768), window: viewport(1024, 768) }).verdict).toBe('pass')
  })

  test('without the window or screen signal it is not applicable, saying why', () => {
    const c = run({ screen: screen(1920, 1080), window: { ok: false, error: { kind: 'error', message: 'boom' }, ms: 1 } })
    expect(c).toMatchObject({ verdict: 'na', expected: 'error: boom' })
  })
})

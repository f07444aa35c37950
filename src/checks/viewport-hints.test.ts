import { describe, expect, test } from 'bun:test'
import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { clientHintDpr, clientHintViewport } from './viewport-hints'
import { ok } from '../../tests/support/signals'

const missing = { ok: false as const, error: { kind: 'unsupported' as const, message: 'not collected here' }, ms: 1 }
const WINDOW = ok({ innerWidth: 1536, innerHeight: 730, outerWidth: 1536, outerHeight: 824, screenX: 0, screenY: 0, devicePixelRatio: 1.25 })

function run(headers: Array<[string, string]>, window: ScreenDisplaySignals['window'] = WINDOW) {
  const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers, receivedAt: 0 }
  const s: ScreenDisplaySignals = { screen: missing, window, visualViewport: missing, media: missing, touch: missing, engine: missing }
  const [viewport, dpr] = runChecks([[clientHintViewport, 25], [clientHintDpr, 25]], s, server, {}).checks
  return { viewport: viewport!, dpr: dpr! }
}

describe('viewport client hints', () => {
  test('hints that agree with the page pass (one pixel of rounding allowed)', () => {
    const r = run([['sec-ch-viewport-width', '1537'], ['sec-ch-dpr', '1.25']])
    expect([r.viewport.verdict, r.dpr.verdict]).toEqual(['pass', 'pass'])
  })

  test('a patched innerWidth or devicePixelRatio disagrees with the header', () => {
    const r = run([['sec-ch-viewport-width', '1920'], ['sec-ch-dpr', '1']])
    expect(r.viewport).toMatchObject({ verdict: 'fail', observed: { 'sec-ch-viewport-width': '1920', innerWidth: 1536 } })
    expect(r.dpr).toMatchObject({ verdict: 'fail', observed: { 'sec-ch-dpr': '1', devicePixelRatio: 1.25 } })
  })

  test('no hint (Firefox, Safari, Chromium before Accept-CH) or no window signal is not applicable', () => {
    const r = run([])
    expect(r.viewport).toMatchObject({ verdict: 'na', expected: 'the browser sent no Sec-CH-Viewport-Width (only Chromium sends it, and only after Accept-CH)' })
    expect(r.dpr).toMatchObject({ verdict: 'na', expected: 'the browser sent no Sec-CH-DPR (only Chromium sends it, and only after Accept-CH)' })
    expect(run([['sec-ch-dpr', '1.25']], missing).dpr.verdict).toBe('na')
  })
})

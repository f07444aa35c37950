import { describe, expect, test } from 'bun:test'
import type { DisplayMedia, ScreenDisplaySignals } from '../../common/signals/screen-display'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { deviceWidthMedia, resolutionMedia } from './screen-media-queries'
import { ok } from '../../tests/support/signals'

const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers: [], receivedAt: 0 }
const MEDIA: DisplayMedia = {
  deviceWidthMatches: true, deviceHeightMatches: true, resolutionMatches: true, colorGamut: 'srgb', dynamicRange: 'standard',
  pointer: 'fine', hover: 'hover', colorScheme: 'light', reducedMotion: false, forcedColors: false,
}

function run(media: Partial<DisplayMedia> | null) {
  const s: ScreenDisplaySignals = {
    screen: ok({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24, pixelDepth: 24, orientation: null }),
    window: ok({ innerWidth: 1920, innerHeight: 945, outerWidth: 1920, outerHeight: 1040, screenX: 0, screenY: 0, devicePixelRatio: 1.25 }),
    visualViewport: ok({ width: 1920, height: 945, scale: 1 }),
    media: media ? ok({ ...MEDIA, ...media }) : { ok: false, error: { kind: 'error', message: 'matchMedia threw' }, ms: 1 },
    touch: ok({ maxTouchPoints: 0, touchEvent: false }),
    engine: { ok: false, error: { kind: 'error', message: 'not collected here' }, ms: 1 },
  }
  const [width, resolution] = runChecks([[deviceWidthMedia, 40], [resolutionMedia, 30]], s, server, {}).checks
  return { width: width!, resolution: resolution! }
}

describe('screen media queries', () => {
  test('media queries that see the reported screen and pixel ratio pass', () => {
    const r = run({})
    expect(r.width).toMatchObject({ verdict: 'pass', expected: '(device-width: 1920px) and (device-height: 1080px) match' })
    expect(r.resolution).toMatchObject({ verdict: 'pass', expected: '(resolution: 1.25dppx) matches' })
  })

  test('a screen.height patched in JavaScript fails device-width', () => {
    expect(run({ deviceHeightMatches: false }).width).toMatchObject({ verdict: 'fail', observed: { deviceWidthMatches: true, deviceHeightMatches: false } })
  })

  test('a patched devicePixelRatio fails resolution', () => {
    expect(run({ resolutionMatches: false }).resolution).toMatchObject({ verdict: 'fail', observed: { devicePixelRatio: 1.25, resolutionMatches: false } })
  })

  test('without the media signal both are not applicable, saying why', () => {
    const r = run(null)
    expect([r.width.verdict, r.width.expected, r.resolution.verdict]).toEqual(['na', 'error: matchMedia threw', 'na'])
  })
})

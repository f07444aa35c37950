import { describe, expect, test } from 'bun:test'
import type { DisplayMedia, ScreenDisplaySignals, TouchSupport } from '../../common/signals/screen-display'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { V8_156, firefox153Rfp } from '../core/tools/screen-display.fixture'
import { touchConsistency } from './touch-consistency'
import { ok } from '../../tests/support/signals'

const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers: [], receivedAt: 0 }
const missing = { ok: false as const, error: { kind: 'unsupported' as const, message: 'not collected here' }, ms: 1 }

const judge = (s: ScreenDisplaySignals) => runChecks([[touchConsistency, 10]], s, server, {}).checks[0]!

function verdict(touch: TouchSupport, pointer: string, hover: string) {
  const media: DisplayMedia = {
    deviceWidthMatches: true, deviceHeightMatches: true, resolutionMatches: true, colorGamut: 'srgb', dynamicRange: 'standard',
    pointer, hover, colorScheme: 'light', reducedMotion: false, forcedColors: false,
  }
  return judge({ screen: missing, window: missing, visualViewport: missing, media: ok(media), touch: ok(touch), engine: missing }).verdict
}

describe('touch-consistency', () => {
  test('a desktop without touch and a phone with touch events pass', () => {
    expect(verdict({ maxTouchPoints: 0, touchEvent: false }, 'fine', 'hover')).toBe('pass')
    expect(verdict({ maxTouchPoints: 5, touchEvent: true }, 'coarse', 'none')).toBe('pass')
  })

  test('touch points with a fine hovering mouse and no touch events warns (emulation)', () => {
    expect(verdict({ maxTouchPoints: 10, touchEvent: false }, 'fine', 'hover')).toBe('warn')
  })

  test("resistFingerprinting's constant 5 touch points on Linux (Firefox ESR 153 as captured) is not judged; the same on V8 warns", () => {
    const rfp = firefox153Rfp()
    expect(judge(rfp)).toMatchObject({
      verdict: 'na',
      expected: "anti-fingerprinting (resistFingerprinting) reports a constant maxTouchPoints for the platform (5), so this is not judged (see screen-anti-fingerprinting); judged by SpiderMonkey (Gecko), the engine the page's error messages show",
    })
    expect(judge({ ...rfp, engine: ok(V8_156) }).verdict).toBe('warn')
  })
})

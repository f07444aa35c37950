import { describe, expect, test } from 'bun:test'
import type { CanvasFingerprintSignals } from '../../common/signals/canvas-fingerprint'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import type { WeightedCheck } from '../core/tools/types'
import { canvasFarbling, canvasKnownAnswer, canvasReadable } from './canvas-integrity'

const ok = <T,>(value: T) => ({ ok: true as const, value, ms: 2 })
const fail = (kind: 'unsupported' | 'blocked' | 'timeout', message: string) => ({ ok: false as const, error: { kind, message }, ms: 2 })
const server: ServerObservation = { ip: '192.0.2.1', userAgent: 'x', headers: [], receivedAt: 0 }
const run = (def: WeightedCheck<CanvasFingerprintSignals>[0], s: Partial<CanvasFingerprintSignals>) => runChecks([[def, 10]], s as CanvasFingerprintSignals, server, {}).checks[0]!

const same = { value: { winding: true, hash: 'aaaa' } }
const noised = { value: { winding: true, hash: 'aaaa' }, again: { winding: true, hash: 'bbbb' } }
const exact = ok({ total: 64, wrong: 0, maxDelta: 0, flat: false })

describe('canvasFarbling', () => {
  test('is none for a stable drawing and an exact known answer, noise when either shows noise', () => {
    expect(canvasFarbling(same, exact)).toBe('none')
    expect(canvasFarbling(noised, exact)).toBe('noise')
    expect(canvasFarbling(same, ok({ total: 64, wrong: 3, maxDelta: 1, flat: false }))).toBe('noise')
  })
  test('is blocked for a flat read-back or a refused read, unknown without a drawing', () => {
    expect(canvasFarbling(same, ok({ total: 64, wrong: 64, maxDelta: 255, flat: true }))).toBe('blocked')
    expect(canvasFarbling(noised, fail('blocked', 'getImageData refused'))).toBe('blocked')
    expect(canvasFarbling(undefined, exact)).toBe('unknown')
    expect(canvasFarbling(noised, fail('timeout', 'no answer'))).toBe('noise')
  })
})

describe('canvas-readable and canvas-known-answer', () => {
  test('a refused read warns, saying why', () => {
    expect(run(canvasReadable, { canvas: fail('blocked', 'canvas could not be read') })).toMatchObject({ verdict: 'warn', observed: 'blocked: canvas could not be read' })
  })
  test('a refused known-answer read warns; a timed-out one is na', () => {
    expect(run(canvasKnownAnswer, { knownAnswer: fail('blocked', 'refused') })).toMatchObject({ verdict: 'warn', observed: 'blocked: refused' })
    expect(run(canvasKnownAnswer, { knownAnswer: fail('timeout', 'no answer') })).toMatchObject({ verdict: 'na', expected: 'timeout: no answer' })
  })
})

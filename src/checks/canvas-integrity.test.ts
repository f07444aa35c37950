import { describe, expect, test } from 'bun:test'
import type { CanvasFingerprintSignals } from '../../common/signals/canvas-fingerprint'
import { runChecks, type WeightedCheck } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { FIREFOX_PERSON, FIREFOX_RFP } from '../core/tools/canvas-fingerprint.fixture'
import { canvasFarbling, canvasKnownAnswer, canvasProtection, canvasReadable, canvasStable, readbackProtection } from './canvas-integrity'

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
  test('a refused read warns as anti-fingerprinting, saying why; a timed-out one only says why', () => {
    expect(run(canvasReadable, { canvas: fail('blocked', 'canvas could not be read') })).toMatchObject({ verdict: 'warn', observed: 'anti-fingerprinting detected: blocked: canvas could not be read' })
    expect(run(canvasReadable, { canvas: fail('timeout', 'no answer') })).toMatchObject({ verdict: 'warn', observed: 'timeout: no answer' })
  })
  test('a refused known-answer read warns; a timed-out one is na', () => {
    expect(run(canvasKnownAnswer, { knownAnswer: fail('blocked', 'refused') })).toMatchObject({ verdict: 'warn', observed: 'anti-fingerprinting detected: blocked: refused' })
    expect(run(canvasKnownAnswer, { knownAnswer: fail('timeout', 'no answer') })).toMatchObject({ verdict: 'na', expected: 'timeout: no answer' })
  })
  test('a refused known-answer read after a refused canvas read points at canvas-readable', () => {
    expect(run(canvasKnownAnswer, { canvas: fail('blocked', 'refused'), knownAnswer: fail('blocked', 'refused') })).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-readable' })
  })
})

describe('anti-fingerprinting is reported once (Firefox resistFingerprinting, ESR 153)', () => {
  test('canvas-stable warns with everything the other reads saw', () => {
    const out = run(canvasStable, FIREFOX_RFP)
    expect(out.verdict).toBe('warn')
    expect(out.observed).toBe(
      'anti-fingerprinting detected: two drawings read back differently (be5a2430bfca8881 then 9915217c686cfec4); the known image read back with 64 of 64 pixels changed, by up to 243; WebGL readPixels differs between two drawings too',
    )
  })
  test('canvas-known-answer points at canvas-stable then, and still warns alone on session-stable farbling', () => {
    expect(run(canvasKnownAnswer, FIREFOX_RFP)).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-stable' })
    expect(run(canvasKnownAnswer, { canvas: ok(same), knownAnswer: ok({ total: 64, wrong: 3, maxDelta: 1, flat: false }) })).toMatchObject({
      verdict: 'warn',
      observed: 'anti-fingerprinting detected: 3 of 64 pixels changed, by up to 1',
    })
  })
  test('canvasProtection names the first check that sees it; a default Firefox has none', () => {
    expect(canvasProtection({ canvas: noised, knownAnswer: exact.value }, {})).toBe('canvas-stable')
    expect(canvasProtection({ canvas: same, knownAnswer: { total: 64, wrong: 64, maxDelta: 255, flat: true } }, {})).toBe('canvas-known-answer')
    expect(canvasProtection({ canvas: same }, { knownAnswer: fail('blocked', 'refused') })).toBe('canvas-known-answer')
    expect(canvasProtection({}, { canvas: fail('blocked', 'refused') })).toBe('canvas-readable')
    expect(canvasProtection({ canvas: same, knownAnswer: exact.value }, {})).toBeNull()
    const ff = FIREFOX_PERSON
    if (!ff.canvas.ok || !ff.knownAnswer.ok || !ff.webgl.ok) throw new Error('fixture')
    expect(readbackProtection({ canvas: ff.canvas.value, knownAnswer: ff.knownAnswer.value, webgl: ff.webgl.value }, ff)).toBeNull()
  })
})

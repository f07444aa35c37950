import { describe, expect, test } from 'bun:test'
import type { CanvasFingerprintSignals, WebglSummary } from '../../common/signals/canvas-fingerprint'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import type { WeightedCheck } from '../core/tools/types'
import { gpuStringDiffs, workerCanvas, workerWebgl } from './worker-render'

const ok = <T,>(value: T) => ({ ok: true as const, value, ms: 2 })
const fail = (kind: 'unsupported' | 'blocked', message: string) => ({ ok: false as const, error: { kind, message }, ms: 2 })
const server: ServerObservation = { ip: '192.0.2.1', userAgent: 'x', headers: [], receivedAt: 0 }
const run = (def: WeightedCheck<CanvasFingerprintSignals>[0], s: Partial<CanvasFingerprintSignals>) => runChecks([[def, 10]], s as CanvasFingerprintSignals, server, {}).checks[0]!

const gl = (over: Partial<WebglSummary> = {}): WebglSummary => ({
  vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: 'Google Inc. (Intel)', unmaskedRenderer: 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)',
  version: 'WebGL 1.0', glsl: 'WebGL GLSL ES 1.0', params: {}, extensions: ['EXT_blend_minmax'], pixelsHash: '1111', pixelsStable: true, webgl2: true, ...over,
})

describe('worker-webgl and worker-canvas', () => {
  test('gpuStringDiffs names each string that differs', () => {
    expect(gpuStringDiffs(gl(), gl())).toEqual([])
    expect(gpuStringDiffs(gl(), gl({ unmaskedVendor: 'Google Inc. (NVIDIA)' }))).toEqual(['unmaskedVendor: page "Google Inc. (Intel)", worker "Google Inc. (NVIDIA)"'])
  })
  test('the same strings with other pixels only warn', () => {
    expect(run(workerWebgl, { webgl: ok(gl()), workerWebgl: ok(gl({ pixelsHash: '2222' })) }).verdict).toBe('warn')
  })
  test('say which side has nothing to compare', () => {
    expect(run(workerWebgl, { webgl: fail('unsupported', 'no webgl'), workerWebgl: ok(gl()) })).toMatchObject({ verdict: 'na', expected: 'no WebGL in the page' })
    expect(run(workerWebgl, { webgl: ok(gl()), workerWebgl: fail('unsupported', 'no OffscreenCanvas') })).toMatchObject({ verdict: 'na', expected: 'no WebGL in a worker: unsupported: no OffscreenCanvas' })
    expect(run(workerCanvas, { canvas: ok({ value: { winding: true, hash: 'aa' } }), workerCanvas: fail('blocked', 'refused') })).toMatchObject({ verdict: 'na', expected: 'no 2D canvas in a worker: blocked: refused' })
  })
})

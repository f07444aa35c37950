import { describe, expect, test } from 'bun:test'
import type { CanvasFingerprintSignals, WebglSummary } from '../../common/signals/canvas-fingerprint'
import { runChecks, type WeightedCheck } from '../core/judge'
import { CHROMIUM_PERSON, FIREFOX_PERSON, FIREFOX_RFP, SPOOFER_WINDOWS } from '../core/tools/canvas-fingerprint.fixture'
import type { ServerObservation } from '../core/tools/observation'
import { gpuStringDiffs, workerCanvas, workerWebgl } from './worker-render'

const ok = <T,>(value: T) => ({ ok: true as const, value, ms: 2 })
const fail = (kind: 'unsupported' | 'blocked', message: string) => ({ ok: false as const, error: { kind, message }, ms: 2 })
const server: ServerObservation = { ip: '192.0.2.1', userAgent: 'x', headers: [], receivedAt: 0 }
const run = (def: WeightedCheck<CanvasFingerprintSignals>[0], s: Partial<CanvasFingerprintSignals>) => runChecks([[def, 10]], s as CanvasFingerprintSignals, server, {}).checks[0]!

const gl = (over: Partial<WebglSummary> = {}): WebglSummary => ({
  vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: 'Google Inc. (Intel)', unmaskedRenderer: 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)',
  version: 'WebGL 1.0', glsl: 'WebGL GLSL ES 1.0', params: {}, extensions: ['EXT_blend_minmax'], pixelsHash: '1111', pixelsStable: true, webgl2: true, ...over,
})

const GECKO = 'judged by SpiderMonkey (Gecko), the engine the page\'s error messages show'
const BLINK = 'judged by V8 (Blink), the engine the page\'s error messages show'

describe('worker-webgl', () => {
  test('gpuStringDiffs names each string that differs', () => {
    expect(gpuStringDiffs(gl(), gl())).toEqual([])
    expect(gpuStringDiffs(gl(), gl({ unmaskedVendor: 'Google Inc. (NVIDIA)' }))).toEqual(['unmaskedVendor: page "Google Inc. (Intel)", worker "Google Inc. (NVIDIA)"'])
  })
  test('fails fingerprint-injector’s page-only GPU, naming both', () => {
    const out = run(workerWebgl, SPOOFER_WINDOWS)
    expect(out.verdict).toBe('fail')
    expect(out.observed).toBe(
      'another GPU in the worker than in the page (spoofed in the page only): unmaskedVendor: page "Google Inc. (Intel)", worker "Google Inc. (Google)"; unmaskedRenderer: page "ANGLE (Intel, Intel(R) Arc(TM) 140V GPU (16GB) (0x000064A0) Direct3D11 vs_5_0 ps_5_0, D3D11)", worker "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)"',
    )
  })
  test('passes Firefox ESR 153: the same llvmpipe strings and pixels in the worker', () => {
    expect(run(workerWebgl, FIREFOX_PERSON)).toMatchObject({ verdict: 'pass', observed: 'same GPU strings and pixels (b057a51f6b6e6d9e)' })
  })
  test('with resistFingerprinting compares the strings only: the pixels are random on every read', () => {
    expect(run(workerWebgl, FIREFOX_RFP)).toMatchObject({ verdict: 'pass', observed: 'same GPU strings; pixels not compared: anti-fingerprinting detected, see canvas-stable' })
  })
  test('the same strings with other pixels and no noise seen anywhere only warn', () => {
    expect(run(workerWebgl, { webgl: ok(gl()), workerWebgl: ok(gl({ pixelsHash: '2222' })) }).verdict).toBe('warn')
  })
  test('says which side has nothing to compare', () => {
    expect(run(workerWebgl, { webgl: fail('unsupported', 'no webgl'), workerWebgl: ok(gl()) })).toMatchObject({ verdict: 'na', expected: 'no WebGL in the page' })
    expect(run(workerWebgl, { webgl: ok(gl()), workerWebgl: fail('unsupported', 'no OffscreenCanvas') })).toMatchObject({ verdict: 'na', expected: 'no WebGL in a worker: unsupported: no OffscreenCanvas' })
  })
})

describe('worker-canvas', () => {
  test('Firefox ESR 153 draws its text differently in the worker: compared without text, by the engine the page runs on', () => {
    const out = run(workerCanvas, FIREFOX_PERSON)
    expect(out.verdict).toBe('pass')
    expect(out.observed).toBe('same pixels: shapes without text: page ade3cc7219423943, worker ade3cc7219423943; text not compared (page db601eb1f27dd9b7, worker ab48751b94d31b4b)')
    expect(out.expected).toContain(GECKO)
  })
  test('Chromium draws text alike in the worker: compared with text', () => {
    const out = run(workerCanvas, CHROMIUM_PERSON)
    expect(out.verdict).toBe('pass')
    expect(out.observed).toBe('same pixels: shapes without text: page 883e050774f9e603, worker 883e050774f9e603; drawing with text: page 99d52eea63c94bf5, worker 99d52eea63c94bf5')
    expect(out.expected).toBe(`the page’s pixels, text included (${BLINK})`)
  })
  test('on Blink a text drawing that differs fails; on Gecko shapes that differ fail', () => {
    expect(run(workerCanvas, { ...CHROMIUM_PERSON, workerCanvas: ok({ winding: true, hash: 'ab48751b94d31b4b' }) })).toMatchObject({
      verdict: 'fail',
      observed: 'another image in the worker than in the page: drawing with text: page 99d52eea63c94bf5, worker ab48751b94d31b4b',
    })
    expect(run(workerCanvas, { ...FIREFOX_PERSON, workerShapes: ok({ hash: '883e050774f9e603' }) })).toMatchObject({
      verdict: 'fail',
      observed: 'another image in the worker than in the page: shapes without text: page ade3cc7219423943, worker 883e050774f9e603',
    })
  })
  test('a Chrome User-Agent does not make Gecko compare text: the engine signal decides; without it, text is not compared', () => {
    // FIREFOX_PERSON's signals are judged the same whatever the header says (run() sends 'x').
    const { engine: _e, ...noEngine } = FIREFOX_PERSON
    const out = run(workerCanvas, noEngine)
    expect(out.verdict).toBe('pass')
    expect(out.expected).toContain("judged without an engine: the page's error messages match none")
    expect(run(workerCanvas, { ...CHROMIUM_PERSON, engine: undefined, workerCanvas: ok({ winding: true, hash: 'ab48751b94d31b4b' }) }).verdict).toBe('pass')
  })
  test('not applicable when anti-fingerprinting noises the page’s canvas (resistFingerprinting: page and worker random)', () => {
    expect(run(workerCanvas, FIREFOX_RFP)).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-stable' })
  })
  test('says which side has nothing to compare', () => {
    expect(run(workerCanvas, { canvas: ok({ value: { winding: true, hash: 'aa' } }), workerCanvas: fail('blocked', 'refused') })).toMatchObject({ verdict: 'na', expected: 'no 2D canvas in a worker: blocked: refused' })
    expect(run(workerCanvas, { workerCanvas: ok({ winding: true, hash: 'aa' }), workerShapes: ok({ hash: 'bb' }) })).toMatchObject({ verdict: 'na', expected: 'no 2D canvas in the page' })
    const { shapes: _s, ...noShapes } = FIREFOX_PERSON
    expect(run(workerCanvas, noShapes)).toMatchObject({ verdict: 'na', expected: expect.stringContaining(`the drawing with text is compared on Blink only (${GECKO})`) })
  })
})

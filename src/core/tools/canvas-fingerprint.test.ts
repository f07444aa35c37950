import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { summarize, type Check } from '../scoring'
import { CanvasFingerprintSignals } from '../../../common/signals/canvas-fingerprint'
import { canvasFingerprint } from './canvas-fingerprint'
import type { WebglSummary } from '../../../common/signals/canvas-fingerprint'
import type { ServerObservation } from './observation'
import { CHROMIUM_PERSON, CHROMIUM_UA, FIREFOX_PERSON, FIREFOX_RFP, FIREFOX_UA, SPOOFED_WINDOWS_UA, SPOOFER_WINDOWS, byId, judge as judgeReal } from './canvas-fingerprint.fixture'

const CHROME_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'
const D3D = 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)'
const SWIFTSHADER = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)'

const ok = <T,>(value: T) => ({ ok: true as const, value, ms: 2 })
const fail = (kind: 'unsupported' | 'blocked' | 'timeout' | 'farbled' | 'error', message: string) => ({ ok: false as const, error: { kind, message }, ms: 2 })

function gl(over: Partial<WebglSummary> = {}): WebglSummary {
  return {
    vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: 'Google Inc. (NVIDIA)', unmaskedRenderer: D3D,
    version: 'WebGL 1.0 (OpenGL ES 2.0 Chromium)', glsl: 'WebGL GLSL ES 1.0 (OpenGL ES GLSL ES 1.0 Chromium)',
    params: {
      MAX_TEXTURE_SIZE: 16384, MAX_CUBE_MAP_TEXTURE_SIZE: 16384, MAX_RENDERBUFFER_SIZE: 16384, MAX_VIEWPORT_DIMS: [32767, 32767],
      MAX_VERTEX_ATTRIBS: 16, MAX_VERTEX_UNIFORM_VECTORS: 4096, MAX_FRAGMENT_UNIFORM_VECTORS: 1024, MAX_VARYING_VECTORS: 30,
      MAX_TEXTURE_IMAGE_UNITS: 16, MAX_VERTEX_TEXTURE_IMAGE_UNITS: 16, MAX_COMBINED_TEXTURE_IMAGE_UNITS: 32,
      ALIASED_LINE_WIDTH_RANGE: [1, 1], ALIASED_POINT_SIZE_RANGE: [1, 1024], MAX_TEXTURE_MAX_ANISOTROPY_EXT: 16,
    },
    extensions: ['ANGLE_instanced_arrays', 'EXT_blend_minmax', 'WEBGL_debug_renderer_info'],
    pixelsHash: '1111222233334444', pixelsStable: true, webgl2: true,
    ...over,
  }
}

/** Chrome's error messages (common/engine-errors.ts): the page runs on V8 (Blink). */
const V8 = ok({ evalLength: 33, nullError: "Cannot read properties of null (reading 'x')", rangeError: 'toFixed() digits argument must be between 0 and 100' })

function desktop(): CanvasFingerprintSignals {
  return {
    canvas: ok({ value: { winding: true, hash: 'aaaabbbbccccdddd' } }),
    knownAnswer: ok({ total: 64, wrong: 0, maxDelta: 0, flat: false }),
    webgl: ok(gl()),
    workerCanvas: ok({ winding: true, hash: 'aaaabbbbccccdddd' }),
    shapes: ok({ hash: '5555666677778888' }),
    workerShapes: ok({ hash: '5555666677778888' }),
    workerWebgl: ok(gl()),
    engine: V8,
  }
}

const obs = (ua: string): ServerObservation => ({ ip: '198.51.100.7', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0 })

function judge(s: CanvasFingerprintSignals, ua = CHROME_WIN) {
  expect(Value.Check(CanvasFingerprintSignals, s)).toBe(true)
  const { checks, sections } = canvasFingerprint.judge(s, obs(ua))
  const by = (id: string): Check => checks.find((c) => c.id === id) ?? (() => { throw new Error(`no check ${id}`) })()
  return { checks, by, summary: summarize(checks), sections: sections as { canvas: { hash: string | null; stable: boolean | null; farbling: string }; webgl: Record<string, unknown> } }
}

/** Non-passing checks of a real submission, as `verdict:id`. */
function notPassing(s: CanvasFingerprintSignals, ua: string) {
  expect(Value.Check(CanvasFingerprintSignals, s)).toBe(true)
  const { checks } = judgeReal(s, ua)
  return { checks, score: summarize(checks).score, flagged: checks.filter((c) => c.verdict === 'warn' || c.verdict === 'fail').map((c) => `${c.verdict}:${c.id}`) }
}

describe('canvas-fingerprint on real submissions (issue 12)', () => {
  test('Chromium on Xvfb: only the missing WebGL warns; page and worker agree, text included', () => {
    const { checks, score, flagged } = notPassing(CHROMIUM_PERSON, CHROMIUM_UA)
    expect(flagged).toEqual(['warn:webgl-available'])
    expect(score).toBe(92)
    expect(byId(checks, 'worker-canvas')).toMatchObject({ verdict: 'pass', expected: expect.stringContaining('text included (judged by V8 (Blink)') })
  })

  test('Firefox ESR 153, default profile: the text drawn differently in the worker is not a fail; llvmpipe warns', () => {
    // The finding: worker-canvas failed on "page db601eb1f27dd9b7, worker ab48751b94d31b4b".
    expect(FIREFOX_PERSON.canvas.ok && FIREFOX_PERSON.workerCanvas.ok && FIREFOX_PERSON.canvas.value.value.hash !== FIREFOX_PERSON.workerCanvas.value.hash).toBe(true)
    const { checks, score, flagged } = notPassing(FIREFOX_PERSON, FIREFOX_UA)
    expect(flagged).toEqual(['warn:webgl-software-renderer'])
    expect(score).toBe(90)
    const wc = byId(checks, 'worker-canvas')
    expect(wc.verdict).toBe('pass')
    expect(String(wc.observed)).toContain('text not compared (page db601eb1f27dd9b7, worker ab48751b94d31b4b)')
    expect(wc.expected).toContain('judged by SpiderMonkey (Gecko)')
  })

  test('Firefox ESR 153 with resistFingerprinting: one anti-fingerprinting warning, no fail, score ≥ 80', () => {
    const { checks, score, flagged } = notPassing(FIREFOX_RFP, FIREFOX_UA)
    expect(flagged).toEqual(['warn:canvas-stable'])
    expect(score).toBe(85)
    expect(String(byId(checks, 'canvas-stable').observed)).toStartWith('anti-fingerprinting detected: two drawings read back differently')
    expect(String(byId(checks, 'canvas-stable').observed)).toContain('64 of 64 pixels changed, by up to 243; WebGL readPixels differs between two drawings too')
    for (const id of ['canvas-known-answer', 'webgl-stable', 'worker-canvas']) expect(byId(checks, id)).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-stable' })
    // The GPU strings are still compared: "Mozilla" on both sides.
    expect(byId(checks, 'worker-webgl')).toMatchObject({ verdict: 'pass', observed: 'same GPU strings; pixels not compared: anti-fingerprinting detected, see canvas-stable' })
  })

  test('fingerprint-injector on headless Chromium: the worker names the real GPU, scored under 80', () => {
    const { checks, score, flagged } = notPassing(SPOOFER_WINDOWS, SPOOFED_WINDOWS_UA)
    expect(flagged).toEqual(['fail:worker-webgl'])
    expect(score).toBeLessThan(80)
    const observed = String(byId(checks, 'worker-webgl').observed)
    expect(observed).toStartWith('another GPU in the worker than in the page (spoofed in the page only)')
    expect(observed).toContain('worker "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)"')
  })
})

describe('canvas-fingerprint judge', () => {
  test('passes an ordinary Chrome on Windows with an NVIDIA GPU, full score, stable hashes', () => {
    const { checks, summary, sections } = judge(desktop())
    expect(checks.filter((c) => c.verdict !== 'pass').map((c) => c.id)).toEqual([])
    expect(summary.score).toBe(100)
    expect(sections.canvas).toEqual({ hash: 'aaaabbbbccccdddd', stable: true, farbling: 'none' })
    expect(sections.webgl).toMatchObject({ vendor: 'Google Inc. (NVIDIA)', renderer: D3D, software: null, pixelsHash: '1111222233334444', extensions: 3 })
  })

  test('warns on SwiftShader in headless Chromium and nothing else', () => {
    const s = desktop()
    const sw = gl({ unmaskedVendor: 'Google Inc. (Google)', unmaskedRenderer: SWIFTSHADER, params: { ...gl().params, MAX_TEXTURE_SIZE: 8192, MAX_VIEWPORT_DIMS: [8192, 8192] } })
    s.webgl = ok(sw)
    s.workerWebgl = ok(sw)
    const { checks, by, summary } = judge(s, HEADLESS)
    expect(by('webgl-software-renderer').verdict).toBe('warn')
    expect(String(by('webgl-software-renderer').observed)).toContain('SwiftShader')
    expect(checks.filter((c) => c.verdict !== 'pass').map((c) => c.id)).toEqual(['webgl-software-renderer'])
    expect(summary.score).toBe(90)
  })

  test('reports per-read noise as farbling and gives no hash', () => {
    const s = desktop()
    s.canvas = ok({ value: { winding: true, hash: 'aaaabbbbccccdddd' }, again: { winding: true, hash: 'eeeeffff00001111' } })
    s.knownAnswer = ok({ total: 64, wrong: 9, maxDelta: 1, flat: false })
    s.webgl = ok(gl({ pixelsStable: false }))
    const { by, sections, summary } = judge(s)
    expect(by('canvas-stable').verdict).toBe('warn')
    expect(String(by('canvas-stable').observed)).toStartWith('anti-fingerprinting detected')
    expect(String(by('canvas-stable').observed)).toContain('9 of 64 pixels changed')
    // One cause, one warning: the other reads point at canvas-stable.
    expect(by('canvas-known-answer')).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-stable' })
    expect(by('webgl-stable')).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-stable' })
    expect(sections.canvas).toEqual({ hash: null, stable: false, farbling: 'noise' })
    expect(sections.webgl.pixelsHash).toBeNull()
    expect(by('worker-webgl').verdict).toBe('pass')
    expect(summary.score).toBe(100 - 15)
  })

  test('catches session-stable farbling (Brave) with the known-answer image only, and says it once', () => {
    const s = desktop()
    s.knownAnswer = ok({ total: 64, wrong: 3, maxDelta: 1, flat: false })
    // Farbled in the page and in the worker alike, but with another seed in each.
    s.workerShapes = ok({ hash: '9999aaaabbbbcccc' })
    s.webgl = ok(gl({ pixelsStable: false }))
    const { by, sections, summary } = judge(s)
    expect(by('canvas-stable').verdict).toBe('pass')
    expect(by('canvas-known-answer').verdict).toBe('warn')
    for (const id of ['webgl-stable', 'worker-canvas']) expect(by(id)).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-known-answer' })
    expect(sections.canvas).toMatchObject({ hash: null, farbling: 'noise' })
    expect(summary.score).toBe(85)
  })

  test('WebGL noise alone is reported by webgl-stable, and the worker’s WebGL pixels are not compared', () => {
    const s = desktop()
    s.webgl = ok(gl({ pixelsStable: false }))
    s.workerWebgl = ok(gl({ pixelsHash: '7777' }))
    const { by } = judge(s)
    expect(by('webgl-stable')).toMatchObject({ verdict: 'warn', observed: 'anti-fingerprinting detected: readPixels differs between two drawings (first 1111222233334444)' })
    expect(by('worker-webgl')).toMatchObject({ verdict: 'pass', observed: 'same GPU strings; pixels not compared: anti-fingerprinting detected, see webgl-stable' })
    expect(by('worker-canvas').verdict).toBe('pass')
  })

  test('reports a blank read-back as blocked (Tor, resistFingerprinting)', () => {
    const s = desktop()
    s.knownAnswer = ok({ total: 64, wrong: 64, maxDelta: 255, flat: true })
    const { by, sections } = judge(s)
    expect(String(by('canvas-known-answer').observed)).toStartWith('anti-fingerprinting detected: reads are blocked')
    expect(sections.canvas.farbling).toBe('blocked')
  })

  test('fails GPU spoofing applied in the page only, and incoherent limits', () => {
    const s = desktop()
    s.webgl = ok(gl({ unmaskedVendor: 'Google Inc. (AMD)', unmaskedRenderer: D3D, params: { ...gl().params, MAX_TEXTURE_SIZE: 15000, MAX_COMBINED_TEXTURE_IMAGE_UNITS: 8 } }))
    s.workerWebgl = ok(gl({ unmaskedVendor: 'Google Inc. (Intel)', unmaskedRenderer: 'ANGLE (Intel, Intel(R) UHD Graphics 620 Direct3D11 vs_5_0 ps_5_0, D3D11)' }))
    const { by, summary } = judge(s)
    expect(by('worker-webgl').verdict).toBe('fail')
    expect(by('webgl-vendor-renderer').verdict).toBe('fail')
    expect(by('webgl-parameters').verdict).toBe('fail')
    expect(String(by('webgl-parameters').observed)).toContain('MAX_TEXTURE_SIZE 15000')
    expect(summary.score).toBe(100 - 35 - 25 - 25)
  })

  test('fails Direct3D under a macOS User-Agent and a 2D drawing that differs in the worker', () => {
    const s = desktop()
    s.workerCanvas = ok({ winding: true, hash: '9999888877776666' })
    const { by } = judge(s, CHROME_MAC)
    expect(by('gpu-os').verdict).toBe('fail')
    expect(by('gpu-os').source).toBe('server')
    expect(by('worker-canvas').verdict).toBe('fail')
  })

  test('judges text in the worker by the engine running the page, not by the User-Agent', () => {
    const s = desktop()
    s.workerCanvas = ok({ winding: true, hash: '9999888877776666' })
    // A Chrome User-Agent on SpiderMonkey: text is not compared, the shapes are.
    s.engine = FIREFOX_PERSON.engine
    expect(judge(s, CHROME_MAC).by('worker-canvas').verdict).toBe('pass')
    s.workerShapes = ok({ hash: '0000111122223333' })
    expect(judge(s, CHROME_MAC).by('worker-canvas')).toMatchObject({ verdict: 'fail', expected: expect.stringContaining('judged by SpiderMonkey (Gecko)') })
  })

  test('marks WebGL checks na and warns once when WebGL is missing; workers na when unsupported', () => {
    const s = desktop()
    s.webgl = fail('unsupported', 'no webgl context (disabled, blocked or no GPU process)')
    s.workerWebgl = fail('unsupported', 'no OffscreenCanvas')
    s.workerCanvas = fail('unsupported', 'no OffscreenCanvas')
    s.workerShapes = fail('unsupported', 'no OffscreenCanvas')
    const { by, checks, summary } = judge(s)
    expect(by('webgl-available').verdict).toBe('warn')
    for (const id of ['webgl-unmasked', 'webgl-software-renderer', 'webgl-stable', 'webgl-parameters', 'webgl-vendor-renderer', 'gpu-os', 'worker-webgl', 'worker-canvas']) expect(by(id).verdict).toBe('na')
    expect(by('worker-canvas').expected).toContain('no OffscreenCanvas')
    expect(checks.length).toBe(12)
    expect(summary.score).toBe(92)
  })

  test('warns once when canvas reads are refused', () => {
    const s = desktop()
    s.canvas = fail('blocked', 'canvas could not be read: SecurityError')
    s.knownAnswer = fail('blocked', 'getImageData refused: SecurityError')
    s.shapes = fail('blocked', 'canvas could not be read: SecurityError')
    const { by, sections, summary } = judge(s)
    expect(by('canvas-readable')).toMatchObject({ verdict: 'warn', observed: 'anti-fingerprinting detected: blocked: canvas could not be read: SecurityError' })
    expect(by('canvas-known-answer')).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-readable' })
    expect(by('canvas-stable').verdict).toBe('na')
    expect(by('worker-canvas')).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-readable' })
    expect(sections.canvas).toEqual({ hash: null, stable: null, farbling: 'blocked' })
    expect(summary.score).toBe(90)
  })
})

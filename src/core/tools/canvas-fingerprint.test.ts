import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { summarize, type Check } from '../scoring'
import { CanvasFingerprintSignals } from '../../../common/signals/canvas-fingerprint'
import { canvasFingerprint } from './canvas-fingerprint'
import type { WebglSummary } from '../../../common/signals/canvas-fingerprint'
import type { ServerObservation } from './observation'

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

function desktop(): CanvasFingerprintSignals {
  return {
    canvas: ok({ value: { winding: true, hash: 'aaaabbbbccccdddd' } }),
    knownAnswer: ok({ total: 64, wrong: 0, maxDelta: 0, flat: false }),
    webgl: ok(gl()),
    workerCanvas: ok({ winding: true, hash: 'aaaabbbbccccdddd' }),
    workerWebgl: ok(gl()),
  }
}

const obs = (ua: string): ServerObservation => ({ ip: '198.51.100.7', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0 })

function judge(s: CanvasFingerprintSignals, ua = CHROME_WIN) {
  expect(Value.Check(CanvasFingerprintSignals, s)).toBe(true)
  const { checks, sections } = canvasFingerprint.judge(s, obs(ua))
  const by = (id: string): Check => checks.find((c) => c.id === id) ?? (() => { throw new Error(`no check ${id}`) })()
  return { checks, by, summary: summarize(checks), sections: sections as { canvas: { hash: string | null; stable: boolean | null; farbling: string }; webgl: Record<string, unknown> } }
}

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
    expect(String(by('canvas-stable').observed)).toStartWith('farbling detected')
    expect(by('canvas-known-answer').verdict).toBe('warn')
    expect(String(by('canvas-known-answer').observed)).toContain('9 of 64 pixels changed')
    expect(by('webgl-stable').verdict).toBe('warn')
    expect(sections.canvas).toEqual({ hash: null, stable: false, farbling: 'noise' })
    expect(sections.webgl.pixelsHash).toBeNull()
    expect(by('worker-webgl').verdict).toBe('pass')
    expect(summary.score).toBe(100 - 15 - 15 - 15)
  })

  test('catches session-stable farbling (Brave) with the known-answer image only', () => {
    const s = desktop()
    s.knownAnswer = ok({ total: 64, wrong: 3, maxDelta: 1, flat: false })
    const { by, sections } = judge(s)
    expect(by('canvas-stable').verdict).toBe('pass')
    expect(by('canvas-known-answer').verdict).toBe('warn')
    expect(sections.canvas).toMatchObject({ hash: null, farbling: 'noise' })
  })

  test('reports a blank read-back as blocked (Tor, resistFingerprinting)', () => {
    const s = desktop()
    s.knownAnswer = ok({ total: 64, wrong: 64, maxDelta: 255, flat: true })
    const { by, sections } = judge(s)
    expect(String(by('canvas-known-answer').observed)).toStartWith('blocked')
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

  test('marks WebGL checks na and warns once when WebGL is missing; workers na when unsupported', () => {
    const s = desktop()
    s.webgl = fail('unsupported', 'no webgl context (disabled, blocked or no GPU process)')
    s.workerWebgl = fail('unsupported', 'no OffscreenCanvas')
    s.workerCanvas = fail('unsupported', 'no OffscreenCanvas')
    const { by, checks, summary } = judge(s)
    expect(by('webgl-available').verdict).toBe('warn')
    for (const id of ['webgl-unmasked', 'webgl-software-renderer', 'webgl-stable', 'webgl-parameters', 'webgl-vendor-renderer', 'gpu-os', 'worker-webgl', 'worker-canvas']) expect(by(id).verdict).toBe('na')
    expect(by('worker-canvas').expected).toContain('no OffscreenCanvas')
    expect(checks.length).toBe(12)
    expect(summary.score).toBe(92)
  })

  test('warns when canvas reads are refused', () => {
    const s = desktop()
    s.canvas = fail('blocked', 'canvas could not be read: SecurityError')
    s.knownAnswer = fail('blocked', 'getImageData refused: SecurityError')
    const { by, sections } = judge(s)
    expect(by('canvas-readable').verdict).toBe('warn')
    expect(by('canvas-known-answer').verdict).toBe('warn')
    expect(by('canvas-stable').verdict).toBe('na')
    expect(sections.canvas).toEqual({ hash: null, stable: null, farbling: 'blocked' })
  })
})

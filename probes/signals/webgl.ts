// WebGL: the GPU strings (masked and, through WEBGL_debug_renderer_info, unmasked), the MAX_*
// limits, the extension list, and the pixels of a small shaded scene read with readPixels,
// drawn twice so that read-back noise shows up as a difference. The same function runs on an
// OffscreenCanvas in a worker: spoofing extensions and stealth patches usually rewrite
// getParameter in the page only, so a worker that reports another GPU exposes them.
// Chromium without a GPU (headless, VMs, CI) renders with SwiftShader; Mesa's llvmpipe is the
// Linux equivalent: https://chromium.googlesource.com/chromium/src/+/main/docs/gpu/swiftshader.md
// Firefox ≥ 92 returns a sanitised renderer from RENDERER itself and keeps the extension:
// https://bugzil.la/1722782

import { hashHex } from '../../common/hash'
import type { WebglSummary } from '../../common/signals/canvas-fingerprint'
import { ProbeError } from '../core/probe-error'
import { inWorker, runInWorker } from '../core/worker'

export interface WebglRaw {
  vendor: string
  renderer: string
  unmaskedVendor: string | null
  unmaskedRenderer: string | null
  version: string
  glsl: string
  params: Record<string, number | number[] | null>
  extensions: string[]
  /** RGBA of the scene, first and second drawing. */
  pixels: Uint8Array | null
  pixels2: Uint8Array | null
  webgl2: boolean
  error?: string
}

/**
 * Self-contained (serialised into a worker, where it makes its own OffscreenCanvas): no
 * imports, no outer names.
 */
export function readWebgl(canvas?: HTMLCanvasElement | OffscreenCanvas): WebglRaw | { error: string } {
  const S = 32
  const c = canvas || new OffscreenCanvas(S, S)
  c.width = S
  c.height = S
  let gl: WebGLRenderingContext | null = null
  try {
    gl = c.getContext('webgl', { antialias: false, preserveDrawingBuffer: true, failIfMajorPerformanceCaveat: false }) as WebGLRenderingContext | null
  } catch (e) {
    return { error: `getContext threw: ${String((e as Error)?.message || e)}` }
  }
  if (!gl) return { error: 'no webgl context (disabled, blocked or no GPU process)' }
  const str = (v: unknown) => (typeof v === 'string' ? v : String(v))
  const params: Record<string, number | number[] | null> = {}
  const names = [
    'MAX_TEXTURE_SIZE', 'MAX_CUBE_MAP_TEXTURE_SIZE', 'MAX_RENDERBUFFER_SIZE', 'MAX_VIEWPORT_DIMS', 'MAX_VERTEX_ATTRIBS',
    'MAX_VERTEX_UNIFORM_VECTORS', 'MAX_FRAGMENT_UNIFORM_VECTORS', 'MAX_VARYING_VECTORS', 'MAX_TEXTURE_IMAGE_UNITS',
    'MAX_VERTEX_TEXTURE_IMAGE_UNITS', 'MAX_COMBINED_TEXTURE_IMAGE_UNITS', 'ALIASED_LINE_WIDTH_RANGE', 'ALIASED_POINT_SIZE_RANGE',
    'RED_BITS', 'GREEN_BITS', 'BLUE_BITS', 'ALPHA_BITS', 'DEPTH_BITS', 'STENCIL_BITS', 'SUBPIXEL_BITS',
  ]
  for (const n of names) {
    const v = gl.getParameter((gl as unknown as Record<string, number>)[n]!)
    params[n] = v == null ? null : typeof v === 'number' ? v : Array.from(v as ArrayLike<number>)
  }
  const aniso = gl.getExtension('EXT_texture_filter_anisotropic')
  params.MAX_TEXTURE_MAX_ANISOTROPY_EXT = aniso ? gl.getParameter(aniso.MAX_TEXTURE_MAX_ANISOTROPY_EXT) : null
  const hp = gl.getShaderPrecisionFormat(gl.FRAGMENT_SHADER, gl.HIGH_FLOAT)
  params.FRAGMENT_HIGH_FLOAT = hp ? [hp.rangeMin, hp.rangeMax, hp.precision] : null
  const dbg = gl.getExtension('WEBGL_debug_renderer_info')

  // A triangle fan shaded with a precision-sensitive hash: the float rounding of the GPU (or
  // of SwiftShader) shows in the low bits of the colours.
  const sh = (type: number, src: string) => {
    const s = gl!.createShader(type)!
    gl!.shaderSource(s, src)
    gl!.compileShader(s)
    return s
  }
  const prog = gl.createProgram()!
  gl.attachShader(prog, sh(gl.VERTEX_SHADER, 'attribute vec2 p;varying vec2 v;void main(){v=p;gl_Position=vec4(p,0.0,1.0);}'))
  gl.attachShader(prog, sh(gl.FRAGMENT_SHADER, 'precision highp float;varying vec2 v;void main(){float h=fract(sin(dot(v,vec2(12.9898,78.233)))*43758.5453);gl_FragColor=vec4(sin(v.x*9.0)*0.5+0.5,cos(v.y*7.0)*0.5+0.5,h,1.0);}'))
  gl.linkProgram(prog)
  gl.useProgram(prog)
  const buf = gl.createBuffer()
  gl.bindBuffer(gl.ARRAY_BUFFER, buf)
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-0.9, -0.9, 0.85, -0.7, 0.6, 0.9, -0.2, 0.7, -0.95, 0.2]), gl.STATIC_DRAW)
  const loc = gl.getAttribLocation(prog, 'p')
  gl.enableVertexAttribArray(loc)
  gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 0, 0)
  const draw = () => {
    gl!.clearColor(0.1, 0.2, 0.3, 1)
    gl!.clear(gl!.COLOR_BUFFER_BIT)
    gl!.drawArrays(gl!.TRIANGLE_FAN, 0, 5)
    const px = new Uint8Array(S * S * 4)
    gl!.readPixels(0, 0, S, S, gl!.RGBA, gl!.UNSIGNED_BYTE, px)
    return px
  }
  const pixels = draw()
  const pixels2 = draw()
  const out: WebglRaw = {
    vendor: str(gl.getParameter(gl.VENDOR)),
    renderer: str(gl.getParameter(gl.RENDERER)),
    unmaskedVendor: dbg ? str(gl.getParameter(dbg.UNMASKED_VENDOR_WEBGL)) : null,
    unmaskedRenderer: dbg ? str(gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL)) : null,
    version: str(gl.getParameter(gl.VERSION)),
    glsl: str(gl.getParameter(gl.SHADING_LANGUAGE_VERSION)),
    params,
    extensions: (gl.getSupportedExtensions() || []).slice().sort(),
    pixels,
    pixels2,
    webgl2: typeof WebGL2RenderingContext !== 'undefined',
  }
  // Free the context: Chromium keeps at most 16 alive and evicts the oldest.
  gl.getExtension('WEBGL_lose_context')?.loseContext()
  return out
}


export function summarise(raw: WebglRaw | { error: string }): WebglSummary {
  if (!('vendor' in raw)) throw new ProbeError('unsupported', raw.error)
  const { pixels, pixels2, error: _e, ...rest } = raw
  const h1 = pixels ? hashHex(pixels) : null
  return { ...rest, pixelsHash: h1, pixelsStable: pixels && pixels2 ? h1 === hashHex(pixels2) : null }
}

export function webglInfo(): WebglSummary {
  return summarise(readWebgl(document.createElement('canvas')))
}

export const workerWebglInfo = inWorker(async (): Promise<WebglSummary> => {
  if (typeof OffscreenCanvas === 'undefined') throw new ProbeError('unsupported', 'no OffscreenCanvas')
  return summarise(await runInWorker(readWebgl))
})

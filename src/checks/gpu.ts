// What a WebGL report says about the GPU, shared by canvas-fingerprint and
// browser-fingerprint: software renderers, whether the MAX_* limits
// look like a real driver's, and whether the GPU strings fit the OS the browser claims.
// Renderer strings quoted below come from ANGLE, which Chromium (and Firefox on Windows)
// uses: "ANGLE (<vendor>, <device> Direct3D11 vs_5_0 ps_5_0, D3D11)" on Windows,
// "ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)" on macOS,
// "ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)" on Linux.
// https://chromium.googlesource.com/angle/angle/+/main/src/libANGLE/renderer

import type { WebglSummary } from '../../common/signals/canvas-fingerprint'
import type { Os } from '../../common/user-agent'
import type { Outcome } from './define'
import type { PageEngine } from './page-engine'

/** The renderer a fingerprinter sees: the unmasked one where the browser gives it. */
export function effectiveRenderer(w: Pick<WebglSummary, 'renderer' | 'unmaskedRenderer'>): string {
  return w.unmaskedRenderer || w.renderer
}

const SOFTWARE: ReadonlyArray<[RegExp, string]> = [
  [/SwiftShader/i, 'SwiftShader (Chromium’s CPU renderer)'],
  [/llvmpipe/i, 'llvmpipe (Mesa’s CPU renderer)'],
  [/softpipe/i, 'softpipe (Mesa’s reference CPU renderer)'],
  [/Microsoft Basic Render/i, 'Microsoft Basic Render Driver (no GPU driver)'],
  [/VMware SVGA|SVGA3D/i, 'VMware virtual GPU'],
  [/VirtualBox|Parallels/i, 'a virtual machine’s GPU'],
]

/** Names the software or virtual renderer, or null for a hardware GPU. */
export function softwareRenderer(renderer: string): string | null {
  return SOFTWARE.find(([re]) => re.test(renderer))?.[1] ?? null
}

const pow2 = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0

/**
 * Limits a real driver cannot report: the WebGL 1 minimums (spec §6.2 and the GLES 2.0
 * table), power-of-two texture sizes, and combined units at least the fragment units.
 * Spoofing extensions randomise these numbers without keeping them coherent.
 */
export function implausibleParams(p: WebglSummary['params']): string[] {
  const out: string[] = []
  const num = (k: string) => (typeof p[k] === 'number' ? (p[k] as number) : null)
  const tex = num('MAX_TEXTURE_SIZE')
  if (tex !== null && (!pow2(tex) || tex < 1024 || tex > 65536)) out.push(`MAX_TEXTURE_SIZE ${tex} is not a power of two between 1024 and 65536`)
  const rb = num('MAX_RENDERBUFFER_SIZE')
  if (rb !== null && (rb < 1024 || !Number.isInteger(rb))) out.push(`MAX_RENDERBUFFER_SIZE ${rb} is below the minimum`)
  const minimums: Array<[string, number]> = [
    ['MAX_VERTEX_ATTRIBS', 8],
    ['MAX_VERTEX_UNIFORM_VECTORS', 128],
    ['MAX_FRAGMENT_UNIFORM_VECTORS', 16],
    ['MAX_VARYING_VECTORS', 8],
    ['MAX_TEXTURE_IMAGE_UNITS', 8],
    ['MAX_COMBINED_TEXTURE_IMAGE_UNITS', 8],
  ]
  for (const [k, min] of minimums) {
    const v = num(k)
    if (v !== null && (v < min || !Number.isInteger(v))) out.push(`${k} ${v} is below the WebGL minimum ${min}`)
  }
  const frag = num('MAX_TEXTURE_IMAGE_UNITS')
  const comb = num('MAX_COMBINED_TEXTURE_IMAGE_UNITS')
  if (frag !== null && comb !== null && comb < frag) out.push(`MAX_COMBINED_TEXTURE_IMAGE_UNITS ${comb} < MAX_TEXTURE_IMAGE_UNITS ${frag}`)
  const vp = p.MAX_VIEWPORT_DIMS
  if (Array.isArray(vp) && (vp.length !== 2 || vp.some((v) => !Number.isInteger(v) || v < 1024))) out.push(`MAX_VIEWPORT_DIMS ${JSON.stringify(vp)} is not two sizes of at least 1024`)
  const pt = p.ALIASED_POINT_SIZE_RANGE
  if (Array.isArray(pt) && (pt.length !== 2 || pt[0]! > 1 || pt[1]! < 1)) out.push(`ALIASED_POINT_SIZE_RANGE ${JSON.stringify(pt)} does not contain 1`)
  return out
}

export interface Plausibility {
  verdict: 'pass' | 'warn' | 'fail'
  reason: string
}

/**
 * WebKit masks the GPU: with its MaskWebGLStrings setting (on by default in Safari and
 * WebKitGTK, always on iOS) WEBGL_debug_renderer_info answers "Apple Inc." and "Apple GPU" on
 * every platform, Linux and Windows ports included (WebGLRenderingContextBase::getParameter,
 * https://github.com/WebKit/WebKit/blob/main/Source/WebCore/html/canvas/WebGLRenderingContextBase.cpp).
 * Seen on GNOME Web / WebKitGTK 2.50 on Linux. So on a JavaScriptCore engine (told by the page's
 * error messages, not by the user agent) those exact strings say nothing about the OS.
 */
export function isWebKitMaskedGpu(vendor: string, renderer: string): boolean {
  return vendor === 'Apple Inc.' && renderer === 'Apple GPU'
}

/**
 * Whether the GPU strings fit the OS the User-Agent claims. Only the APIs are decisive:
 * Direct3D exists only on Windows (and Xbox), Metal and "OpenGL Engine" drivers only on Apple
 * systems, and Safari on iOS always reports "Apple GPU". Mobile GPU families on a desktop OS
 * and Mesa on Windows are rare but real (Snapdragon laptops, WSL), so they only warn. On
 * WebKit (`engine`, told by the page's error messages) the masked "Apple GPU" fits every OS.
 */
export function gpuFitsOs(vendor: string, renderer: string, os: Os, engine: PageEngine['engine'] = 'unknown'): Plausibility {
  const s = `${vendor} ${renderer}`
  const apple = /Metal|Apple (M\d|GPU)|OpenGL Engine|Apple A\d/i.test(s)
  const d3d = /Direct3D|D3D1[0-2]|D3D9|vs_\d_\d/i.test(s)
  const mobileGpu = /Adreno|Mali|PowerVR|Immortalis|Xclipse|Tegra|Vivante|VideoCore|V3D/i.test(s)
  const mesa = /Mesa|llvmpipe|X\.Org|nouveau|radeonsi/i.test(s)
  if (softwareRenderer(renderer) && !d3d && !apple) return { verdict: 'pass', reason: 'a software renderer runs on any OS (see the software-renderer check)' }
  if (/^Mozilla$/.test(vendor) && /^Mozilla$/.test(renderer)) return { verdict: 'pass', reason: 'Firefox resistFingerprinting hides the GPU' }
  if (os === 'unknown') return { verdict: 'pass', reason: 'the User-Agent names no known OS to compare with' }
  if (engine === 'webkit' && isWebKitMaskedGpu(vendor, renderer) && os !== 'android') return { verdict: 'pass', reason: 'WebKit reports its masked "Apple GPU" on every platform' }
  if (d3d && os !== 'windows') return { verdict: 'fail', reason: `Direct3D only exists on Windows, the User-Agent claims ${os}` }
  if (apple && os !== 'mac' && os !== 'ios') return { verdict: 'fail', reason: `an Apple/Metal renderer on a browser claiming ${os}` }
  if (os === 'ios' && !/Apple GPU/i.test(renderer)) return { verdict: 'fail', reason: 'every iOS browser is WebKit, which reports "Apple GPU"' }
  if (os === 'mac' && (d3d || mobileGpu)) return { verdict: 'fail', reason: 'Macs have Apple, Intel, AMD or NVIDIA GPUs behind Metal or OpenGL' }
  if (os === 'windows' && mobileGpu && !d3d) return { verdict: 'warn', reason: 'a mobile GPU family without Direct3D on Windows' }
  if (os === 'windows' && mesa) return { verdict: 'warn', reason: 'Mesa drivers on Windows: WSL or a virtual machine' }
  if (os === 'windows' && !d3d && /ANGLE/.test(renderer) && /Vulkan|OpenGL/.test(renderer)) return { verdict: 'pass', reason: 'ANGLE on Windows with its Vulkan/OpenGL backend (rare, valid)' }
  if ((os === 'android' || os === 'ios') && /GeForce|Radeon|Intel\(R\) (UHD|HD|Iris)|Quadro/i.test(s) && !/Tegra/i.test(s)) return { verdict: 'warn', reason: 'a desktop GPU on a phone OS' }
  return { verdict: 'pass', reason: 'the GPU strings are usual for this OS' }
}

/** webgl-software-renderer and fp-software-renderer: the renderer names a hardware GPU. */
export function softwareOutcome(gl: WebglSummary): Outcome {
  const renderer = effectiveRenderer(gl)
  const soft = softwareRenderer(renderer)
  return { verdict: soft ? 'warn' : 'pass', observed: soft ? `${soft}: ${renderer}` : renderer, expected: 'a hardware GPU' }
}

/**
 * gpu-os and fp-gpu-os: the GPU strings against the OS the User-Agent header claims, on the
 * engine the page runs on. The expectation names the engine only where it decided the verdict.
 */
export function gpuOsOutcome(gl: WebglSummary, claimedOs: Os, engine: PageEngine): Outcome {
  const renderer = effectiveRenderer(gl)
  const vendor = gl.unmaskedVendor || gl.vendor
  const fit = gpuFitsOs(vendor, renderer, claimedOs, engine.engine)
  const masked = engine.engine === 'webkit' && isWebKitMaskedGpu(vendor, renderer)
  return {
    verdict: fit.verdict,
    observed: { renderer, claimedOs, reason: fit.reason },
    expected: masked ? `a renderer that exists on the claimed OS, or WebKit's masked "Apple GPU" on any (${engine.basis})` : 'a renderer that exists on the claimed OS',
  }
}

// The WebGL context fingerprinting scripts read, and whether a real driver stands behind it:
// available, its GPU strings readable and coherent (ANGLE's vendor and renderer name the same
// GPU vendor), a hardware renderer, readPixels stable, limits a driver could report, and
// strings that exist on the OS the User-Agent header claims (./gpu.ts).
// https://registry.khronos.org/webgl/extensions/WEBGL_debug_renderer_info/

import type { CanvasFingerprintSignals, WebglSummary } from '../../common/signals/canvas-fingerprint'
import { engineClaim } from '../../common/user-agent'
import { canvasProtection, seeProtection } from './canvas-integrity'
import { checkOn, na, type Outcome } from './define'
import { effectiveRenderer, gpuOsOutcome, implausibleParams, softwareOutcome } from './gpu'
import { pageEngine } from './page-engine'

const webglCheck = checkOn<CanvasFingerprintSignals>()

/** A context whose renderer strings are both empty has nothing to judge. */
const NO_RENDERER = 'WebGL answered with an empty renderer string'
const withRenderer = (gl: WebglSummary, judge: (gl: WebglSummary) => Outcome): Outcome => (effectiveRenderer(gl) ? judge(gl) : na(NO_RENDERER))

/** The GPU vendor named in "Google Inc. (NVIDIA)" and in "ANGLE (NVIDIA, …)". */
export function angleVendors(vendor: string, renderer: string): { vendor: string | null; renderer: string | null } {
  const v = /^Google Inc\. \((.+)\)$/.exec(vendor)?.[1] ?? null
  const r = /^ANGLE \(([^,]+),/.exec(renderer)?.[1] ?? null
  return { vendor: v?.trim() ?? null, renderer: r?.trim() ?? null }
}

export const webglAvailable = webglCheck({
  id: 'webgl-available',
  name: 'WebGL is available',
  found: 'WebGL is unavailable',
  source: 'client',
  why: 'All current browsers have WebGL; it is missing when disabled by policy or flags, blocked by an extension, or when the browser runs without a GPU process (some headless and sandboxed setups).',
  expected: 'a WebGL context',
  needs: [],
  uses: ['webgl'],
  judge: ({ webgl: gl }, { missing }) =>
    gl && effectiveRenderer(gl)
      ? { verdict: 'pass', observed: `${gl.version}${gl.webgl2 ? ', WebGL 2 present' : ''}` }
      : { verdict: 'warn', observed: gl ? NO_RENDERER : missing('webgl') },
})

export const webglUnmasked = webglCheck({
  id: 'webgl-unmasked',
  name: 'GPU strings are readable',
  found: 'GPU strings are hidden',
  source: 'client',
  why: 'WEBGL_debug_renderer_info gives the real vendor and renderer in Chromium and Firefox (Safari says "Apple GPU"). Hidden strings mean a privacy setting (Brave strict mode, extensions). A weak signal.',
  ref: 'https://registry.khronos.org/webgl/extensions/WEBGL_debug_renderer_info/',
  needs: ['webgl'],
  judge: ({ webgl }) =>
    withRenderer(webgl, (gl) => ({
      verdict: gl.unmaskedRenderer ? 'pass' : 'warn',
      observed: gl.unmaskedRenderer ? { vendor: gl.unmaskedVendor, renderer: gl.unmaskedRenderer } : `masked: ${gl.vendor} / ${gl.renderer}`,
      expected: 'WEBGL_debug_renderer_info answers',
    })),
})

export const webglSoftwareRenderer = webglCheck({
  id: 'webgl-software-renderer',
  name: 'WebGL runs on a hardware GPU',
  found: 'WebGL runs on a software renderer',
  source: 'client',
  why: 'SwiftShader and llvmpipe render on the CPU: the default in headless Chromium, containers, CI and virtual machines, rare for a person (a blocklisted GPU, a remote desktop). A warning; bot-detector gives the bot verdict.',
  needs: ['webgl'],
  judge: ({ webgl }) => withRenderer(webgl, softwareOutcome),
})

export const webglStable = webglCheck({
  id: 'webgl-stable',
  name: 'WebGL pixels read the same twice',
  found: 'WebGL pixels read differently twice',
  source: 'client',
  why: 'Drawing the same scene twice and reading it with readPixels gives the same bytes on a real driver. A difference is read-back noise (Firefox resistFingerprinting, Brave, extensions): anti-fingerprinting, a warning, and not applicable when the 2D canvas checks already reported the same protection.',
  needs: ['webgl'],
  uses: ['canvas', 'knownAnswer'],
  judge: ({ webgl, canvas, knownAnswer }, { raw }) =>
    withRenderer(webgl, (gl) => {
      if (gl.pixelsStable === null) return na('the scene could not be read')
      if (gl.pixelsStable) return { verdict: 'pass', observed: `both drawings ${gl.pixelsHash}`, expected: 'the same bytes on both drawings' }
      const first = canvasProtection({ canvas, knownAnswer }, raw)
      if (first) return seeProtection(first)
      return { verdict: 'warn', observed: `anti-fingerprinting detected: readPixels differs between two drawings (first ${gl.pixelsHash})`, expected: 'the same bytes on both drawings' }
    }),
})

export const webglParameters = webglCheck({
  id: 'webgl-parameters',
  name: 'WebGL limits are coherent',
  found: 'WebGL limits are incoherent',
  source: 'client',
  why: 'MAX_* limits follow the WebGL minimums and hardware rules (power-of-two texture sizes, combined units ≥ fragment units). Spoofing extensions that randomise them break these rules; real drivers do not.',
  ref: 'https://registry.khronos.org/webgl/specs/latest/1.0/',
  needs: ['webgl'],
  judge: ({ webgl }) =>
    withRenderer(webgl, (gl) => {
      const bad = implausibleParams(gl.params)
      if (gl.extensions.length === 0) bad.push('no extensions at all')
      return { verdict: bad.length ? 'fail' : 'pass', observed: bad.length ? bad.join('; ') : `${Object.keys(gl.params).length} limits, ${gl.extensions.length} extensions`, expected: 'limits within the WebGL rules' }
    }),
})

export const webglVendorRenderer = webglCheck({
  id: 'webgl-vendor-renderer',
  name: 'Unmasked vendor and renderer agree',
  found: 'the unmasked vendor and renderer disagree',
  source: 'client',
  why: 'Chromium reports the vendor as "Google Inc. (<GPU vendor>)" and the renderer as "ANGLE (<GPU vendor>, …)": both name the same GPU vendor. Spoofers that pick vendor and renderer separately produce pairs no driver reports.',
  needs: ['webgl'],
  judge: ({ webgl }) =>
    withRenderer(webgl, (gl) => {
      const names = angleVendors(gl.unmaskedVendor ?? '', gl.unmaskedRenderer ?? '')
      if (!names.vendor || !names.renderer) return na(gl.unmaskedRenderer ? 'not ANGLE’s "Google Inc. (…)" / "ANGLE (…)" form: nothing to compare' : 'no unmasked strings')
      const same = names.vendor.toLowerCase() === names.renderer.toLowerCase()
      return { verdict: same ? 'pass' : 'fail', observed: { vendor: gl.unmaskedVendor, renderer: gl.unmaskedRenderer }, expected: `the same GPU vendor in both (${names.vendor})` }
    }),
})

export const gpuOs = webglCheck({
  id: 'gpu-os',
  name: 'GPU strings fit the claimed OS',
  found: 'GPU strings do not fit the claimed OS',
  source: 'server',
  why: 'The renderer names the graphics API: Direct3D only exists on Windows, Metal and "OpenGL Engine" drivers only on Apple systems, every iOS browser says "Apple GPU". Compared with the OS in the User-Agent header the server received; mobile GPUs on a desktop OS only warn (Snapdragon laptops exist). WebKit masks its GPU as "Apple Inc."/"Apple GPU" on every platform, so on a JavaScriptCore engine (told by its error messages) those strings fit any OS.',
  ref: 'https://chromium.googlesource.com/angle/angle/+/main/src/libANGLE/renderer',
  needs: ['webgl'],
  uses: ['engine'],
  judge: ({ webgl, engine }, { server }) => withRenderer(webgl, (gl) => gpuOsOutcome(gl, engineClaim(server.userAgent).os, pageEngine(engine))),
})

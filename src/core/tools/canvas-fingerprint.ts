// canvas-fingerprint: the 2D canvas and WebGL images and GPU strings that fingerprinting
// scripts read, and whether they can be trusted: drawn twice (per-read noise), a known-answer
// image (session-stable farbling and blocked reads), the same drawing in a worker's
// OffscreenCanvas (spoofing applied to the page only), limits a real driver could report, and
// GPU strings that exist on the OS the User-Agent header claims.

import { Type, type Static } from '@sinclair/typebox'
import { hashValue } from '../../../common/hash'
import { check, type Check, type CheckDef } from '../scoring'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { engineClaim } from '../../../common/user-agent'
import { WebglSummarySchema, effectiveRenderer, gpuFitsOs, implausibleParams, softwareRenderer, type WebglSummary } from './gpu'
import type { ServerObservation } from './observation'
import { legacyTool } from './types'

const Hash = Type.String({ maxLength: 64 })
const Canvas2d = Type.Object({ winding: Type.Boolean(), hash: Hash })

export const CanvasFingerprintSignals = Type.Object({
  /** Drawn twice; `again` only when the second drawing read back differently. */
  canvas: Signal(Type.Object({ value: Canvas2d, again: Type.Optional(Canvas2d) })),
  knownAnswer: Signal(Type.Object({ total: Type.Integer(), wrong: Type.Integer(), maxDelta: Type.Number(), flat: Type.Boolean() })),
  webgl: Signal(WebglSummarySchema),
  workerCanvas: Signal(Canvas2d),
  workerWebgl: Signal(WebglSummarySchema),
})
export type CanvasFingerprintSignals = Static<typeof CanvasFingerprintSignals>

const NStr = Type.Union([Type.String(), Type.Null()])
export const CanvasFingerprintSections = Type.Object({
  canvas: Type.Object({
    hash: NStr,
    stable: Type.Union([Type.Boolean(), Type.Null()]),
    farbling: Type.Union([Type.Literal('none'), Type.Literal('noise'), Type.Literal('blocked'), Type.Literal('unknown')], { description: 'What the stability and known-answer tests found.' }),
  }),
  webgl: Type.Object({
    vendor: NStr,
    renderer: NStr,
    software: NStr,
    pixelsHash: NStr,
    parametersHash: NStr,
    extensionsHash: NStr,
    extensions: Type.Integer(),
  }),
})

const DEFS = {
  readable: { id: 'canvas-readable', name: '2D canvas can be read', source: 'client', weight: 20, why: 'Every browser lets a page read back its own canvas. A refused or missing read is Tor Browser, Firefox resistFingerprinting (until the user allows it) or a blocking extension: privacy tools, not bots, hence a warning.' },
  stable: { id: 'canvas-stable', name: '2D canvas draws the same twice', source: 'client', weight: 30, why: 'The same drawing in the same page gives the same pixels in every engine. A second read that differs is noise added on read-back (Safari 17+ Advanced Fingerprinting Protection, Firefox’s canvas randomisation, extensions): farbling detected, and the hash is not an identity.' },
  knownAnswer: { id: 'canvas-known-answer', name: 'A known image reads back exactly', source: 'client', weight: 30, why: 'Opaque solid blocks involve no anti-aliasing or alpha rounding, so every engine reads back exactly the colours drawn. Any changed pixel is injected noise, including per-session farbling (Brave) that is stable between reads and so escapes the two-draw test; a flat image means reads are blocked.' },
  webglAvailable: { id: 'webgl-available', name: 'WebGL is available', source: 'client', weight: 16, why: 'All current browsers have WebGL; it is missing when disabled by policy or flags, blocked by an extension, or when the browser runs without a GPU process (some headless and sandboxed setups).' },
  unmasked: { id: 'webgl-unmasked', name: 'GPU strings are readable', source: 'client', weight: 8, why: 'WEBGL_debug_renderer_info gives the real vendor and renderer in Chromium and Firefox (Safari says "Apple GPU"). Hidden strings mean a privacy setting (Brave strict mode, extensions). A weak signal.' },
  software: { id: 'webgl-software-renderer', name: 'WebGL runs on a hardware GPU', source: 'client', weight: 20, why: 'SwiftShader and llvmpipe render on the CPU: the default in headless Chromium, containers, CI and virtual machines, rare for a person (a blocklisted GPU, a remote desktop). A warning; bot-detector gives the bot verdict.' },
  webglStable: { id: 'webgl-stable', name: 'WebGL pixels read the same twice', source: 'client', weight: 30, why: 'Drawing the same scene twice and reading it with readPixels gives the same bytes on a real driver. A difference is read-back noise (Brave, extensions): farbling detected.' },
  params: { id: 'webgl-parameters', name: 'WebGL limits are coherent', source: 'client', weight: 25, why: 'MAX_* limits follow the WebGL minimums and hardware rules (power-of-two texture sizes, combined units ≥ fragment units). Spoofing extensions that randomise them break these rules; real drivers do not.' },
  vendorRenderer: { id: 'webgl-vendor-renderer', name: 'Unmasked vendor and renderer agree', source: 'client', weight: 25, why: 'Chromium reports the vendor as "Google Inc. (<GPU vendor>)" and the renderer as "ANGLE (<GPU vendor>, …)": both name the same GPU vendor. Spoofers that pick vendor and renderer separately produce pairs no driver reports.' },
  workerWebgl: { id: 'worker-webgl', name: 'A worker sees the same GPU', source: 'client', weight: 35, why: 'An OffscreenCanvas in a worker uses the same GPU and driver as the page, so the strings and the pixels are the same. Spoofing that patches getParameter or readPixels in the page only shows a different GPU in the worker.' },
  workerCanvas: { id: 'worker-canvas', name: 'A worker draws the same 2D image', source: 'client', weight: 25, why: 'The same 2D drawing on an OffscreenCanvas in a worker uses the same rasteriser and fonts as the page and must give the same pixels; canvas spoofing applied to the page only differs.' },
  gpuOs: { id: 'gpu-os', name: 'GPU strings fit the claimed OS', source: 'server', weight: 30, why: 'The renderer names the graphics API: Direct3D only exists on Windows, Metal and "OpenGL Engine" drivers only on Apple systems, every iOS browser says "Apple GPU". Compared with the OS in the User-Agent header the server received; mobile GPUs on a desktop OS only warn (Snapdragon laptops exist).' },
} as const satisfies Record<string, CheckDef>

/** The GPU vendor named in "Google Inc. (NVIDIA)" and in "ANGLE (NVIDIA, …)". */
export function angleVendors(vendor: string, renderer: string): { vendor: string | null; renderer: string | null } {
  const v = /^Google Inc\. \((.+)\)$/.exec(vendor)?.[1] ?? null
  const r = /^ANGLE \(([^,]+),/.exec(renderer)?.[1] ?? null
  return { vendor: v?.trim() ?? null, renderer: r?.trim() ?? null }
}

function sameGpu(a: WebglSummary, b: WebglSummary): string[] {
  const out: string[] = []
  for (const k of ['vendor', 'renderer', 'unmaskedVendor', 'unmaskedRenderer', 'version'] as const) {
    if (a[k] !== b[k]) out.push(`${k}: page ${JSON.stringify(a[k])}, worker ${JSON.stringify(b[k])}`)
  }
  return out
}

export const canvasFingerprint = legacyTool({
  id: 'canvas-fingerprint',
  signals: CanvasFingerprintSignals,
  sections: CanvasFingerprintSections,
  judge(s: CanvasFingerprintSignals, server: ServerObservation) {
    const checks: Check[] = []
    const na = (def: CheckDef, why: string) => check(def, { verdict: 'na', observed: null, expected: why })

    // 2D canvas.
    const cv = valueOf(s.canvas)
    checks.push(
      cv
        ? check(DEFS.readable, { verdict: 'pass', observed: `hash ${cv.value.hash}`, expected: 'the page can read its own canvas' })
        : check(DEFS.readable, { verdict: 'warn', observed: whyMissing(s.canvas), expected: 'the page can read its own canvas' }),
    )
    const stable = cv ? cv.again === undefined : null
    if (cv) {
      checks.push(check(DEFS.stable, { verdict: stable ? 'pass' : 'warn', observed: stable ? `both drawings ${cv.value.hash}` : `farbling detected: ${cv.value.hash} then ${cv.again!.hash}`, expected: 'the same pixels on both drawings' }))
    } else checks.push(na(DEFS.stable, whyMissing(s.canvas)))

    const ka = valueOf(s.knownAnswer)
    let farbling: 'none' | 'noise' | 'blocked' | 'unknown' = stable === false ? 'noise' : 'unknown'
    if (ka) {
      const blocked = ka.wrong > 0 && ka.flat
      if (ka.wrong === 0 && stable !== false) farbling = stable === null ? 'unknown' : 'none'
      else if (blocked) farbling = 'blocked'
      else if (ka.wrong > 0) farbling = 'noise'
      checks.push(
        check(DEFS.knownAnswer, {
          verdict: ka.wrong ? 'warn' : 'pass',
          observed: ka.wrong === 0 ? `all ${ka.total} pixels exact` : blocked ? `blocked: the read-back is one flat colour (${ka.wrong} of ${ka.total} pixels wrong)` : `farbling detected: ${ka.wrong} of ${ka.total} pixels changed, by up to ${ka.maxDelta}`,
          expected: 'every pixel exactly as drawn',
        }),
      )
    } else {
      if (s.knownAnswer.ok === false && s.knownAnswer.error.kind === 'blocked') farbling = 'blocked'
      checks.push(s.knownAnswer.ok === false && s.knownAnswer.error.kind === 'blocked' ? check(DEFS.knownAnswer, { verdict: 'warn', observed: whyMissing(s.knownAnswer), expected: 'every pixel exactly as drawn' }) : na(DEFS.knownAnswer, whyMissing(s.knownAnswer)))
    }

    // WebGL in the page.
    const gl = valueOf(s.webgl)
    const renderer = gl ? effectiveRenderer(gl) : null
    const soft = renderer ? softwareRenderer(renderer) : null
    if (gl && renderer) {
      checks.push(check(DEFS.webglAvailable, { verdict: 'pass', observed: `${gl.version}${gl.webgl2 ? ', WebGL 2 present' : ''}`, expected: 'a WebGL context' }))
      checks.push(check(DEFS.unmasked, { verdict: gl.unmaskedRenderer ? 'pass' : 'warn', observed: gl.unmaskedRenderer ? { vendor: gl.unmaskedVendor, renderer: gl.unmaskedRenderer } : `masked: ${gl.vendor} / ${gl.renderer}`, expected: 'WEBGL_debug_renderer_info answers' }))
      checks.push(check(DEFS.software, { verdict: soft ? 'warn' : 'pass', observed: soft ? `${soft}: ${renderer}` : renderer, expected: 'a hardware GPU' }))
      checks.push(
        gl.pixelsStable === null
          ? na(DEFS.webglStable, 'the scene could not be read')
          : check(DEFS.webglStable, { verdict: gl.pixelsStable ? 'pass' : 'warn', observed: gl.pixelsStable ? `both drawings ${gl.pixelsHash}` : `farbling detected: readPixels differs between two drawings (first ${gl.pixelsHash})`, expected: 'the same bytes on both drawings' }),
      )
      const bad = implausibleParams(gl.params)
      if (gl.extensions.length === 0) bad.push('no extensions at all')
      checks.push(check(DEFS.params, { verdict: bad.length ? 'fail' : 'pass', observed: bad.length ? bad.join('; ') : `${Object.keys(gl.params).length} limits, ${gl.extensions.length} extensions`, expected: 'limits within the WebGL rules' }))
      const names = angleVendors(gl.unmaskedVendor ?? '', gl.unmaskedRenderer ?? '')
      checks.push(
        names.vendor && names.renderer
          ? check(DEFS.vendorRenderer, { verdict: names.vendor.toLowerCase() === names.renderer.toLowerCase() ? 'pass' : 'fail', observed: { vendor: gl.unmaskedVendor, renderer: gl.unmaskedRenderer }, expected: `the same GPU vendor in both (${names.vendor})` })
          : na(DEFS.vendorRenderer, gl.unmaskedRenderer ? 'not ANGLE’s "Google Inc. (…)" / "ANGLE (…)" form: nothing to compare' : 'no unmasked strings'),
      )
      const claimed = engineClaim(server.userAgent)
      const fit = gpuFitsOs(gl.unmaskedVendor || gl.vendor, renderer, claimed.os)
      checks.push(check(DEFS.gpuOs, { verdict: fit.verdict, observed: { renderer, claimedOs: claimed.os, reason: fit.reason }, expected: 'a renderer that exists on the claimed OS' }))
    } else {
      const why = whyMissing(s.webgl)
      checks.push(check(DEFS.webglAvailable, { verdict: 'warn', observed: why, expected: 'a WebGL context' }))
      for (const d of [DEFS.unmasked, DEFS.software, DEFS.webglStable, DEFS.params, DEFS.vendorRenderer, DEFS.gpuOs]) checks.push(na(d, why))
    }

    // The worker against the page.
    const wgl = valueOf(s.workerWebgl)
    if (gl && wgl) {
      const diff = sameGpu(gl, wgl)
      const pixels = gl.pixelsHash !== wgl.pixelsHash
      checks.push(
        check(DEFS.workerWebgl, {
          verdict: diff.length ? 'fail' : pixels ? 'warn' : 'pass',
          observed: diff.length ? diff.join('; ') : pixels ? `same strings, different pixels: page ${gl.pixelsHash}, worker ${wgl.pixelsHash}` : `same GPU strings and pixels (${wgl.pixelsHash})`,
          expected: 'the page’s GPU strings and pixels',
        }),
      )
    } else checks.push(na(DEFS.workerWebgl, gl ? `no WebGL in a worker: ${whyMissing(s.workerWebgl)}` : 'no WebGL in the page'))
    const wcv = valueOf(s.workerCanvas)
    if (cv && wcv) {
      checks.push(check(DEFS.workerCanvas, { verdict: wcv.hash === cv.value.hash ? 'pass' : 'fail', observed: wcv.hash === cv.value.hash ? `same pixels (${wcv.hash})` : `page ${cv.value.hash}, worker ${wcv.hash}`, expected: 'the page’s pixels' }))
    } else checks.push(na(DEFS.workerCanvas, cv ? `no 2D canvas in a worker: ${whyMissing(s.workerCanvas)}` : 'no 2D canvas in the page'))

    return {
      checks,
      sections: {
        // Noised or blocked pixels are not an identity: no hash then, the farbling says why.
        canvas: { hash: cv && stable && farbling !== 'noise' && farbling !== 'blocked' ? cv.value.hash : null, stable, farbling },
        webgl: {
          vendor: gl ? gl.unmaskedVendor || gl.vendor : null,
          renderer,
          software: soft,
          pixelsHash: gl && gl.pixelsStable ? gl.pixelsHash : null,
          parametersHash: gl ? hashValue(gl.params) : null,
          extensionsHash: gl ? hashValue(gl.extensions) : null,
          extensions: gl ? gl.extensions.length : 0,
        },
      },
    }
  },
})

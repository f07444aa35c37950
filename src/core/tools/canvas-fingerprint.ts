// canvas-fingerprint: the 2D canvas and WebGL images and GPU strings that fingerprinting
// scripts read, and whether they can be trusted: drawn twice (per-read noise), a known-answer
// image (session-stable farbling and blocked reads), the same drawings in a worker's
// OffscreenCanvas (spoofing applied to the page only; text compared only where the engine, told
// by its error messages, draws it alike), limits a real driver could report, and GPU strings
// that exist on the OS the User-Agent header claims. Anti-fingerprinting (Firefox
// resistFingerprinting, Brave, Safari, extensions) is one warning, given by the first check that
// sees it; the other pixel comparisons are then not applicable. The checks are in
// src/checks/canvas-integrity.ts, webgl-integrity.ts and worker-render.ts.

import { Type } from '@sinclair/typebox'
import { Nullable } from '../../../common/shorthands'
import { hashValue } from '../../../common/hash'
import { signalValue } from '../../../common/signal'
import { CanvasFingerprintSignals } from '../../../common/signals/canvas-fingerprint'
import { canvasFarbling, canvasKnownAnswer, canvasReadable, canvasStable } from '../../checks/canvas-integrity'
import { effectiveRenderer, softwareRenderer } from '../../checks/gpu'
import { gpuOs, webglAvailable, webglParameters, webglSoftwareRenderer, webglStable, webglUnmasked, webglVendorRenderer } from '../../checks/webgl-integrity'
import { workerCanvas, workerWebgl } from '../../checks/worker-render'
import { defineTool } from './types'

const NullableText = Nullable(Type.String())
export const CanvasFingerprintSections = Type.Object({
  canvas: Type.Object({
    hash: NullableText,
    stable: Type.Union([Type.Boolean(), Type.Null()]),
    farbling: Type.Union([Type.Literal('none'), Type.Literal('noise'), Type.Literal('blocked'), Type.Literal('unknown')], { description: 'What the stability and known-answer tests found.' }),
  }),
  webgl: Type.Object({
    vendor: NullableText,
    renderer: NullableText,
    software: NullableText,
    pixelsHash: NullableText,
    parametersHash: NullableText,
    extensionsHash: NullableText,
    extensions: Type.Integer(),
  }),
})

export const canvasFingerprint = defineTool({
  id: 'canvas-fingerprint',
  signals: CanvasFingerprintSignals,
  sections: CanvasFingerprintSections,
  checks: [
    [canvasReadable, 20],
    [canvasStable, 30],
    [canvasKnownAnswer, 30],
    [webglAvailable, 16],
    [webglUnmasked, 8],
    [webglSoftwareRenderer, 20],
    [webglStable, 30],
    [webglParameters, 25],
    [webglVendorRenderer, 25],
    [gpuOs, 30],
    [workerWebgl, 35],
    [workerCanvas, 25],
  ],
  addSections(s) {
    const cv = signalValue(s.canvas)
    const stable = cv ? cv.again === undefined : null
    const farbling = canvasFarbling(cv, s.knownAnswer)
    const gl = signalValue(s.webgl)
    const renderer = gl ? effectiveRenderer(gl) : null
    return {
      // Noised or blocked pixels are not an identity: no hash then, the farbling says why.
      canvas: { hash: cv && stable && farbling !== 'noise' && farbling !== 'blocked' ? cv.value.hash : null, stable, farbling },
      webgl: {
        vendor: gl ? gl.unmaskedVendor || gl.vendor : null,
        renderer,
        software: renderer ? softwareRenderer(renderer) : null,
        pixelsHash: gl?.pixelsStable ? gl.pixelsHash : null,
        parametersHash: gl ? hashValue(gl.params) : null,
        extensionsHash: gl ? hashValue(gl.extensions) : null,
        extensions: gl ? gl.extensions.length : 0,
      },
    }
  },
})

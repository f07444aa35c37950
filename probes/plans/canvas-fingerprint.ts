// canvas-fingerprint: the 2D canvas drawn twice (noise shows as a difference) and a
// known-answer image; WebGL strings, limits, extensions and readPixels; the same 2D drawing, a
// drawing with no text and the WebGL reading on an OffscreenCanvas in a worker; the JavaScript
// engine, told by its error messages. The server judges them. The 2D drawing and the WebGL
// render also go as small pictures (probes/signals/canvas-picture.ts), which the report shows.
import { definePlan, type ToolPlan } from '../core/runner'
import { workerCanvas2dHash } from '../signals/canvas-2d'
import { canvasKnownAnswer } from '../signals/canvas-known-answer'
import { canvasShapesHash, workerCanvasShapesHash } from '../signals/canvas-shapes'
import { jsEngine } from '../signals/js-engine'
import { canvas2dPictured, webglPictured } from '../signals/canvas-picture'
import { workerWebglInfo } from '../signals/webgl'

/** canvas-fingerprint's sources, made when its run starts (they read the page's nonce then). */
export function canvasFingerprintPlan(): ToolPlan {
  return definePlan('canvas-fingerprint', {
    canvas: canvas2dPictured,
    knownAnswer: canvasKnownAnswer,
    webgl: webglPictured,
    workerCanvas: workerCanvas2dHash,
    shapes: canvasShapesHash,
    workerShapes: workerCanvasShapesHash,
    workerWebgl: workerWebglInfo,
    engine: jsEngine,
  })
}

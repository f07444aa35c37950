// canvas-fingerprint: what probes/signals/canvas-2d.ts, canvas-shapes.ts, canvas-known-answer.ts,
// webgl.ts and js-engine.ts report (probes/entries/canvas-fingerprint.ts). browser-fingerprint
// reads the same 2D canvas and WebGL probes, so it takes Canvas2dHashSchema and
// WebglSummarySchema from here.

import { Type, type Static } from '@sinclair/typebox'
import { Bool, Int, NBool, NStr, Num, Str } from '../shorthands'
import { Signal } from '../signal'
import { JsEngineSchema } from './shared'

/** probes/signals/canvas-2d.ts: the FingerprintJS 2D scene, hashed. */
export const Canvas2dHashSchema = Type.Object({ winding: Bool, hash: Str(64) })
export type Canvas2dHash = Static<typeof Canvas2dHashSchema>

/** probes/signals/canvas-shapes.ts: a drawing with no text, hashed (page and worker compare it in every engine). */
export const CanvasShapesSchema = Type.Object({ hash: Str(64) })
export type CanvasShapes = Static<typeof CanvasShapesSchema>

/** probes/signals/canvas-known-answer.ts: solid blocks read back. */
export const CanvasKnownAnswerSchema = Type.Object({
  /** Pixels checked. */
  total: Int,
  /** Pixels that did not read back as drawn. */
  wrong: Int,
  /** Largest difference in one channel among the wrong pixels. */
  maxDelta: Num,
  /** The read-back is one flat colour (blank or filled): reading is blocked, not noised. */
  flat: Bool,
})
export type CanvasKnownAnswer = Static<typeof CanvasKnownAnswerSchema>

/** probes/signals/webgl.ts: strings, limits, extensions and a readPixels hash of one context. */
export const WebglSummarySchema = Type.Object({
  vendor: Str(1000),
  renderer: Str(1000),
  unmaskedVendor: NStr(1000),
  unmaskedRenderer: NStr(1000),
  version: Str(1000),
  glsl: Str(1000),
  params: Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.Number(), Type.Array(Type.Number(), { maxItems: 4 }), Type.Null()])),
  extensions: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 }),
  /** Hash of the first readPixels, and whether the second drawing read back the same. */
  pixelsHash: NStr(1000),
  pixelsStable: NBool,
  webgl2: Bool,
})
export type WebglSummary = Static<typeof WebglSummarySchema>

export const CanvasFingerprintSignals = Type.Object({
  /** Drawn twice; `again` only when the second drawing read back differently. */
  canvas: Signal(Type.Object({ value: Canvas2dHashSchema, again: Type.Optional(Canvas2dHashSchema) })),
  knownAnswer: Signal(CanvasKnownAnswerSchema),
  webgl: Signal(WebglSummarySchema),
  workerCanvas: Signal(Canvas2dHashSchema),
  /** The text-free drawing in the page and in a worker's OffscreenCanvas. */
  shapes: Signal(CanvasShapesSchema),
  workerShapes: Signal(CanvasShapesSchema),
  workerWebgl: Signal(WebglSummarySchema),
  /** The JavaScript engine running the page, from its error messages (common/engine-errors.ts): worker-canvas compares text only where the engine draws it alike. */
  engine: Signal(JsEngineSchema),
})
export type CanvasFingerprintSignals = Static<typeof CanvasFingerprintSignals>

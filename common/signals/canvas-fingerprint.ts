// canvas-fingerprint: what probes/signals/canvas-2d.ts, canvas-shapes.ts, canvas-known-answer.ts,
// webgl.ts and js-engine.ts report (probes/entries/canvas-fingerprint.ts). browser-fingerprint
// reads the same 2D canvas and WebGL probes, so it takes Canvas2dHashSchema and
// WebglSummarySchema from here.

import { Type, type Static } from '@sinclair/typebox'
import { Bool, Int, NBool, NStr, Nullable, Num, Str } from '../shorthands'
import { Signal } from '../signal'
import { JsEngineSchema } from './shared'
import { MASK_MAX, PICTURE_MAX } from '../picture-limits'

export { MASK_MAX, PICTURE_MAX }

/** A small image the page made of what it drew (probes/signals/canvas-picture.ts), as a data: URL. */
const PictureUrl = (maxLength: number) => Type.String({ maxLength, pattern: '^data:image/(webp|jpeg|png);base64,[A-Za-z0-9+/]+={0,2}$' })

/**
 * What the page drew, as a picture for people (the report shows it beside the hash, which is of
 * the exact pixels): a lossy copy at full size, on white, at most PICTURE_MAX characters (null
 * when even half size was larger), and, when the second read differed, where: how many pixels,
 * the largest change in one channel, and a mask of them (PNG, null when over MASK_MAX).
 * Optional: pages from before it do not send it.
 */
export const CanvasPictureSchema = Type.Object({
  image: Nullable(PictureUrl(PICTURE_MAX)),
  width: Int,
  height: Int,
  noise: Type.Optional(Type.Object({ pixels: Int, maxDelta: Num, mask: Nullable(PictureUrl(MASK_MAX)) })),
})
export type CanvasPicture = Static<typeof CanvasPictureSchema>

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
  /** The render as a picture (canvas-fingerprint's page only). */
  picture: Type.Optional(CanvasPictureSchema),
})
export type WebglSummary = Static<typeof WebglSummarySchema>

export const CanvasFingerprintSignals = Type.Object({
  /** Drawn twice; `again` only when the second drawing read back differently; `picture` of the first. */
  canvas: Signal(Type.Object({ value: Canvas2dHashSchema, again: Type.Optional(Canvas2dHashSchema), picture: Type.Optional(CanvasPictureSchema) })),
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

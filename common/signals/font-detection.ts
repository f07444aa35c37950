// font-detection: what probes/signals/font-metrics.ts, font-check.ts, font-face-local.ts,
// system-fonts.ts and platform-claims.ts report (probes/entries/font-detection.ts).

import { Type, type Static } from '@sinclair/typebox'
import { Bool, List, NBool, NStr, Num, Str } from '../shorthands'
import { Signal } from '../signal'
import { JsEngineSchema } from './shared'

const Count = Type.Integer({ minimum: 0 })
const FontNames = List(64, 256)
/** Width and height of a span, in CSS pixels. */
const Size = Type.Tuple([Num, Num])

export const FontMetricsSchema = Type.Object({
  detected: FontNames,
  tested: Count,
  bases: Type.Object({ monospace: Size, 'sans-serif': Size, serif: Size }),
  /** The random control family measured differently from its fallback: the metrics are noised. */
  controlDetected: Bool,
  /** The base spans measured twice gave the same sizes. */
  stable: Bool,
  /** offsetWidth/Height agree with getBoundingClientRect within rounding. */
  offsetAgrees: Bool,
  /** The page's own realm measures the base families like the iframe (null: no iframe). */
  mainFrameAgrees: NBool,
  frame: Type.Union([Type.Literal('iframe'), Type.Literal('main')]),
})
export type FontMetrics = Static<typeof FontMetricsSchema>

export const FontCheckSchema = Type.Object({
  /** check() on the random control family. */
  control: Bool,
  /** Candidates for which check() returned false. */
  absent: FontNames,
  tested: Count,
})
export type FontCheck = Static<typeof FontCheckSchema>

export const FontFaceLocalSchema = Type.Object({
  loaded: FontNames,
  failed: FontNames,
  /** The random control name loaded: local() answers are made up. */
  control: Bool,
})
export type FontFaceLocal = Static<typeof FontFaceLocalSchema>

/** The family getComputedStyle gives for each CSS system-font keyword. */
export const SystemFontsSchema = Type.Object({
  caption: Str(100), icon: Str(100), menu: Str(100), 'message-box': Str(100), 'small-caption': Str(100), 'status-bar': Str(100),
})
export type SystemFonts = Static<typeof SystemFontsSchema>

/** navigator.platform and navigator.userAgentData.platform (null outside Chromium's secure contexts). */
export const PlatformClaimsSchema = Type.Object({ platform: Str(128), uaDataPlatform: NStr(64) })
export type PlatformClaims = Static<typeof PlatformClaimsSchema>

export const FontDetectionSignals = Type.Object({
  metrics: Signal(FontMetricsSchema),
  fontsCheck: Signal(FontCheckSchema),
  fontFace: Signal(FontFaceLocalSchema),
  systemFonts: Signal(SystemFontsSchema),
  platform: Signal(PlatformClaimsSchema),
  /** probes/signals/js-engine.ts: the engine the page runs on, told by its error messages, which the engine-dependent checks judge by. Optional: pages from before this signal do not send it. */
  engine: Type.Optional(Signal(JsEngineSchema)),
})
export type FontDetectionSignals = Static<typeof FontDetectionSignals>

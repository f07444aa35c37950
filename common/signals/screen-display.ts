// screen-display: what probes/entries/screen-display.ts reports. The screen, window and touch
// probes are also read by bot-detector and browser-fingerprint (each declares the members it
// judges); their full output is declared here. `engine` tells which engine runs the page
// (Gecko's resistFingerprinting rounds the sizes the other checks judge).

import { Type, type Static } from '@sinclair/typebox'
import { Bool, NStr, Num } from '../shorthands'
import { Signal } from '../signal'
import { JsEngineSchema } from './shared'

/** probes/signals/screen.ts: screen.* as the page sees it. */
export const ScreenMetricsSchema = Type.Object({
  width: Num, height: Num, availWidth: Num, availHeight: Num, colorDepth: Num, pixelDepth: Num,
  /** screen.orientation.type; null where screen.orientation is missing. */
  orientation: NStr(64),
})
export type ScreenMetrics = Static<typeof ScreenMetricsSchema>

/** probes/signals/window-metrics.ts: window geometry and pixel ratio. */
export const WindowMetricsSchema = Type.Object({
  innerWidth: Num, innerHeight: Num, outerWidth: Num, outerHeight: Num, screenX: Num, screenY: Num, devicePixelRatio: Num,
})
export type WindowMetrics = Static<typeof WindowMetricsSchema>

/** probes/signals/visual-viewport.ts */
export const VisualViewportSchema = Type.Object({ width: Num, height: Num, scale: Num })
export type VisualViewportMetrics = Static<typeof VisualViewportSchema>

/** probes/signals/display-media.ts: CSS media queries, which see the real screen. */
export const DisplayMediaSchema = Type.Object({
  deviceWidthMatches: Bool, deviceHeightMatches: Bool, resolutionMatches: Bool,
  colorGamut: NStr(64), dynamicRange: NStr(64), pointer: NStr(64), hover: NStr(64),
  colorScheme: NStr(64), reducedMotion: Bool, forcedColors: Bool,
})
export type DisplayMedia = Static<typeof DisplayMediaSchema>

/** probes/signals/touch.ts */
export const TouchSupportSchema = Type.Object({ maxTouchPoints: Num, touchEvent: Bool })
export type TouchSupport = Static<typeof TouchSupportSchema>

export const ScreenDisplaySignals = Type.Object({
  screen: Signal(ScreenMetricsSchema),
  window: Signal(WindowMetricsSchema),
  visualViewport: Signal(VisualViewportSchema),
  media: Signal(DisplayMediaSchema),
  touch: Signal(TouchSupportSchema),
  engine: Signal(JsEngineSchema),
})
export type ScreenDisplaySignals = Static<typeof ScreenDisplaySignals>

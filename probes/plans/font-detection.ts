// font-detection: installed fonts by text metrics (in an iframe), by document.fonts.check and
// by FontFace local(), the CSS system fonts, the platform the page's JavaScript claims, and
// the engine (its error messages), whose system-font rules system-font-os applies.
import { definePlan, type ToolPlan } from '../core/runner'
import { FONT_LIST, LOCAL_FONT_PROBES } from '../../common/font-os'
import { fontCheck } from '../signals/font-check'
import { fontFaceLocal } from '../signals/font-face-local'
import { fontMetrics } from '../signals/font-metrics'
import { jsEngine } from '../signals/js-engine'
import { platformClaims } from '../signals/platform-claims'
import { systemFonts } from '../signals/system-fonts'

/** font-detection's sources, made when its run starts (they read the page's nonce then). */
export function fontDetectionPlan(): ToolPlan {
  return definePlan('font-detection', {
    metrics: () => fontMetrics(FONT_LIST),
    fontsCheck: () => fontCheck(FONT_LIST),
    fontFace: () => fontFaceLocal(LOCAL_FONT_PROBES),
    systemFonts,
    platform: platformClaims,
    engine: jsEngine,
  })
}

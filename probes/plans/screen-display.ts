import { definePlan, type ToolPlan } from '../core/runner'
import { displayMedia } from '../signals/display-media'
import { jsEngine } from '../signals/js-engine'
import { screenMetrics } from '../signals/screen'
import { touchSupport } from '../signals/touch'
import { visualViewportMetrics } from '../signals/visual-viewport'
import { windowMetrics } from '../signals/window-metrics'

/** screen-display's sources, made when its run starts (they read the page's nonce then). */
export function screenDisplayPlan(): ToolPlan {
  return definePlan('screen-display', {
    screen: screenMetrics,
    window: () => windowMetrics(),
    visualViewport: visualViewportMetrics,
    media: displayMedia,
    touch: touchSupport,
    engine: jsEngine,
  })
}

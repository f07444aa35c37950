import type { VisualViewportMetrics } from '../../common/signals/screen-display'
import { unsupported } from '../core/probe-error'

// https://developer.mozilla.org/docs/Web/API/VisualViewport (missing in old Firefox).
export function visualViewportMetrics(): VisualViewportMetrics {
  const v = window.visualViewport
  if (!v) throw unsupported('no window.visualViewport')
  return { width: v.width, height: v.height, scale: v.scale }
}

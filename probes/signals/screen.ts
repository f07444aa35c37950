// screen.* as the page sees it. https://developer.mozilla.org/docs/Web/API/Screen
import type { ScreenMetrics } from '../../common/signals/screen-display'

export function screenMetrics(): ScreenMetrics {
  const s = screen
  return {
    width: s.width,
    height: s.height,
    availWidth: s.availWidth,
    availHeight: s.availHeight,
    colorDepth: s.colorDepth,
    pixelDepth: s.pixelDepth,
    orientation: s.orientation?.type ?? null,
  }
}

// Window geometry: outer vs inner size is the classic headless tell (no tabs or address bar).
import type { WindowMetrics } from '../../common/signals/screen-display'

export function windowMetrics(): WindowMetrics {
  return {
    innerWidth,
    innerHeight,
    outerWidth,
    outerHeight,
    screenX,
    screenY,
    devicePixelRatio,
  }
}

// Touch capability as reported by navigator and by the presence of touch events.
import type { TouchSupport } from '../../common/signals/screen-display'

export function touchSupport(): TouchSupport {
  return { maxTouchPoints: navigator.maxTouchPoints ?? 0, touchEvent: 'ontouchstart' in window }
}

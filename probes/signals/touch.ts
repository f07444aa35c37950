// Touch capability as reported by navigator and by the presence of touch events.
export function touchSupport() {
  return { maxTouchPoints: navigator.maxTouchPoints ?? 0, touchEvent: 'ontouchstart' in window }
}

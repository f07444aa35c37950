// Window geometry: outer vs inner size is the classic headless tell (no tabs or address bar).
export function windowMetrics() {
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

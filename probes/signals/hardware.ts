// CPU cores and memory bucket. deviceMemory is Chromium-only and deliberately coarse: a power
// of two from 0.25 up to a cap (https://www.w3.org/TR/device-memory/#sec-device-memory-js-api);
// Firefox resistFingerprinting and Tor report 2 cores, Brave farbles the core count per
// session and site. https://developer.mozilla.org/docs/Web/API/Navigator/deviceMemory
export function hardware() {
  const n = navigator as Navigator & { deviceMemory?: number }
  return { hardwareConcurrency: n.hardwareConcurrency ?? null, deviceMemory: n.deviceMemory ?? null }
}

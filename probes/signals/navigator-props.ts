// What navigator says the browser and OS are, as FingerprintJS components (platform, vendor,
// productSub, oscpu, cpuClass); each must agree with the User-Agent. navigator.platform is
// "Win32" on every Windows, "MacIntel" on every Mac (Apple Silicon included), "Linux …" on
// Linux and Android, "iPhone"/"iPad" on iOS; vendor is "Google Inc." in Blink, "Apple
// Computer, Inc." in WebKit and "" in Gecko; productSub is "20030107" except in Gecko.
// https://developer.mozilla.org/docs/Web/API/Navigator/platform
export function navigatorProps() {
  const n = navigator as Navigator & { oscpu?: string; cpuClass?: string }
  return {
    userAgent: n.userAgent,
    appVersion: n.appVersion,
    platform: n.platform,
    vendor: n.vendor,
    productSub: n.productSub,
    // Gecko only (its own OS string) and old IE only.
    oscpu: n.oscpu ?? null,
    cpuClass: n.cpuClass ?? null,
  }
}

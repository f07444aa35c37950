// Browser-specific globals that tell browsers sharing an engine apart (FingerprintJS
// src/sources/vendor_flavors.ts): window.chrome in Blink, window.safari on desktop Safari,
// __crWeb/__gCrWeb in Chrome for iOS, __firefox__ in Firefox for iOS, and so on. A UA that
// claims Chrome with no window.chrome, or Firefox with one, is not what it says.
const FLAVOURS = ['chrome', 'safari', '__crWeb', '__gCrWeb', 'yandex', '__yb', '__ybro', '__firefox__', '__edgeTrackingPreventionStatistics', 'webkit', 'oprt', 'samsungAr', 'ucweb', 'UCShellJava', 'puffinDevice'] as const

export function vendorFlavours() {
  const w = window as unknown as Record<string, unknown>
  const present = FLAVOURS.filter((k) => w[k] && typeof w[k] === 'object').sort()
  const chrome = w.chrome as Record<string, unknown> | undefined
  return {
    flavours: present,
    // Desktop Chrome has app, csi, loadTimes (and runtime on some pages); a stub {} is a mock.
    chromeKeys: chrome && typeof chrome === 'object' ? Object.keys(chrome).sort().slice(0, 20) : null,
  }
}

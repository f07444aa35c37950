// The OS the page's JavaScript claims: navigator.platform ("Win32", "MacIntel", "Linux x86_64",
// "iPhone", "Linux armv8l" on Android) and, in Chromium on secure contexts, the low-entropy
// navigator.userAgentData.platform ("Windows", "macOS", "Linux", "Android", "Chrome OS").
// https://developer.mozilla.org/docs/Web/API/Navigator/platform

import type { PlatformClaims } from '../../common/signals/font-detection'

export function platformClaims(): PlatformClaims {
  const d = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData
  return { platform: String(navigator.platform ?? '').slice(0, 128), uaDataPlatform: typeof d?.platform === 'string' ? d.platform.slice(0, 64) : null }
}

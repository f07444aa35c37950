// What the browser says it is in JavaScript: the user agent and its client-hint twin
// (navigator.userAgentData, Chromium only and only in secure contexts:
// https://developer.mozilla.org/docs/Web/API/Navigator/userAgentData), platform, languages,
// cores. The server compares it with the same claims in the request headers, and with the
// worker's and an iframe's navigator, where overrides made in the page are often missing.

export interface UaBrand {
  brand: string
  version: string
}

export interface NavigatorIdentity {
  userAgent: string
  appVersion: string
  platform: string
  language: string
  languages: string[]
  vendor: string
  hardwareConcurrency: number | null
  deviceMemory: number | null
  secureContext: boolean
  uaData: { brands: UaBrand[]; mobile: boolean; platform: string } | null
}

type UaNavigator = Navigator & { userAgentData?: { brands: UaBrand[]; mobile: boolean; platform: string }; deviceMemory?: number }

export function navigatorIdentity(): NavigatorIdentity {
  const n = navigator as UaNavigator
  const d = n.userAgentData
  return {
    userAgent: n.userAgent,
    appVersion: n.appVersion,
    platform: n.platform,
    language: n.language,
    languages: Array.from(n.languages ?? []).slice(0, 16),
    vendor: n.vendor,
    hardwareConcurrency: n.hardwareConcurrency ?? null,
    deviceMemory: n.deviceMemory ?? null,
    secureContext: isSecureContext,
    uaData: d ? { brands: d.brands.map((b) => ({ brand: b.brand, version: b.version })), mobile: d.mobile, platform: d.platform } : null,
  }
}

// What the browser says it is in JavaScript: the user agent and its client-hint twin
// (navigator.userAgentData, Chromium only and only in secure contexts:
// https://developer.mozilla.org/docs/Web/API/Navigator/userAgentData), platform, languages.
// The server compares it with the same claims in the request headers; cores and memory are
// read in the page, an iframe and a worker by scope-snapshot.ts.

import type { NavigatorIdentity } from '../../common/signals/shared'

export interface UaBrand {
  brand: string
  version: string
}

type UaNavigator = Navigator & { userAgentData?: { brands: UaBrand[]; mobile: boolean; platform: string } }

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
    secureContext: isSecureContext,
    uaData: d ? { brands: d.brands.map((b) => ({ brand: b.brand, version: b.version })), mobile: d.mobile, platform: d.platform } : null,
  }
}

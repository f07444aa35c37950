// The two privacy preferences a page can read, each with a header the browser sends itself:
// Global Privacy Control (navigator.globalPrivacyControl ↔ Sec-GPC: 1; Firefox, Brave, Safari
// behind a flag, extensions) and Do Not Track (navigator.doNotTrack ↔ DNT: 1; deprecated but
// still sent by Chrome and Firefox when enabled; old Safari/IE put it on window).
// https://developer.mozilla.org/docs/Web/API/Navigator/globalPrivacyControl

import type { PrivacyPrefs } from '../../common/signals/http-headers'

export function privacyPrefs(): PrivacyPrefs {
  const n = navigator as Navigator & { globalPrivacyControl?: boolean; msDoNotTrack?: string }
  const w = window as Window & { doNotTrack?: string }
  const dnt = n.doNotTrack ?? w.doNotTrack ?? n.msDoNotTrack ?? null
  return {
    globalPrivacyControl: typeof n.globalPrivacyControl === 'boolean' ? n.globalPrivacyControl : null,
    doNotTrack: dnt === null || dnt === undefined ? null : String(dnt).slice(0, 16),
  }
}

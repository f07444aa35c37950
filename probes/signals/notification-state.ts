// Notification.permission ('default' | 'granted' | 'denied') is the same setting that
// permissions.query({name: 'notifications'}) reports as 'prompt' | 'granted' | 'denied'.
// Old headless Chromium answered 'denied' here and 'prompt' there
// (https://bugs.chromium.org/p/chromium/issues/detail?id=1052332); stealth patches that fake one
// side often forget the other. iOS Safari has no Notification outside home-screen apps.

export function notificationState() {
  return { permission: typeof Notification === 'undefined' ? null : String(Notification.permission).slice(0, 16) }
}

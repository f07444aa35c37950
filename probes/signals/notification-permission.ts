// Notification.permission against permissions.query({name: 'notifications'}): both read the
// same setting, mapped default↔prompt. Headless Chromium answered 'denied' to the first and
// 'prompt' to the second (https://bugs.chromium.org/p/chromium/issues/detail?id=1052332),
// the test every bot detector since 2018 has carried. iOS Safari has no Notification outside
// home-screen apps: null there.

import type { NotificationPermission } from '../../common/signals/shared'
import { unsupported } from '../core/probe-error'

export async function notificationPermission(): Promise<NotificationPermission> {
  const notification = typeof Notification === 'undefined' ? null : String(Notification.permission)
  let query: string | null = null
  let queryError: string | null = null
  if (navigator.permissions?.query) {
    try {
      query = (await navigator.permissions.query({ name: 'notifications' as PermissionName })).state
    } catch (e) {
      queryError = String((e as Error)?.message ?? e).slice(0, 200)
    }
  }
  if (notification === null && query === null && queryError === null) throw unsupported('no Notification and no Permissions API')
  return { notification, query, queryError }
}

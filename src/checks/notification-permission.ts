// Notification.permission ('default' | 'granted' | 'denied') and
// permissions.query({name: 'notifications'}) ('prompt' | 'granted' | 'denied') read the same
// setting. Headless Chromium long answered 'denied' to the first and 'prompt' to the second
// (crbug 1052332, BotD's notificationPermissions detector); a stealth patch of one side gives
// the same disagreement, and a fake answer may not even be a PermissionState ('default').

import type { SignalResult } from '../../common/signal'
import type { NotificationPermission } from '../../common/signals/shared'
import { checkOn, na, type Outcome } from './define'

/** The `notification` signal (probes/signals/notification-permission.ts), as bot-detector and permissions-api collect it. */
export interface NotificationSignals {
  notification: SignalResult<NotificationPermission>
}

const notificationCheck = checkOn<NotificationSignals>()

/** Both sides' answers, or why the pair cannot be compared. */
function pairOf(n: NotificationPermission): { notification: string; query: string } | Outcome {
  if (n.notification === null) return na('no Notification API (iOS Safari outside home-screen apps)')
  if (n.query === null) return na(`permissions.query has no notifications state${n.queryError ? ` (${n.queryError})` : ''}`)
  return { notification: n.notification, query: n.query }
}

export const notificationPermission = notificationCheck({
  id: 'notification-permission',
  name: 'Notification.permission agrees with permissions.query',
  found: 'Notification.permission contradicts permissions.query',
  source: 'client',
  why: 'Notification.permission and permissions.query({name: "notifications"}) read the same setting (default ↔ prompt) in every engine. Old headless Chromium answered "denied" to one and "prompt" to the other (crbug 1052332); a stealth patch of one side gives the same disagreement. A consistent browser never does.',
  ref: 'https://bugs.chromium.org/p/chromium/issues/detail?id=1052332',
  needs: ['notification'],
  judge: ({ notification }) => {
    const pair = pairOf(notification)
    if ('verdict' in pair) return pair
    const expected = pair.notification === 'default' ? 'prompt' : pair.notification
    return {
      verdict: pair.query === expected ? 'pass' : 'fail',
      observed: `Notification.permission "${pair.notification}", permissions.query "${pair.query}"`,
      expected: `permissions.query says "${expected}"`,
    }
  },
})

export const notificationDefault = notificationCheck({
  id: 'notification-default',
  name: 'Notifications are not denied by default',
  found: 'notifications are denied by default',
  source: 'client',
  why: 'A fresh profile asks before showing notifications ("default"); headless and automation profiles often deny them outright. Many people block notifications for all sites, so this is only a small warning.',
  needs: ['notification'],
  judge: ({ notification }) => {
    const pair = pairOf(notification)
    if ('verdict' in pair) return pair
    return {
      verdict: pair.notification === 'denied' && pair.query === 'denied' ? 'warn' : 'pass',
      observed: pair.notification,
      expected: 'default (a fresh profile asks first)',
    }
  },
})

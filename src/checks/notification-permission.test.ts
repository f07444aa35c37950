import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import type { NotificationPermission } from '../../common/signals/shared'
import { notificationDefault, notificationPermission } from './notification-permission'

const server: ServerObservation = { ip: '192.0.2.1', userAgent: '', headers: [], receivedAt: 0 }
const run = (pair: NotificationPermission) => {
  const [permission, byDefault] = runChecks([[notificationPermission, 25], [notificationDefault, 8]], { notification: { ok: true, value: pair, ms: 1 } }, server, {}).checks
  return { permission: permission!, byDefault: byDefault! }
}
const pair = (notification: string | null, query: string | null, queryError: string | null = null) => ({ notification, query, queryError })

describe('notification-permission', () => {
  test('default and prompt are the same setting', () => {
    expect(run(pair('default', 'prompt')).permission).toMatchObject({
      verdict: 'pass',
      observed: 'Notification.permission "default", permissions.query "prompt"',
      expected: 'permissions.query says "prompt"',
    })
    expect(run(pair('granted', 'granted')).permission.verdict).toBe('pass')
  })

  test('old headless: Notification denied while the query says prompt fails', () => {
    expect(run(pair('denied', 'prompt')).permission.verdict).toBe('fail')
  })

  test('a query answering "default" (not a PermissionState) disagrees with Notification', () => {
    expect(run(pair('default', 'default')).permission.verdict).toBe('fail')
  })

  test('one side missing is not applicable, saying which', () => {
    expect(run(pair(null, 'prompt')).permission).toMatchObject({ verdict: 'na', expected: 'no Notification API (iOS Safari outside home-screen apps)' })
    expect(run(pair('default', null, 'Failed to execute query')).permission).toMatchObject({ verdict: 'na', expected: 'permissions.query has no notifications state (Failed to execute query)' })
  })
})

describe('notification-default', () => {
  test('denied on both sides only warns; default passes', () => {
    expect(run(pair('denied', 'denied'))).toMatchObject({ permission: { verdict: 'pass' }, byDefault: { verdict: 'warn', points: 4 } })
    expect(run(pair('default', 'prompt')).byDefault.verdict).toBe('pass')
  })
})

// A few permission states read again in a dedicated worker: a stealth patch of the page's
// Permissions.prototype.query (or of Notification) does not reach the worker's own globals, so
// its answers differ. Firefox exposes navigator.permissions to workers only since version 125.

import type { PermissionsWorker } from '../../common/signals/permissions-api'
import { inWorker, runInWorker } from '../core/worker'

export const permissionsInWorker = inWorker(() =>
  runInWorker(async (): Promise<PermissionsWorker> => {
    const p = (self.navigator as Navigator & { permissions?: Permissions }).permissions
    if (!p || typeof p.query !== 'function') return { supported: false, states: {} }
    const states: Record<string, string> = {}
    for (const name of ['notifications', 'geolocation', 'camera', 'microphone', 'midi', 'persistent-storage']) {
      try {
        states[name] = String((await p.query({ name } as PermissionDescriptor)).state).slice(0, 16)
      } catch {
        states[name] = 'error'
      }
    }
    return { supported: true, states }
  }),
)

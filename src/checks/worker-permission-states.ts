// A few permission states read again in a dedicated worker (probes/signals/permissions-worker.ts):
// a patch of the page's Permissions.prototype.query does not reach the worker's own globals.
// Firefox exposes navigator.permissions to workers only since version 125.
// https://developer.mozilla.org/docs/Web/API/WorkerNavigator/permissions

import type { PermissionsApiSignals } from '../../common/signals/permissions-api'
import { checkOn, na } from './define'

export const permissionsWorker = checkOn<PermissionsApiSignals>()({
  id: 'permissions-worker',
  name: 'A worker sees the same permission states',
  found: 'a worker sees other permission states',
  source: 'client',
  why: 'Workers have their own navigator.permissions; a patch applied to the page does not reach them. The same setting must give the same state in both.',
  ref: 'https://developer.mozilla.org/docs/Web/API/WorkerNavigator/permissions',
  expected: 'the same states in the page and in a worker',
  needs: ['worker'],
  uses: ['registry'],
  judge: ({ worker, registry }, { missing }) => {
    if (!worker.supported) return na('this browser has no navigator.permissions in workers')
    if (!registry) return na(missing('registry'))
    const pageState = (name: string) => {
      const main = registry.results[name]
      return main && 'state' in main ? main.state : undefined
    }
    // A query that threw in the worker says nothing about the setting.
    const diff = Object.entries(worker.states).filter(([n, st]) => {
      const page = pageState(n)
      return page !== undefined && st !== 'error' && st !== page
    })
    return {
      verdict: diff.length ? 'fail' : 'pass',
      observed: diff.length ? Object.fromEntries(diff.map(([n, st]) => [n, { page: pageState(n), worker: st }])) : `${Object.keys(worker.states).length} states agree`,
    }
  },
})

// Whether permissions.query is the engine's own function and its answers real PermissionStatus
// objects (probes/signals/permissions-lies.ts runs the CreepJS-style native-function tests).
// puppeteer-extra-plugin-stealth wraps query in a Proxy and answers 'notifications' with a
// plain object re-prototyped to PermissionStatus.
// https://github.com/abrahamjuliot/creepjs/blob/master/src/lies/index.ts

import type { PermissionsApiSignals } from '../../common/signals/permissions-api'
import { checkOn } from './define'

const liesCheck = checkOn<PermissionsApiSignals>()

export const permissionsQueryNative = liesCheck({
  id: 'permissions-query-native',
  name: 'permissions.query is the engine’s own',
  found: 'permissions.query is not the engine’s own',
  source: 'client',
  why: 'Native methods print "[native code]", have no prototype or own toString, are not constructors, reject calls on foreign objects and cannot be given a prototype cycle; a Proxy or replacement (puppeteer-extra stealth patches query this way) fails at least one. Privacy extensions rarely touch permissions.query, so a lie here is a strong automation tell.',
  ref: 'https://github.com/berstend/puppeteer-extra/tree/master/packages/puppeteer-extra-plugin-stealth/evasions/navigator.permissions',
  needs: ['lies'],
  judge: ({ lies }) => ({
    verdict: lies.query.length ? 'fail' : 'pass',
    observed: lies.query.length ? { failedTests: lies.query } : 'all native-function tests pass',
    expected: 'a native, unproxied Permissions.prototype.query',
  }),
})

export const permissionStatusGenuine = liesCheck({
  id: 'permission-status-genuine',
  name: 'Answers are real PermissionStatus objects',
  found: 'answers are not real PermissionStatus objects',
  source: 'client',
  why: 'A real PermissionStatus has no own properties and its state comes from the prototype getter. Fakes built with Object.setPrototypeOf({state}, PermissionStatus.prototype) carry their own state and make the native getter throw.',
  ref: 'https://w3c.github.io/permissions/#permissionstatus-interface',
  needs: ['lies'],
  judge: ({ lies }) => ({
    verdict: lies.status.length ? 'fail' : 'pass',
    observed: lies.status.length ? { failedTests: lies.status } : 'genuine PermissionStatus',
    expected: 'no own properties, PermissionStatus prototype, working state getter',
  }),
})

// permissions-api: the permission registry as the browser answers it (which names its engine
// knows tells the engine and a version range), the Notification/permissions mismatch, whether
// permissions.query and its answers are genuine, the same states in a worker, and which feature
// APIs and engine markers exist, all against the browser the User-Agent header claims, held to
// the engine the page's error messages show (probes/signals/js-engine.ts) where they tell one.

import { Type } from '@sinclair/typebox'
import { signalValue } from '../../../common/signal'
import { engineFromMarkers, engineFromPermissions } from '../../../common/permission-engines'
import { PermissionsApiSignals } from '../../../common/signals/permissions-api'
import { claimOf } from '../../checks/engine-claim'
import { engineMarkers, featureApis, missingDesktopApis } from '../../checks/engine-features'
import { pageEngine } from '../../checks/page-engine'
import { notificationDefault, notificationPermission } from '../../checks/notification-permission'
import { nameStatus, permissionRandomName, permissionsApiPresent, permissionsEngine, permissionsVersion, versionEvidence } from '../../checks/permission-names'
import { permissionStatusGenuine, permissionsQueryNative } from '../../checks/permissions-query-lies'
import { permissionsWorker } from '../../checks/worker-permission-states'
import { defineTool } from './types'

export const permissionsApi = defineTool({
  id: 'permissions-api',
  signals: PermissionsApiSignals,
  sections: Type.Object({ permissions: Type.Unknown() }),
  checks: [
    [permissionsApiPresent, 15],
    [permissionRandomName, 35],
    [permissionsEngine, 40],
    [permissionsVersion, 25],
    [notificationPermission, 40],
    [notificationDefault, 8],
    [permissionsQueryNative, 35],
    [permissionStatusGenuine, 25],
    [permissionsWorker, 25],
    [engineMarkers, 30],
    [featureApis, 20],
  ],
  addSections(s, _judged, server) {
    const reg = signalValue(s.registry)
    const features = signalValue(s.features)
    const claim = claimOf(server)
    const running = pageEngine(signalValue(s.engine)).engine
    const status = reg ? nameStatus(reg) : {}
    return {
      permissions: {
        states: status,
        engine: {
          byPermissions: reg ? engineFromPermissions(status) : 'unknown',
          byMarkers: features ? engineFromMarkers(features.markers) : 'unknown',
          byErrors: running,
          claimed: claim.engine,
          claimedBrowser: claim.browser,
          claimedVersion: claim.major,
        },
        engineAtLeast: versionEvidence(status, claim, running)?.atLeast ?? null,
        notification: signalValue(s.notification)?.notification ?? null,
        secureContext: features?.secureContext ?? null,
        apis: features ? Object.keys(features.apis).filter((a) => features.apis[a]) : null,
        missingExpectedApis: features ? missingDesktopApis(features, claim) : [],
      },
    }
  },
})

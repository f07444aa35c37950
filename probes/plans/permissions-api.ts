import { definePlan, type ToolPlan } from '../core/runner'
import { PERMISSION_NAMES } from '../../common/permission-engines'
import { featureApis } from '../signals/feature-apis'
import { jsEngine } from '../signals/js-engine'
import { notificationPermission } from '../signals/notification-permission'
import { permissionRegistry } from '../signals/permission-registry'
import { permissionsLies } from '../signals/permissions-lies'
import { permissionsInWorker } from '../signals/permissions-worker'

/** permissions-api's sources, made when its run starts (they read the page's nonce then). */
export function permissionsApiPlan(): ToolPlan {
  return definePlan('permissions-api', {
    registry: () => permissionRegistry(PERMISSION_NAMES),
    notification: notificationPermission,
    lies: permissionsLies,
    worker: permissionsInWorker,
    features: featureApis,
    engine: jsEngine,
  })
}

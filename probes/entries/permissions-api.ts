import { runUntypedToolPage } from '../core/runner'
import { PERMISSION_NAMES } from '../../common/permission-engines'
import { featureApis } from '../signals/feature-apis'
import { notificationState } from '../signals/notification-state'
import { permissionRegistry } from '../signals/permission-registry'
import { permissionsLies } from '../signals/permissions-lies'
import { permissionsInWorker } from '../signals/permissions-worker'

void runUntypedToolPage('permissions-api', {
  registry: () => permissionRegistry(PERMISSION_NAMES),
  notification: notificationState,
  lies: permissionsLies,
  worker: permissionsInWorker,
  features: featureApis,
})

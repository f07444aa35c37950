// The permissions-api tool page: its plan (probes/plans/permissions-api.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { permissionsApiPlan } from '../plans/permissions-api'

void runToolPage(permissionsApiPlan())

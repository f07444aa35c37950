// The ip-leak tool page: its plan (probes/plans/ip-leak.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { ipLeakPlan } from '../plans/ip-leak'

void runToolPage(ipLeakPlan())

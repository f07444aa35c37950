// The vpn-detector tool page: its plan (probes/plans/vpn-detector.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { vpnDetectorPlan } from '../plans/vpn-detector'

void runToolPage(vpnDetectorPlan())

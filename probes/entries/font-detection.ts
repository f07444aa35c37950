// The font-detection tool page: its plan (probes/plans/font-detection.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { fontDetectionPlan } from '../plans/font-detection'

void runToolPage(fontDetectionPlan())

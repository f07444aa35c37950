// The screen-display tool page: its plan (probes/plans/screen-display.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { screenDisplayPlan } from '../plans/screen-display'

void runToolPage(screenDisplayPlan())

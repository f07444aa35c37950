// The timezone-geo tool page: its plan (probes/plans/timezone-geo.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { timezoneGeoPlan } from '../plans/timezone-geo'

void runToolPage(timezoneGeoPlan())

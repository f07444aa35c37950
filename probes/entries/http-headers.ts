// The http-headers tool page: its plan (probes/plans/http-headers.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { httpHeadersPlan } from '../plans/http-headers'

void runToolPage(httpHeadersPlan())

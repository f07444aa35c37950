// The dns-leak tool page: its plan (probes/plans/dns-leak.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { dnsLeakPlan } from '../plans/dns-leak'

void runToolPage(dnsLeakPlan())

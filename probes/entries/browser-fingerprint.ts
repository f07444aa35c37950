// The browser-fingerprint tool page: its plan (probes/plans/browser-fingerprint.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { browserFingerprintPlan } from '../plans/browser-fingerprint'

void runToolPage(browserFingerprintPlan())

// The canvas-fingerprint tool page: its plan (probes/plans/canvas-fingerprint.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { canvasFingerprintPlan } from '../plans/canvas-fingerprint'

void runToolPage(canvasFingerprintPlan())

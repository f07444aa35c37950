// The tls-fingerprint tool page: its plan (probes/plans/tls-fingerprint.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { tlsFingerprintPlan } from '../plans/tls-fingerprint'

void runToolPage(tlsFingerprintPlan())

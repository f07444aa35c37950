// The audio-fingerprint tool page: its plan (probes/plans/audio-fingerprint.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { audioFingerprintPlan } from '../plans/audio-fingerprint'

void runToolPage(audioFingerprintPlan())

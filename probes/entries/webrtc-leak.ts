// The webrtc-leak tool page: its plan (probes/plans/webrtc-leak.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { webrtcLeakPlan } from '../plans/webrtc-leak'

void runToolPage(webrtcLeakPlan())

// The bot-detector tool page: its plan (probes/plans/bot-detector.ts), run as the page loads.
import { runToolPage } from '../core/runner'
import { botDetectorPlan } from '../plans/bot-detector'

void runToolPage(botDetectorPlan())

// bot-detector's verdict for a person: `bot` when a marker no person's browser produces fired
// or the score is 40 or less, `suspicious` below 80 or when too many core probes went
// unanswered to tell (a page that timed out on a slow device: issue 36), `human` otherwise.

import type { Check } from '../core/scoring'
import { automationGlobals, phantomjsTraces, playwrightGlobals, seleniumGlobals } from './framework-globals'
import { headlessBrands, headlessUa, headlessUaHeader, headlessWorkerUa } from './headless-markers'
import { headlessSharedWorkerUa } from './shared-worker-ua'
import { inputPacing } from './input-pacing'
import { coreProbesUnanswered } from './probe-integrity'
import { stackSourceUrl } from './stack-frames'
import { webdriverFlag } from './webdriver-flag'
import { tlsVersion } from './tls-version'
import { replayedRun } from './replayed-run'
import { signedAgent } from './signed-agent'

export const BOT_VERDICTS = ['human', 'suspicious', 'bot'] as const
export type BotVerdict = (typeof BOT_VERDICTS)[number]

/** Checks whose failure alone makes the verdict `bot`: markers no person's browser produces. */
const DECISIVE = new Set<string>(
  [webdriverFlag, stackSourceUrl, inputPacing, playwrightGlobals, seleniumGlobals, phantomjsTraces, automationGlobals, headlessUa, headlessWorkerUa, headlessBrands, headlessUaHeader, headlessSharedWorkerUa, tlsVersion, replayedRun, signedAgent].map((c) => c.id),
)

export function verdictOf(checks: readonly Check[], score: number): BotVerdict {
  if (score <= 40 || checks.some((c) => c.verdict === 'fail' && DECISIVE.has(c.id))) return 'bot'
  return score < 80 || coreProbesUnanswered(checks) ? 'suspicious' : 'human'
}

// What `antibot_tasks_created_total{tool,verdict}` calls a stored task (src/metrics.ts): the
// headline of its report (src/pages/report.tsx), as one of a few words, so that the label has a
// handful of values whatever the results say.
// - `untested`: the tool's main evidence was missing (results.tested false), the report says
//   "Not tested" instead of a verdict;
// - bot-detector: its own verdict, `human`, `suspicious` or `bot` (src/checks/automation-verdict.ts);
// - every other tool: the band of its score the report's generic headline names (verdictLabel):
//   `ordinary` (80 and over: "Looks like an ordinary, consistent browser"), `suspicious`
//   (41–79), `detected` (40 and under: "Automation, spoofing or leaks detected"). Tools whose
//   headline is a sentence of their own still get the band of their score here. (A
//   bot-detector body of the interface spec's shape, scored from its own `scoring` entries,
//   carries no verdict: it gets its score's band in bot-detector's words, human, suspicious, bot.)

import { BOT_VERDICTS } from '../checks/automation-verdict'
import type { ToolId } from '../../common/tools'

export const SCORE_BANDS = ['ordinary', 'suspicious', 'detected'] as const
export type TaskVerdict = 'untested' | (typeof BOT_VERDICTS)[number] | (typeof SCORE_BANDS)[number]

/** The verdicts a tool's tasks can be counted under. */
export function taskVerdicts(tool: ToolId): readonly TaskVerdict[] {
  return tool === 'bot-detector' ? [...BOT_VERDICTS, 'untested'] : [...SCORE_BANDS, 'untested']
}

/** The score's band, with report.tsx verdictLabel's bounds. */
export function scoreBand(score: number): (typeof SCORE_BANDS)[number] {
  if (score >= 80) return 'ordinary'
  if (score > 40) return 'suspicious'
  return 'detected'
}

const BOT_WORDS = { ordinary: 'human', suspicious: 'suspicious', detected: 'bot' } as const

export function taskVerdict(tool: ToolId, results: Readonly<Record<string, unknown>>, score: number): TaskVerdict {
  if (results.tested === false) return 'untested'
  if (tool === 'bot-detector') {
    const v = results.verdict
    if ((BOT_VERDICTS as readonly unknown[]).includes(v)) return v as TaskVerdict
    return BOT_WORDS[scoreBand(score)]
  }
  return scoreBand(score)
}

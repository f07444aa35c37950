// The core probes only read properties every browser has: when several did not answer, the
// page's script was tampered with or the results were made up outside a browser. A probe that
// timed out is another matter: on a busy or slow device (issue 36) any probe may miss the
// page's per-signal timeout, so timeouts only warn, however many, and never fail a person.

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { whyMissing } from '../../common/signal'
import type { Check } from '../core/scoring'
import { checkOn } from './define'

const CORE = ['webdriver', 'cdp', 'globals', 'navigator', 'page', 'engine', 'lies', 'screen', 'window'] as const
/** Core probes without an answer from which the page could not tell much about automation. */
const TOO_MANY = 3

export const probeIntegrity = checkOn<BotDetectorSignals>()({
  id: 'probe-integrity',
  name: 'The page could read the basic browser APIs',
  found: 'the page could not read basic browser APIs',
  source: 'client',
  why: "The core probes (webdriver flag, navigator, engine, lie tests, screen and window sizes, globals, CDP) only read properties that every browser has; they fail only when the page's script was tampered with or the results were made up outside a browser. One missing warns, three or more fail. A probe that timed out only warns, however many did: a busy or slow device may miss the page's timeout, and the checks that needed it are not applicable.",
  expected: 'every core probe answered',
  needs: [],
  judge: (_, { raw }) => {
    const absent = CORE.filter((k) => !raw[k]?.ok)
    const broken = absent.filter((k) => raw[k]?.ok !== false || raw[k]?.error.kind !== 'timeout')
    return {
      verdict: broken.length >= TOO_MANY ? 'fail' : absent.length ? 'warn' : 'pass',
      observed: absent.length ? absent.map((k) => `${k}: ${whyMissing(raw[k])}`) : `all ${CORE.length} core probes answered`,
    }
  },
})

/**
 * Whether too many core probes went unanswered (for any reason, timeouts included) for the page
 * to tell a person: bot-detector's verdict is then at best `suspicious`, never `human`.
 */
export function coreProbesUnanswered(checks: readonly Check[]): boolean {
  const c = checks.find((x) => x.id === probeIntegrity.id)
  return !!c && c.verdict !== 'pass' && Array.isArray(c.observed) && c.observed.length >= TOO_MANY
}

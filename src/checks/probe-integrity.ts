// The core probes only read properties every browser has: when several did not answer, the
// page's script was tampered with or the results were made up outside a browser.

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { whyMissing } from '../../common/signal'
import { checkOn } from './define'

const CORE = ['webdriver', 'cdp', 'globals', 'navigator', 'page', 'engine', 'lies', 'screen', 'window'] as const

export const probeIntegrity = checkOn<BotDetectorSignals>()({
  id: 'probe-integrity',
  name: 'The page could read the basic browser APIs',
  found: 'the page could not read basic browser APIs',
  source: 'client',
  why: "The core probes (webdriver flag, navigator, engine, lie tests, screen and window sizes, globals, CDP) only read properties that every browser has; they fail only when the page's script was tampered with or the results were made up outside a browser. One missing warns (a timeout under heavy load is possible), three or more fail.",
  expected: 'every core probe answered',
  needs: [],
  judge: (_, { raw }) => {
    const absent = CORE.filter((k) => !raw[k]?.ok).map((k) => `${k}: ${whyMissing(raw[k])}`)
    return {
      verdict: absent.length >= 3 ? 'fail' : absent.length ? 'warn' : 'pass',
      observed: absent.length ? absent : `all ${CORE.length} core probes answered`,
    }
  },
})

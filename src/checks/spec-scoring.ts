// A bot-detector submission in exactly the interface spec's shape (no signals, as a client that
// runs its own tests sends it) is scored from its `scoring` entries: one check per entry, each
// judged as the client judged it, with the leak it reported as observed. PhantomJS is the same
// finding as the page's own check, so it keeps that check's id and text.

import { check, type Check, type CheckDef, type Verdict } from '../core/scoring'
import { phantomjsTraces } from './framework-globals'

const SPEC_SCORING: Record<'webdriver' | 'selenium' | 'phantomjs', CheckDef & { found: string }> = {
  webdriver: { id: 'webdriver', name: 'No WebDriver flag', found: 'the client reported a WebDriver flag', source: 'client', weight: 60, why: 'navigator.webdriver is true under WebDriver, CDP automation flags and headless launches.' },
  selenium: { id: 'selenium', name: 'No Selenium traces', found: 'the client reported Selenium traces', source: 'client', weight: 60, why: 'Selenium and chromedriver leave globals and document attributes behind.' },
  phantomjs: { id: phantomjsTraces.id, name: phantomjsTraces.name, found: phantomjsTraces.found, source: phantomjsTraces.source, weight: 60, why: phantomjsTraces.why },
}

/** The definitions of those checks (their text is hydrated from here when a task is served: src/core/check-text.ts). */
export const SPEC_SCORING_DEFS: ReadonlyArray<CheckDef & { found: string }> = Object.values(SPEC_SCORING)

/** Checks for a spec-shaped bot-detector submission: one per scoring entry. */
export function checksFromSpecScoring(results: { scoring: Record<string, string>; leaks: Record<string, boolean> }): Check[] {
  return (Object.keys(SPEC_SCORING) as Array<keyof typeof SPEC_SCORING>).map((k) =>
    check(SPEC_SCORING[k], { verdict: results.scoring[k] as Verdict, observed: results.leaks[k], expected: 'false' }),
  )
}

// Code a driver evaluates in the page carries its origin in stack frames: Puppeteer's
// "pptr:" sourceURL, Playwright's UtilityScript. probes/signals/stack-leaks.ts wraps the DOM
// lookups while the tests run and reads its callers' stacks.

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn } from './define'

/** Which framework a foreign stack frame points at: 'playwright', 'puppeteer', 'unknown-eval', or null. */
export function frameworkOfFrame(frame: string): string | null {
  if (/pptr:|__puppeteer_evaluation_script__/.test(frame)) return 'puppeteer'
  // Playwright evaluates through its UtilityScript class, itself a script without a URL: code it
  // runs later (waitForFunction's polling) keeps "eval at evaluate (:line:column)" frames.
  if (/UtilityScript|__playwright_evaluation_script__|eval at evaluate \(:\d+:\d+\)/.test(frame)) return 'playwright'
  if (/<anonymous>:\d+:\d+|eval at /.test(frame)) return 'unknown-eval'
  return null
}

/** What evaluated code read that only a script waiting for this page's result wants: the task id, its error, its status line. */
export function pollsForResult(reads: readonly string[]): string[] {
  return reads.filter((r) => /\btask\b|data-task|data-error|dataset\.error|\bstatus\b/.test(r))
}

export const stackSourceUrl = checkOn<BotDetectorSignals>()({
  id: 'stack-sourceurl',
  name: 'No automation frames in stack traces',
  found: 'stack traces carry automation frames',
  source: 'client',
  why: "Code a driver evaluates in the page carries its origin in stack frames: Puppeteer's \"pptr:\" sourceURL, Playwright's UtilityScript, and no script URL at all for a raw DevTools client's Runtime.evaluate or Selenium's execute_script. The page wraps its DOM lookups (and the document.body and dataset getters) until it submits and reads the callers' stacks. Evaluated code that polls for this page's result (data-task, its error or status line) is a driver waiting for it and fails; other anonymous evaluated frames only warn: code typed into DevTools and main-world scripts of some extensions look the same.",
  expected: "no pptr:, UtilityScript or evaluated-code frames among the callers of the page's DOM lookups",
  needs: ['stack'],
  judge: ({ stack }) => {
    const known = stack.frames.map((f) => [f, frameworkOfFrame(f)] as const).filter(([, k]) => k !== null)
    const named = known.filter(([, k]) => k !== 'unknown-eval')
    const polls = pollsForResult(stack.reads ?? [])
    const labels = [...named.map(([, k]) => k!), ...(polls.length && !named.length ? ['cdp'] : [])]
    return {
      verdict: named.length || polls.length ? 'fail' : known.length ? 'warn' : 'pass',
      observed: polls.length
        ? [`code evaluated in the page polled for its result: ${polls.slice(0, 4).join(', ')}`, ...(named.length ? named : known).map(([f]) => f).slice(0, 4)]
        : known.length
          ? (named.length ? named : known).map(([f]) => f).slice(0, 6)
          : `no automation frames in ${stack.calls} calls to ${stack.hooked} DOM lookups`,
      labels,
    }
  },
})

// The page, a fresh iframe and a worker read navigator and the time zone each in their own
// realm (probes/signals/scope-snapshot.ts). A real browser answers the same everywhere;
// spoofing done by overriding properties in the page (init scripts, extensions, CDP overrides
// applied to one target) tends to miss the iframe's fresh realm or the worker's
// WorkerNavigator. CreepJS compares the same way (src/worker); BotD does for the iframe.

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import type { ScopeSnapshot } from '../../common/signals/scope'
import { checkOn, type OutcomeOfDefined, type SignalValues } from './define'

/** How each field is named in a finding, in the order they are compared. */
const FIELDS: ReadonlyArray<readonly [keyof ScopeSnapshot, string]> = [
  ['userAgent', 'userAgent'],
  ['platform', 'platform'],
  ['languages', 'languages'],
  ['hardwareConcurrency', 'hardwareConcurrency'],
  ['deviceMemory', 'deviceMemory'],
  ['webdriver', 'webdriver'],
  ['timeZone', 'timeZone'],
  ['timezoneOffset', 'timezoneOffset'],
  ['uaPlatform', 'userAgentData.platform'],
  ['uaBrands', 'userAgentData.brands'],
]

/**
 * Fields that differ between two snapshots, as `field: a ≠ b` (values as JSON). A field one
 * side could not read (null: no deviceMemory in Firefox and Safari, no userAgentData outside
 * Chromium's secure contexts, webdriver missing in some workers, no Intl zone) is not a
 * mismatch: only two values read on both sides are compared.
 */
export function scopeMismatches(page: ScopeSnapshot, other: ScopeSnapshot): string[] {
  const out: string[] = []
  for (const [key, label] of FIELDS) {
    const a = page[key]
    const b = other[key]
    if (a == null || b == null) continue
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${label}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`)
  }
  return out
}

type V = SignalValues<BotDetectorSignals>
const SAME = 'the same user agent, platform, languages, cores, memory, webdriver and time zone'

function sameAsPage(scope: 'iframe' | 'worker') {
  return (values: Pick<V, 'page' | typeof scope>): OutcomeOfDefined => {
    const diffs = scopeMismatches(values.page, values[scope])
    return { verdict: diffs.length ? 'fail' : 'pass', observed: diffs.length ? diffs : 'identical' }
  }
}

export const iframeConsistency = checkOn<BotDetectorSignals>()({
  id: 'iframe-consistency',
  name: 'An iframe sees the same navigator as the page',
  found: 'an iframe sees another navigator than the page',
  source: 'client',
  why: 'A fresh iframe is a new realm with its own navigator. Overrides made by init scripts or extensions in the page often miss it, so webdriver, user agent, platform, cores, languages or time zone differ. A real browser answers the same everywhere.',
  expected: SAME,
  needs: ['page', 'iframe'],
  judge: sameAsPage('iframe'),
})

export const workerConsistency = checkOn<BotDetectorSignals>()({
  id: 'worker-consistency',
  name: 'A worker sees the same navigator as the page',
  found: 'a worker sees another navigator than the page',
  source: 'client',
  why: 'Workers have their own WorkerNavigator and time zone; spoofing applied to the page (CDP overrides per target, init scripts, UA switchers) usually misses them. Brave and Firefox resistFingerprinting alter values the same way in both, so they pass.',
  ref: 'https://html.spec.whatwg.org/multipage/workers.html#the-workernavigator-object',
  expected: SAME,
  needs: ['page', 'worker'],
  judge: sameAsPage('worker'),
})

// Third-party storage partitioning (Chromium 115+, Firefox's Total Cookie Protection): a frame of
// the page's origin under a cross-site frame gets storage of its own. Playwright, patchright
// included, turns it off on every Chromium it launches (--disable-features=
// ThirdPartyStoragePartitioning, chromiumSwitches.ts, microsoft/playwright#32230), headful or
// headless, with no other switch a page can see: found on this project's matrix, where it is
// the one thing that tells patchright headful on a display from a person (issue 11).
// Judged on Blink only, by the engine the page runs on: Firefox partitions only while Enhanced
// Tracking Protection is on, which a person may turn off.

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { ENGINE_NAME } from '../../common/engine-errors'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'

export const storagePartitioning = checkOn<BotDetectorSignals>()({
  id: 'storage-partitioning',
  name: 'Third-party storage is partitioned',
  found: 'third-party storage is not partitioned',
  source: 'client',
  why: 'Since Chromium 115 a frame of the page\'s own origin nested under a cross-site frame gets its own empty storage. Playwright and patchright start Chromium with --disable-features=ThirdPartyStoragePartitioning on every launch, headful or headless, so there the nested frame sees the page\'s storage, or is refused storage (SecurityError) with third-party cookies blocked. Judged only on a Blink engine (told by its error messages, not the user agent) new enough to have Promise.withResolvers (Chromium 119+); other engines are not applicable (Firefox partitions only while Enhanced Tracking Protection is on). Known false positives: Chromium started with that switch by hand or managed by an enterprise policy that turns partitioning off; Android WebView in apps, which only warns.',
  ref: 'https://github.com/microsoft/playwright/issues/32230',
  needs: ['partition'],
  uses: ['engine', 'navigator'],
  judge: ({ partition: p, engine: e, navigator: nav }) => {
    const { engine, basis } = pageEngine(e)
    const observed = p.state === 'denied' ? `a nested same-origin frame under a cross-site frame was refused localStorage (${p.error})` : `a nested same-origin frame under a cross-site frame ${p.state === 'shared' ? "shares the page's localStorage" : 'has its own localStorage'}`
    const expected = `its own, partitioned localStorage (${basis})`
    if (engine !== 'blink') {
      return p.state === 'partitioned' ? { verdict: 'pass', observed, expected } : na(`storage not partitioned on ${ENGINE_NAME[engine]}; only Blink partitions it whatever the settings (${basis})`)
    }
    if (!p.withResolvers) return na(`a Blink engine older than Chromium 119 (no Promise.withResolvers); partitioning shipped in 115 (${basis})`)
    if (p.state === 'partitioned') return { verdict: 'pass', observed, expected }
    // Android WebView (in-app browsers) is not known to partition: a person there only warns.
    if (/Android/.test(nav?.userAgent ?? '')) return { verdict: 'warn', observed, expected }
    return { verdict: 'fail', observed, expected, labels: ['automation-flags'] }
  },
})

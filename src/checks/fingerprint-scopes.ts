// browser-fingerprint's navigator snapshot read in a fresh same-origin iframe and in a
// dedicated worker against the one read in the page (./scope-consistency.ts compares them):
// spoofing that overrides properties in the page only misses the other realms.

import type { BrowserFingerprintSignals } from '../../common/signals/browser-fingerprint'
import type { ScopeSnapshot } from '../../common/signals/scope'
import { checkOn, na, type Outcome } from './define'
import { scopeMismatches } from './scope-consistency'

const scopeCheck = checkOn<BrowserFingerprintSignals>()

function compared(page: ScopeSnapshot, other: ScopeSnapshot, label: string): Outcome {
  const diff = scopeMismatches(page, other)
  return {
    verdict: diff.length ? 'fail' : 'pass',
    observed: diff.length ? diff.join('; ') : `same ${Object.keys(page).length} values in the page and the ${label}`,
    expected: `the ${label} reports what the page reports`,
  }
}

export const fpIframeConsistency = scopeCheck({
  id: 'fp-iframe-consistency',
  name: 'An iframe sees the same browser',
  found: 'an iframe sees another browser',
  source: 'client',
  why: 'A fresh same-origin iframe is a new realm with its own navigator. Spoofing that overrides properties in the page (extensions, stealth scripts) often misses it; a real browser answers identically in both.',
  needs: [],
  uses: ['pageScope', 'iframeScope'],
  judge: ({ pageScope, iframeScope }, { missing }) =>
    pageScope && iframeScope ? compared(pageScope, iframeScope, 'iframe') : na(`no iframe reading: ${iframeScope ? missing('pageScope') : missing('iframeScope')}`),
})

export const fpWorkerConsistency = scopeCheck({
  id: 'fp-worker-consistency',
  name: 'A worker sees the same browser',
  found: 'a worker sees another browser',
  source: 'client',
  why: 'A dedicated worker has its own WorkerNavigator, time zone and locale. User-Agent, platform, cores or languages overridden only in the page (CDP overrides applied to one target, stealth plugins, extensions) differ there. A real browser gives the same values everywhere.',
  ref: 'https://developer.mozilla.org/docs/Web/API/WorkerNavigator',
  needs: [],
  uses: ['pageScope', 'workerScope'],
  judge: ({ pageScope, workerScope }, { missing }) =>
    pageScope && workerScope ? compared(pageScope, workerScope, 'worker') : na(`no worker reading: ${workerScope ? missing('pageScope') : missing('workerScope')}`),
})

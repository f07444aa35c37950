// How common the browser-fingerprint visitor id is among stored tasks: a hash shared by many
// unrelated visitors is a default configuration, as automation fleets running one image have.
// The count is made by the HTTP handlers before judging (src/http/identity-count.ts) and comes
// in as JudgeContext.fingerprintSeen; the check itself stays pure.

import type { BrowserFingerprintSignals } from '../../common/signals/browser-fingerprint'
import { SEEN_CAP, SEEN_WINDOW_DAYS, type FingerprintSeen } from '../core/fingerprint-seen'
import { checkOn, na } from './define'
import { visitorIdOf } from './visitor-id'

/** Distinct other addresses from which a visitor id makes it common (a warning). */
export const COMMON_ADDRESSES = 5

/** The count for the `fingerprint.commonness` section: null when nothing was counted. */
export function countedCommonness(visitorId: string | null, seen: FingerprintSeen | undefined): { tasks: number; addresses: number } | null {
  return visitorId !== null && seen && !('error' in seen) ? { tasks: seen.tasks, addresses: seen.addresses } : null
}

export const fpCommonness = checkOn<BrowserFingerprintSignals>()({
  id: 'fp-commonness',
  name: 'How common this fingerprint is',
  found: 'this fingerprint is shared by many visitors',
  source: 'server',
  why: 'A visitor hash shared by many unrelated visitors is a default configuration, as automation fleets running one image have; a unique one identifies the browser. Counted over the tasks stored in the last 90 days, by distinct client address other than this one, so one person reloading the page does not make it common. A few other addresses are the same browser on another network (home, office, mobile); five or more warn. Popular devices with default settings (one phone model and OS version) can share a hash too, so it never fails.',
  needs: [],
  judge: (_, { raw, ctx }) => {
    const visitorId = visitorIdOf(raw)
    const seen = ctx.fingerprintSeen
    const expected = `a visitor id not shared by ${COMMON_ADDRESSES} or more other addresses in the last ${SEEN_WINDOW_DAYS} days`
    if (visitorId === null) return na('no visitor id: no component was read reliably')
    if (seen === undefined) return na(`not counted: the stored tasks were not consulted for visitor id ${visitorId}`)
    if ('error' in seen) return na(`not counted: ${seen.error}`)
    const window = `the last ${SEEN_WINDOW_DAYS} days`
    const atLeast = seen.tasks >= SEEN_CAP ? 'at least ' : ''
    const tasks = (n: number) => `${n} stored task${n === 1 ? ' has' : 's have'}`
    const addresses = (n: number) => `${n} other address${n === 1 ? '' : 'es'}`
    if (seen.addresses === 0) {
      const observed = seen.tasks === 0
        ? `unique: no task stored in ${window} has visitor id ${visitorId}`
        : `unique to this address: ${atLeast}${tasks(seen.tasks)} visitor id ${visitorId} in ${window}, all from this address`
      return { verdict: 'pass', observed, expected }
    }
    const shared = `${atLeast}${tasks(seen.tasks)} visitor id ${visitorId} in ${window}, from ${atLeast}${addresses(seen.addresses)}`
    if (seen.addresses < COMMON_ADDRESSES) return { verdict: 'pass', observed: `rare: ${shared} (the same browser on another network, or a close twin)`, expected }
    return { verdict: 'warn', observed: `common: ${shared} — a default configuration, as automation fleets have`, expected }
  },
})

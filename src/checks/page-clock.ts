// The page's wall clock against the server's at receipt, and against the page's own monotonic
// clock (performance.timeOrigin + performance.now()). A shifted system clock, a replayed
// submission or a replaced Date (fake-timer libraries, time-shifting extensions) shows here.

import type { PageClock, TimezoneGeoSignals } from '../../common/signals/timezone-geo'
import type { ServerObservation } from '../core/tools/observation'
import { checkOn } from './define'

const onTime = checkOn<TimezoneGeoSignals>()

/** "3 h 0 min 5 s ahead of the server", "in step with the server". */
export function relation(ms: number, other: string): string {
  const s = Math.round(Math.abs(ms) / 1000)
  if (s === 0) return `in step with ${other}`
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const text = [h ? `${h} h` : '', m ? `${m} min` : '', s % 60 ? `${s % 60} s` : ''].filter(Boolean).join(' ')
  return `${text} ${ms > 0 ? 'ahead of' : 'behind'} ${other}`
}

/** How far the page's clock is ahead of the server's at receipt, in milliseconds. */
export const clockSkewMs = (clock: PageClock, server: Pick<ServerObservation, 'receivedAt'>) => clock.now - server.receivedAt

export const clockSkew = onTime({
  id: 'clock-skew',
  name: 'Page clock agrees with the server',
  found: 'the page clock differs from the server’s',
  source: 'server',
  why: 'The page sends Date.now() as it submits and the server compares it with its own clock at receipt; transit takes well under two minutes, so a larger gap is a wrong or shifted system clock. VMs without time sync, replayed submissions and clocks moved to fake a zone show it; so do dual-boot machines whose clock is off by whole hours, hence a warning.',
  needs: ['clock'],
  judge: ({ clock }, { server }) => {
    const skew = clockSkewMs(clock, server)
    return { verdict: Math.abs(skew) <= 120_000 ? 'pass' : 'warn', observed: `page clock ${relation(skew, 'the server')}`, expected: 'within 2 minutes of the server clock' }
  },
})

export const clockMonotonic = onTime({
  id: 'clock-monotonic',
  name: 'Date.now agrees with the performance clock',
  found: 'Date.now differs from the performance clock',
  source: 'client',
  why: 'performance.timeOrigin + performance.now() and Date.now() give the same wall time on a freshly loaded page. A gap of more than 30 seconds means Date was replaced (fake-timer libraries, time-shifting extensions) or the system clock jumped while the page loaded.',
  ref: 'https://w3c.github.io/hr-time/#dom-performance-timeorigin',
  needs: ['clock'],
  judge: ({ clock }) => {
    const drift = clock.now - clock.perf
    return { verdict: Math.abs(drift) <= 30_000 ? 'pass' : 'warn', observed: `Date.now ${relation(drift, 'the performance clock')}`, expected: 'within 30 s' }
  },
})

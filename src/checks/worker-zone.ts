// The zone, offsets and languages a dedicated worker sees against the page's. Browser-wide
// emulation (CDP Emulation.setTimezoneOverride, Playwright's timezoneId) and the OS zone reach
// workers too; a script patching the page's Date, Intl or navigator does not (a worker has its
// own globals), as CreepJS's worker scope comparison relies on.

import type { TimezoneGeoSignals } from '../../common/signals/timezone-geo'
import { checkOn, na } from './define'
import { nowSample } from './zone-facts'

const onTime = checkOn<TimezoneGeoSignals>()

export const tzWorker = onTime({
  id: 'tz-worker',
  name: 'A worker sees the same zone',
  found: 'a worker sees another zone',
  source: 'client',
  why: 'Browser-wide emulation and the OS zone apply to workers too; JavaScript patches of Date, Intl or navigator in the page do not reach a worker’s own globals. A different zone or offset there is a spoofing script that forgot workers. So are different languages: a worker’s navigator.languages comes from the same preference list as the page’s in Chromium and Firefox (resistFingerprinting included), and only a page-level override differs (fingerprint-injector sets ["en-US"] in the page while its worker keeps ["en-US", "en"]), as bot-detector’s worker-consistency also judges. The known false positive is an extension that patches navigator.languages in the page only.',
  ref: 'https://html.spec.whatwg.org/multipage/workers.html#the-workernavigator-object',
  expected: 'the same zone, offsets and languages in the page and in a worker',
  needs: ['worker', 'zone', 'offsets'],
  judge: ({ worker, zone, offsets }) => {
    const now = nowSample(offsets)
    if (!now) return na('no offset samples')
    const year = new Date(now.at).getUTCFullYear()
    const at = (m: number) => offsets.samples.find((x) => x.at === Date.UTC(year, m, 15, 12))?.date
    const jan = at(0)
    const jul = at(6)
    const zoneDiff = worker.timeZone !== zone.timeZone || worker.offsetNow !== now.date || (jan !== undefined && worker.jan !== jan) || (jul !== undefined && worker.jul !== jul)
    const langDiff = worker.language !== zone.language || worker.languages.join() !== zone.languages.join()
    return {
      verdict: zoneDiff || langDiff ? 'fail' : 'pass',
      observed: { page: { zone: zone.timeZone, offset: now.date, languages: zone.languages }, worker: { zone: worker.timeZone, offset: worker.offsetNow, languages: worker.languages } },
    }
  },
})

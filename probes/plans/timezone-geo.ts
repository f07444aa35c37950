// timezone-geo: the time zone, its offsets now and in the past, Date.toString, the same in a
// worker, the languages, the page's clock and the Geolocation API (never asking for a position).
import type { SignalResult } from '../../common/signal'
import type { PageClock } from '../../common/signals/timezone-geo'
import { definePlan, type ToolPlan } from '../core/runner'
import { clockNow } from '../signals/clock'
import { geolocationApi } from '../signals/geolocation'
import { jsEngine } from '../signals/js-engine'
import { dateString } from '../signals/tz-date-string'
import { tzOffsets } from '../signals/tz-offsets'
import { workerTime } from '../signals/tz-worker'
import { languages } from '../signals/languages'
import { intlZone } from '../signals/tz-zone'

/** timezone-geo's sources, made when its run starts (they read the page's nonce then). */
export function timezoneGeoPlan(): ToolPlan {
  return definePlan(
    'timezone-geo',
    {
      zone: intlZone,
      languages,
      offsets: tzOffsets,
      dateString,
      worker: workerTime,
      clock: clockNow,
      geolocation: geolocationApi,
      engine: jsEngine,
    },
    {
      // The clock is read again at submission, so that the server compares its receipt time with
      // the page's clock at sending rather than at the start of collection.
      extra(signals) {
        const c = signals.clock as SignalResult<PageClock> | undefined
        if (c?.ok) Object.assign(c.value, clockNow())
        return {}
      },
    },
  )
}

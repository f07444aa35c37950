import { runUntypedToolPage } from '../core/runner'
import { clockNow } from '../signals/clock'
import { geolocationApi } from '../signals/geolocation'
import { dateString } from '../signals/tz-date-string'
import { tzOffsets } from '../signals/tz-offsets'
import { workerTime } from '../signals/tz-worker'
import { intlZone } from '../signals/tz-zone'

void runUntypedToolPage(
  'timezone-geo',
  {
    zone: intlZone,
    offsets: tzOffsets,
    dateString,
    worker: workerTime,
    clock: clockNow,
    geolocation: geolocationApi,
  },
  {
    // The clock is read again at submission, so that the server compares its receipt time with
    // the page's clock at sending rather than at the start of collection.
    extra(signals) {
      const c = signals.clock as { ok: boolean; value?: ReturnType<typeof clockNow> } | undefined
      if (c?.ok && c.value) Object.assign(c.value, clockNow())
      return {}
    },
  },
)

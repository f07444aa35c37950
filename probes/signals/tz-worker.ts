// The time zone, offsets and languages as a dedicated worker sees them. Emulation applies to
// workers too; spoofing done by patching the page's Date/Intl/navigator usually does not
// reach them (a worker has its own globals), so a different zone there is a forgotten patch.

import type { WorkerTime } from '../../common/signals/timezone-geo'
import { inWorker, runInWorker } from '../core/worker'

export const workerTime = inWorker(() =>
  runInWorker((): WorkerTime => {
    const y = new Date().getUTCFullYear()
    const o = Intl.DateTimeFormat().resolvedOptions()
    return {
      timeZone: String(o.timeZone ?? '').slice(0, 64),
      locale: String(o.locale ?? '').slice(0, 64),
      offsetNow: new Date().getTimezoneOffset(),
      jan: new Date(Date.UTC(y, 0, 15, 12)).getTimezoneOffset(),
      jul: new Date(Date.UTC(y, 6, 15, 12)).getTimezoneOffset(),
      language: String(navigator.language ?? '').slice(0, 64),
      languages: Array.from(navigator.languages ?? []).slice(0, 16).map((l) => String(l).slice(0, 64)),
    }
  }),
)

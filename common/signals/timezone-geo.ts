// timezone-geo: what probes/signals/tz-zone.ts, tz-offsets.ts, tz-date-string.ts, tz-worker.ts,
// clock.ts and geolocation.ts report (probes/entries/timezone-geo.ts). vpn-detector collects
// the zone with the same probe (IntlZoneSchema).

import { Type, type Static } from '@sinclair/typebox'
import { Bool, List, NNum, NStr, Num, Str } from '../shorthands'
import { Signal } from '../signal'
import { JsEngineSchema, LanguagesSchema } from './shared'

/** The zone and locale Intl resolves by default, with navigator.language(s). */
export const IntlZoneSchema = Type.Object({
  timeZone: Str(64), locale: Str(64), calendar: Str(32), numberingSystem: Str(32), hourCycle: NStr(16),
  language: Str(64), languages: List(64, 16),
})
export type IntlZone = Static<typeof IntlZoneSchema>

/** getTimezoneOffset (`date`) and the zone's Intl offset (`intl`, null if Intl cannot say) at fixed instants, now last. */
export const TzOffsetsSchema = Type.Object({
  zone: Str(64),
  samples: Type.Array(Type.Object({ at: Num, date: Num, intl: NNum }), { maxItems: 16 }),
})
export type TzOffsets = Static<typeof TzOffsetsSchema>

/** Date.prototype.toString at `at`, with its getTimezoneOffset and Intl's long names of the zone. */
export const TzDateStringSchema = Type.Object({ at: Num, offset: Num, text: Str(200), intlName: NStr(100), intlNameEn: NStr(100) })
export type TzDateString = Static<typeof TzDateStringSchema>

/** The zone, offsets (now, 15 January and 15 July) and languages as a dedicated worker sees them. */
export const WorkerTimeSchema = Type.Object({
  timeZone: Str(64), locale: Str(64), offsetNow: Num, jan: Num, jul: Num, language: Str(64), languages: List(64, 16),
})
export type WorkerTime = Static<typeof WorkerTimeSchema>

/** Date.now and performance.timeOrigin + performance.now, read again as the page submits. */
export const PageClockSchema = Type.Object({ now: Num, perf: Num })
export type PageClock = Static<typeof PageClockSchema>

export const GeolocationApiSchema = Type.Object({ present: Bool, secureContext: Bool, permission: NStr(16), permissionError: NStr(200) })
export type GeolocationApi = Static<typeof GeolocationApiSchema>

export const TimezoneGeoSignals = Type.Object({
  zone: Signal(IntlZoneSchema),
  /** probes/signals/languages.ts: what accept-language-vs-languages compares the header with. */
  languages: Signal(LanguagesSchema),
  offsets: Signal(TzOffsetsSchema),
  dateString: Signal(TzDateStringSchema),
  worker: Signal(WorkerTimeSchema),
  clock: Signal(PageClockSchema),
  geolocation: Signal(GeolocationApiSchema),
  /** probes/signals/js-engine.ts: the engine the page runs on, told by its error messages, which the engine-dependent checks judge by. Optional: pages from before this signal do not send it. */
  engine: Type.Optional(Signal(JsEngineSchema)),
})
export type TimezoneGeoSignals = Static<typeof TimezoneGeoSignals>

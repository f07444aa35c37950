// The time zone and locale Intl resolves by default: what the browser believes its zone is
// (https://developer.mozilla.org/docs/Web/JavaScript/Reference/Global_Objects/Intl/DateTimeFormat/resolvedOptions),
// with the preferred languages (navigator.language/languages), which the server compares with
// the Accept-Language header built from the same preference list.
// Emulation (CDP Emulation.setTimezoneOverride, Playwright's timezoneId) changes it for the
// whole renderer; JavaScript spoofers patch resolvedOptions and Date methods one by one, and
// the other timezone-geo signals check that they agree.

import type { IntlZone } from '../../common/signals/timezone-geo'

export function intlZone(): IntlZone {
  const o = Intl.DateTimeFormat().resolvedOptions()
  let hourCycle: string | null = null
  try {
    hourCycle = new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions().hourCycle ?? null
  } catch {
    hourCycle = null
  }
  return {
    timeZone: (o.timeZone ?? '').slice(0, 64),
    locale: (o.locale ?? '').slice(0, 64),
    calendar: (o.calendar ?? '').slice(0, 32),
    numberingSystem: (o.numberingSystem ?? '').slice(0, 32),
    hourCycle,
    language: String(navigator.language ?? '').slice(0, 64),
    languages: Array.from(navigator.languages ?? []).slice(0, 16).map((l) => String(l).slice(0, 64)),
  }
}

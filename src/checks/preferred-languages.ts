// The browser's preferred languages (navigator.languages) against the Intl locale and against
// the Accept-Language header, which the browser builds from the same preference list.

import type { TimezoneGeoSignals } from '../../common/signals/timezone-geo'
import { checkOn, na } from './define'
import { langBase } from './zone-facts'

const onTime = checkOn<TimezoneGeoSignals>()

export const localeConsistent = onTime({
  id: 'locale-consistent',
  name: 'Intl locale is among the preferred languages',
  found: 'the Intl locale is not among the preferred languages',
  source: 'client',
  why: 'Intl formats with the browser’s UI language, and navigator.languages lists the user’s preferred content languages; the UI language is nearly always one of them. When it is not, the languages were probably overridden without the locale (or the reverse). People with a UI in one language and content preferences in others exist, so it warns.',
  needs: ['zone'],
  judge: ({ zone }) => {
    if (!zone.languages.length) return na('navigator.languages is empty')
    const ok = zone.languages.some((l) => langBase(l) === langBase(zone.locale))
    return { verdict: ok ? 'pass' : 'warn', observed: { intlLocale: zone.locale, languages: zone.languages }, expected: `a ${langBase(zone.locale) || '?'}-* entry in navigator.languages` }
  },
})


// The browser's preferred languages (navigator.languages) against the Intl locale and against
// the Accept-Language header, which the browser builds from the same preference list.

import type { TimezoneGeoSignals } from '../../common/signals/timezone-geo'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'
import { acceptTags, langBase } from './zone-facts'

const onTime = checkOn<TimezoneGeoSignals>()

export const localeConsistent = onTime({
  id: 'locale-consistent',
  name: 'Intl locale is among the preferred languages',
  source: 'client',
  why: 'Intl formats with the browser’s UI language, and navigator.languages lists the user’s preferred content languages; the UI language is nearly always one of them. When it is not, the languages were probably overridden without the locale (or the reverse). People with a UI in one language and content preferences in others exist, so it warns.',
  needs: ['zone'],
  judge: ({ zone }) => {
    if (!zone.languages.length) return na('navigator.languages is empty')
    const ok = zone.languages.some((l) => langBase(l) === langBase(zone.locale))
    return { verdict: ok ? 'pass' : 'warn', observed: { intlLocale: zone.locale, languages: zone.languages }, expected: `a ${langBase(zone.locale) || '?'}-* entry in navigator.languages` }
  },
})

export const acceptLanguageMatch = onTime({
  id: 'accept-language-match',
  name: 'Accept-Language header matches navigator.languages',
  source: 'server',
  why: 'The browser builds the Accept-Language header from the same preference list it exposes as navigator.languages, so the first language must be the same. Overriding navigator.languages in the page (or only the header, in a proxy or automation config) breaks the pair. Chromium may append a base language to the header, which is tolerated.',
  ref: 'https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-languages',
  needs: ['zone'],
  judge: ({ zone: { language, languages } }, { server }) => {
    const accept = acceptTags(server)
    const first = languages[0] ?? language
    let verdict: 'pass' | 'warn' | 'fail'
    if (!accept.length || !first) verdict = 'warn'
    else if (accept[0]!.toLowerCase() === first.toLowerCase()) {
      const bases = new Set(languages.map(langBase))
      verdict = accept.every((a) => bases.has(langBase(a))) ? 'pass' : 'warn'
    } else verdict = langBase(accept[0]!) === langBase(first) ? 'warn' : 'fail'
    return {
      verdict,
      observed: { acceptLanguage: header(server, 'accept-language') ?? null, navigatorLanguages: languages },
      expected: first ? `a header starting with ${first}` : 'navigator.languages and an Accept-Language header',
    }
  },
})

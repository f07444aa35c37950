// Accept-Language against navigator.languages (the parsing and comparison rules, with the
// browsers' sources, are in src/core/accept-language.ts). Browsers build both from one
// preference list; a header injected by an automation tool, or rewritten by a proxy or an
// anti-detect setup to fit a VPN's exit country, shows as another set or order.

import type { SignalResult } from '../../common/signal'
import { compareLanguages, parseAcceptLanguage } from '../core/accept-language'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'

/** The signal this check reads: probes/signals/languages.ts (LanguagesSchema in common/signals/shared.ts). */
export interface LanguageSignals {
  languages: SignalResult<{ languages: string[] }>
}

export const acceptLanguageVsLanguages = checkOn<LanguageSignals>()({
  id: 'accept-language-vs-languages',
  name: 'Accept-Language matches navigator.languages',
  source: 'server',
  why: 'Browsers build Accept-Language from the same preference list as navigator.languages (Chromium adds base languages: en-US → en-US,en). Another set or order means one was overridden: an Accept-Language header injected by an automation script, or rewritten by a proxy or an anti-detect setup to fit a VPN\'s exit country while navigator.languages keeps the user\'s. Chromium\'s Accept-Language reduction experiment sends only the first language, which only warns.',
  ref: 'https://github.com/explainers-by-googlers/reduce-accept-language',
  expected: 'the same languages in the same order (base languages may be added)',
  needs: [],
  uses: ['languages'],
  judge: ({ languages }, { server, missing }) => {
    const raw = header(server, 'accept-language')
    if (raw === undefined) return na('no Accept-Language header arrived')
    if (!languages) return na(missing('languages'))
    const c = compareLanguages(parseAcceptLanguage(raw), languages.languages)
    const seen = `Accept-Language ${raw}; navigator [${languages.languages.join(', ')}]`
    return {
      verdict: c.verdict === 'same' ? 'pass' : c.verdict === 'reduced' ? 'warn' : 'fail',
      observed: c.verdict === 'same' ? seen : { seen, missing: c.missing, extra: c.extra, sameOrder: c.sameOrder },
    }
  },
})

// Accept-Language against navigator.languages (the parsing and comparison rules, with the
// browsers' sources, are in src/core/accept-language.ts). Browsers build both from one
// preference list; a header injected by an automation tool, or rewritten by a proxy or an
// anti-detect setup to fit a VPN's exit country, shows as another set or order.

import type { SignalResult } from '../../common/signal'
import type { JsEngine } from '../../common/signals/shared'
import { compareLanguages, parseAcceptLanguage } from '../core/accept-language'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'

/**
 * The signals this check reads: probes/signals/languages.ts (LanguagesSchema in
 * common/signals/shared.ts), and the engine (probes/signals/js-engine.ts), optional on pages
 * from before it.
 */
export interface LanguageSignals {
  languages: SignalResult<{ languages: string[] }>
  engine?: SignalResult<JsEngine>
}

export const acceptLanguageVsLanguages = checkOn<LanguageSignals>()({
  id: 'accept-language-vs-languages',
  name: 'Accept-Language matches navigator.languages',
  found: 'Accept-Language differs from navigator.languages',
  source: 'server',
  why: 'Browsers build Accept-Language from the same preference list as navigator.languages (Chromium adds base languages: en-US → en-US,en). Another set or order means one was overridden: an Accept-Language header injected by an automation script, or rewritten by a proxy or an anti-detect setup to fit a VPN\'s exit country while navigator.languages keeps the user\'s. Chromium\'s Accept-Language reduction experiment sends only the first language, which only warns. WebKit does the reverse by design: navigator.languages holds only the primary language while the header carries the whole list (NavigatorBase::languages), so on a JavaScriptCore engine (told by its error messages) one navigator language that heads the header is the same list.',
  ref: 'https://github.com/explainers-by-googlers/reduce-accept-language',
  expected: 'the same languages in the same order (base languages may be added)',
  needs: [],
  uses: ['languages', 'engine'],
  judge: ({ languages, engine: e }, { server, missing }) => {
    const raw = header(server, 'accept-language')
    if (raw === undefined) return na('no Accept-Language header arrived')
    if (!languages) return na(missing('languages'))
    const engine = pageEngine(e)
    const c = compareLanguages(parseAcceptLanguage(raw), languages.languages, { primaryOnly: engine.engine === 'webkit' })
    const seen = `Accept-Language ${raw}; navigator [${languages.languages.join(', ')}]`
    return {
      verdict: c.verdict === 'same' || c.verdict === 'primary' ? 'pass' : c.verdict === 'reduced' ? 'warn' : 'fail',
      observed: c.verdict === 'same' || c.verdict === 'primary' ? seen : { seen, missing: c.missing, extra: c.extra, sameOrder: c.sameOrder },
      // Named only where the engine decided it, so that every other task keeps the stored code.
      ...(c.verdict === 'primary' ? { expected: `the header's first language as navigator's only one: WebKit exposes only the primary language (${engine.basis})` } : {}),
    }
  },
})

// navigator.languages as the page sees it (probes/signals/languages.ts).
// https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-languages

import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { checkOn } from './define'

export const languagesPresent = checkOn<HttpHeadersSignals>()({
  id: 'languages-present',
  name: 'navigator.languages is set',
  found: 'navigator.languages is empty',
  source: 'client',
  why: 'Every browser exposes at least one preferred language, and navigator.language is its first. An empty list was the classic old-headless tell; a first entry other than navigator.language is a patched property.',
  ref: 'https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-languages',
  expected: 'at least one language, the first equal to navigator.language',
  needs: ['languages'],
  judge: ({ languages: l }) => {
    const empty = l.languages.length === 0
    const firstDiffers = !empty && l.languages[0] !== l.language
    return { verdict: empty ? 'fail' : firstDiffers ? 'warn' : 'pass', observed: `language ${l.language}; languages [${l.languages.join(', ')}]` }
  },
})

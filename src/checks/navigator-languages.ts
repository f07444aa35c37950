// navigator.languages is the user's preference list and navigator.language its first entry.
// https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-languages

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn } from './define'

export const languagesList = checkOn<BotDetectorSignals>()({
  id: 'languages',
  name: 'navigator.languages is set and starts with navigator.language',
  found: 'navigator.languages is empty or does not start with navigator.language',
  source: 'client',
  why: 'Every browser has at least one preferred language and navigator.language is the first. An empty list was the classic old-headless tell; a different first entry is a patched property.',
  ref: 'https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-languages',
  expected: 'a non-empty list whose first entry is navigator.language',
  needs: ['navigator'],
  judge: ({ navigator: nav }) => {
    const empty = nav.languages.length === 0 || !nav.language
    const differs = !empty && nav.languages[0] !== nav.language
    return {
      verdict: empty ? 'fail' : differs ? 'warn' : 'pass',
      observed: `language "${nav.language}", languages [${nav.languages.join(', ')}]`,
    }
  },
})

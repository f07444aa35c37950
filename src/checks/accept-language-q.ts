// The q-values of Accept-Language against the scheme of the engine the User-Agent claims
// (the schemes and their sources: src/core/accept-language.ts).

import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { parseUserAgent } from '../../common/user-agent'
import { parseAcceptLanguage, qPattern } from '../core/accept-language'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'

export const acceptLanguageQ = checkOn<HttpHeadersSignals>()({
  id: 'accept-language-q',
  name: 'Accept-Language q-values follow the browser\'s scheme',
  source: 'server',
  why: 'Chromium and Safari lower q by 0.1 per language (en-US,en;q=0.9,de;q=0.8); Firefox uses 1 − i/n (en-US,en;q=0.5). A hand-written header often copies the wrong browser\'s scheme. Weak: extensions that rewrite the header also change it.',
  ref: 'https://searchfox.org/mozilla-central/search?q=PrepareAcceptLanguages',
  needs: [],
  judge: (_, { server }) => {
    const raw = header(server, 'accept-language')
    const al = raw === undefined ? [] : parseAcceptLanguage(raw)
    if (!al.length) return na('no Accept-Language header')
    const engine = parseUserAgent(server.userAgent).engine
    const want = engine === 'gecko' ? 'fraction' : engine === 'blink' || engine === 'webkit' ? 'decrement' : null
    if (!want) return { verdict: 'na', observed: raw, expected: 'the User-Agent names no browser engine' }
    const got = qPattern(al)
    return { verdict: got === 'single' || got === want ? 'pass' : 'warn', observed: raw, expected: want === 'fraction' ? 'Firefox q-values 1 − i/n (en-US,en;q=0.5)' : 'q lowered by 0.1 per language (en-US,en;q=0.9)' }
  },
})

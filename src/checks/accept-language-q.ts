// The q-values of Accept-Language against the scheme of the browser the User-Agent header
// claims (the schemes and their sources: src/core/accept-language.ts). A server check: it
// judges the claim against the wire, so it names the claim; the engine the page runs on (its
// error messages) is named beside it when it is another.

import { ENGINE_NAME } from '../../common/engine-errors'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { parseUserAgent } from '../../common/user-agent'
import { FIREFOX_DECREMENT_SINCE, parseAcceptLanguage, qPattern, type QPattern } from '../core/accept-language'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'
import { claimAgainstEngine, pageEngine } from './page-engine'
import { claimText } from './tls-match'

const DECREMENT = 'q lowered by 0.1 per language (en-US,en;q=0.9)'
const FRACTION = 'q-values 1 − i/n (en-US,en;q=0.5)'

export const acceptLanguageQ = checkOn<HttpHeadersSignals>()({
  id: 'accept-language-q',
  name: 'Accept-Language q-values follow the browser\'s scheme',
  found: 'Accept-Language q-values do not follow the browser\'s scheme',
  source: 'server',
  why: `Chromium and Safari lower q by 0.1 per language (en-US,en;q=0.9,de;q=0.8), and so does Firefox since ${FIREFOX_DECREMENT_SINCE} (bug 2000765); older Firefox used 1 − i/n (en-US,en;q=0.5). Judged against the browser and version the User-Agent header claims: a hand-written header often copies another browser's, or another Firefox release's, scheme. Weak: extensions that rewrite the header also change it.`,
  ref: 'https://bugzilla.mozilla.org/show_bug.cgi?id=2000765',
  needs: [],
  uses: ['engine'],
  judge: ({ engine }, { server }) => {
    const raw = header(server, 'accept-language')
    const al = raw === undefined ? [] : parseAcceptLanguage(raw)
    if (!al.length) return na('no Accept-Language header')
    const claimed = parseUserAgent(server.userAgent)
    const v = claimed.version
    // A Firefox claim without a version may be either side of the change.
    const want: QPattern[] =
      claimed.engine === 'gecko' ? (v === null ? ['decrement', 'fraction'] : v >= FIREFOX_DECREMENT_SINCE ? ['decrement'] : ['fraction']) : claimed.engine === 'blink' || claimed.engine === 'webkit' ? ['decrement'] : []
    if (!want.length) return { verdict: 'na', observed: raw, expected: 'the User-Agent names no browser engine' }
    const got = qPattern(al)
    const scheme = want.map((w) => (w === 'decrement' ? DECREMENT : FRACTION)).join(' or ')
    const since = claimed.engine === 'gecko' && v !== null ? (v >= FIREFOX_DECREMENT_SINCE ? `, as Firefox writes them since ${FIREFOX_DECREMENT_SINCE}` : `, as Firefox wrote them before ${FIREFOX_DECREMENT_SINCE}`) : ''
    const page = pageEngine(engine)
    const other = claimAgainstEngine(claimed.engine, page.engine)
    return {
      verdict: got === 'single' || want.includes(got) ? 'pass' : 'warn',
      observed: raw,
      expected: `${scheme}${since}: the scheme of ${claimText(claimed)}, the browser the User-Agent header claims${other ? ` (the page runs on ${ENGINE_NAME[page.engine]}, as its error messages show)` : ''}`,
    }
  },
})

// The browser a client claims, before its network stack is compared with it: the User-Agent
// header and the Sec-CH-UA brands (Chromium) must name one family and version, and the engine
// the claim names must be the one the page runs on (told by its error messages).

import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { brandsClaim, parseUserAgent, uaHintMismatches } from '../../common/user-agent'
import { hintsFromHeaders } from './client-hints'
import { checkOn } from './define'
import { claimAgainstEngine, pageEngine } from './page-engine'
import { claimText } from './tls-match'

export const browserClaim = checkOn<TlsFingerprintSignals>()({
  id: 'claimed-browser',
  name: 'User-Agent and client hints claim the same browser',
  found: 'User-Agent and client hints claim different browsers',
  source: 'server',
  why: "The TLS fingerprint is compared with the browser the client claims to be, so the claim must first be consistent: the User-Agent header and the Sec-CH-UA brands (Chromium) name one family and version, and the engine they name is the one the page runs on (told by its error messages, which a User-Agent switcher does not change). An HTTP library's User-Agent, a UA that contradicts the hints, or a UA naming another engine than the page's means the claim is already false. A Chrome User-Agent from a secure page without Sec-CH-UA only warns when the page runs on V8, or its engine is unknown: an extension (User-Agent switchers strip the hints) or a TLS-inspecting proxy removes them for people too (issue 10).",
  needs: [],
  uses: ['stack', 'engine'],
  judge: ({ stack, engine }, { server }) => {
    const claimed = parseUserAgent(server.userAgent)
    const hints = hintsFromHeaders(server)
    const page = pageEngine(engine)
    const other = claimAgainstEngine(claimed.engine, page.engine)
    if (claimed.family === 'tool') return { verdict: 'fail', observed: server.userAgent || '(no User-Agent)', expected: 'a browser User-Agent' }
    if (hints.brands) {
      const m = [...uaHintMismatches(claimed, { brands: hints.brands, platform: hints.platform, mobile: hints.mobile }), ...(other ? [other] : [])]
      const h = brandsClaim(hints.brands)
      return {
        verdict: m.length ? 'fail' : 'pass',
        observed: m.length ? m : `${claimText(claimed)}; Sec-CH-UA ${h.family} ${h.version ?? ''}`.trim(),
        expected: `one browser family and version in the User-Agent and Sec-CH-UA, of the engine the page runs on (${page.basis})`,
      }
    }
    // The claim names another engine than the page's: no hints came because the page's engine sends
    // none (a Chrome User-Agent on Firefox), or they were stripped with the switch (Chromium under a
    // Firefox User-Agent). Either way the claim is false, and the engine says so, not missing hints.
    if (other) return { verdict: 'fail', observed: `${claimText(claimed)}, no Sec-CH-UA: ${other}`, expected: `a User-Agent naming the engine the page runs on (${page.basis})` }
    if (claimed.engine === 'blink' && stack?.secureContext) {
      const stripped = page.engine === 'blink' ? ' although the page runs on V8 (Blink): removed on the way (a User-Agent switcher extension, a TLS-inspecting proxy)' : ''
      return { verdict: 'warn', observed: `${claimText(claimed)}; no Sec-CH-UA${stripped}`, expected: `Sec-CH-UA from a Chromium browser in a secure context (${page.basis})` }
    }
    return {
      verdict: claimed.family === 'other' ? 'warn' : 'pass',
      observed: `${claimText(claimed)} (no client hints: ${claimed.engine === 'blink' ? 'not a secure context' : 'not Chromium'})`,
      expected: `a recognisable browser (${page.basis})`,
    }
  },
})

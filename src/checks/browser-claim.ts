// The browser a client claims, before its network stack is compared with it: the User-Agent
// header and the Sec-CH-UA brands (Chromium) must name one family and version.

import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { brandsClaim, parseUserAgent, uaHintMismatches } from '../../common/user-agent'
import { hintsFromHeaders } from './client-hints'
import { checkOn } from './define'
import { claimText } from './tls-match'

export const browserClaim = checkOn<TlsFingerprintSignals>()({
  id: 'claimed-browser',
  name: 'User-Agent and client hints claim the same browser',
  source: 'server',
  why: 'The TLS fingerprint is compared with the browser the client claims to be, so the claim must first be consistent: the User-Agent header and the Sec-CH-UA brands (Chromium) name one family and version. An HTTP library\'s User-Agent or a UA that contradicts the hints means the claim is already false.',
  needs: [],
  uses: ['stack'],
  judge: ({ stack }, { server }) => {
    const claimed = parseUserAgent(server.userAgent)
    const hints = hintsFromHeaders(server)
    if (claimed.family === 'tool') return { verdict: 'fail', observed: server.userAgent || '(no User-Agent)', expected: 'a browser User-Agent' }
    if (hints.brands) {
      const m = uaHintMismatches(claimed, { brands: hints.brands, platform: hints.platform, mobile: hints.mobile })
      const h = brandsClaim(hints.brands)
      return { verdict: m.length ? 'fail' : 'pass', observed: m.length ? m : `${claimText(claimed)}; Sec-CH-UA ${h.family} ${h.version ?? ''}`.trim(), expected: 'one browser family and version in the User-Agent and Sec-CH-UA' }
    }
    if (claimed.engine === 'blink' && stack?.secureContext) return { verdict: 'fail', observed: `${claimText(claimed)}; no Sec-CH-UA`, expected: 'Sec-CH-UA from a Chromium browser in a secure context' }
    return { verdict: claimed.family === 'other' ? 'warn' : 'pass', observed: `${claimText(claimed)} (no client hints: ${claimed.engine === 'blink' ? 'not a secure context' : 'not Chromium'})`, expected: 'a recognisable browser' }
  },
})

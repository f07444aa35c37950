// Request headers in the order they were sent, read off the wire by the TLS evidence listener
// (the HTTP listener's own view of the request is sorted by name), against the order the
// claimed engine's network stack writes (src/core/header-order.ts).

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { parseUserAgent } from '../../common/user-agent'
import { checkOrder } from '../core/header-order'
import { wireHeaderOrder, wireOrderContext } from './wire-headers'
import { checkOn, na } from './define'
import { claimAgainstEngine, pageEngine } from './page-engine'
import { unlessReencrypted } from './wire-family'

export const headerOrderWire = checkOn<BotDetectorSignals>()({
  id: 'header-order-wire',
  name: "Headers arrive in the browser's own order",
  found: 'headers arrive in another order than the browser\'s',
  source: 'server',
  why: "Each engine's network stack writes request headers in a fixed order, read here off the wire by the TLS evidence listener. Headers added through the DevTools protocol land out of place: with Playwright's locale emulation, Chromium sends Accept-Language next to User-Agent instead of after Accept-Encoding. HTTP libraries dressed as a browser use their own order. Extensions that rewrite Accept-Language can do the same, so this alone does not make a bot.",
  needs: [],
  uses: ['engine'],
  judge: ({ engine }, { server }) => {
    const wire = wireHeaderOrder(server)
    if (!wire) return na("needs the TLS evidence listener's record for this page (TLS_PORT): header names in the order they were sent")
    const claim = parseUserAgent(server.userAgent)
    const family = claim.engine === 'blink' ? 'chromium' : claim.engine === 'gecko' ? 'firefox' : null
    if (!family) return na(`order rules exist for Chromium and Firefox only (the User-Agent claims ${claim.family})`)
    const o = checkOrder(wire, family, wireOrderContext(server))
    if (o.applied < 2) return na(`enough of the ordered headers to judge (${wire.join(', ')})`)
    // The claim is judged against the wire; when the page's engine is another, say so.
    const page = pageEngine(engine)
    const other = claimAgainstEngine(claim.engine, page.engine)
    // A middlebox re-encrypting a proven browser's connection writes the request anew, in its own order.
    return unlessReencrypted(server, {
      verdict: o.broken.length ? 'fail' : 'pass',
      observed: o.broken.length ? { broken: o.broken, names: wire.join(', ') } : wire.join(', '),
      expected: `${family} header order${o.layout === 'restart' ? " of the navigation Chromium restarts for the page's Critical-CH" : ''}, as the ${claim.engine} engine the User-Agent header claims writes it${other ? ` (${other}: ${page.basis})` : ''}`,
    }, 'the header order on the wire')
  },
})

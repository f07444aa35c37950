// Header names as the browser sent them: their order and, over HTTP/1.1, their case, and the
// HTTP version. Bun's Request.headers lists names sorted, so the order of the submitting
// request is lost; the TLS evidence listener (src/listeners/tls.ts) reads the page's own
// connection off the wire (HTTP/2 HEADERS or the HTTP/1 head), so its record, when there is
// one, is what these checks judge.

import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { parseUserAgent } from '../../common/user-agent'
import { checkOrder, isHint, looksSorted, type OrderContext } from '../core/header-order'
import { CRITICAL_CH_HINTS } from '../core/page-hints'
import { evidenceOf, type ServerObservation } from '../core/tools/observation'
import { checkOn, na } from './define'
import { claimAgainstEngine, pageEngine } from './page-engine'
import { claimsBrowser } from './tls-match'
import { h2Offered, tlsEvidenceOf } from './tls-views'
import { unlessReencrypted } from './wire-family'

export const RAW_LISTENER = "needs the TLS evidence listener's record of this page's connection (TLS_PORT), which keeps header names as sent"

/**
 * The page's connection as the TLS evidence listener recorded it: the HTTP version and the
 * header names in the order and case they were sent (HTTP/2 names are lower case by
 * definition); null without a record.
 */
export function wireRecord(server: Pick<ServerObservation, 'evidence'>): { version: string; names: string[]; path: string | null } | null {
  const pathOf = (r: { path?: unknown }) => (typeof r.path === 'string' ? r.path : null)
  const h2 = evidenceOf(server, 'http2')[0] as { header_order?: unknown; path?: unknown } | undefined
  if (h2 && Array.isArray(h2.header_order)) return { version: 'HTTP/2', names: h2.header_order.filter((n): n is string => typeof n === 'string'), path: pathOf(h2) }
  const h1 = evidenceOf(server, 'http1')[0] as { version?: unknown; headers?: unknown; path?: unknown } | undefined
  if (h1 && typeof h1.version === 'string' && Array.isArray(h1.headers)) {
    return { version: h1.version, names: (h1.headers as unknown[]).filter((h): h is [string, string] => Array.isArray(h) && typeof h[0] === 'string').map((h) => h[0]), path: pathOf(h1) }
  }
  return null
}

/**
 * How to judge the wire order of the page's connection: a tool page's (or the run page's) own navigation names
 * hints in Critical-CH, which Chromium answers by restarting it with its hints after Accept
 * (src/core/header-order.ts). Any other request (the side connection's /evidence fetch) is
 * judged by the usual layout alone.
 */
export function wireOrderContext(server: Pick<ServerObservation, 'evidence'>): OrderContext {
  const path = wireRecord(server)?.path ?? ''
  return /^(?:\/tools\/[a-z0-9-]+|\/run)(?:\?|$)/.test(path) ? { criticalHints: CRITICAL_CH_HINTS } : {}
}

/** Header names of the page's connection in the order they were sent (lower case), from the TLS evidence listener's record. */
export function wireHeaderOrder(server: Pick<ServerObservation, 'evidence'>): string[] | null {
  const names = wireRecord(server)?.names.map((n) => n.toLowerCase())
  return names?.length ? names : null
}

/** The order to judge: the wire's, else the request's own unless it is alphabetical (then lost). */
export function headerOrderSource(server: Pick<ServerObservation, 'headers' | 'evidence'>) {
  const names = server.headers.map(([n]) => n)
  const wire = wireHeaderOrder(server)
  return { names, wire, order: wire ?? names, sorted: !wire && looksSorted(names) }
}

const check = checkOn<HttpHeadersSignals>()

export const headerOrder = check({
  id: 'header-order',
  name: 'Header order is typical of the claimed browser',
  found: 'the header order is not the claimed browser\'s',
  source: 'server',
  why: 'Each engine writes headers in its own fixed order (Chromium: client hints around User-Agent, Accept-Encoding then Accept-Language last; Firefox: User-Agent right after Host, Accept-Language before Accept-Encoding). HTTP libraries and proxies that rebuild requests use their own order, and headers added through a browser\'s automation protocol land out of place (Playwright\'s locale override puts Accept-Language next to User-Agent). The order is read off the wire by the TLS evidence listener.',
  needs: [],
  uses: ['engine'],
  judge: ({ engine: pageSignal }, { server }) => {
    const { names, wire, order, sorted } = headerOrderSource(server)
    const engine = parseUserAgent(server.userAgent).engine
    const family = engine === 'blink' ? 'chromium' : engine === 'gecko' ? 'firefox' : null
    const nameList = `${order.join(', ')}${wire ? ' (wire order, from the TLS evidence listener)' : ''}`
    if (sorted) return { verdict: 'na', observed: `${names.length} names, in alphabetical order`, expected: `the arrival order: this listing is alphabetical (Bun's Request.headers sorts names), so the order is lost; ${RAW_LISTENER} in arrival order` }
    if (!family) return { verdict: 'na', observed: nameList, expected: 'order rules exist for Chromium and Firefox only' }
    const o = checkOrder(order, family, wire ? wireOrderContext(server) : {})
    if (o.applied < 2) return { verdict: 'na', observed: nameList, expected: 'too few of the ordered headers to judge' }
    // Judged by the claim (the wire against the User-Agent); the page's engine is named when it is another.
    const page = pageEngine(pageSignal)
    const other = claimAgainstEngine(engine, page.engine)
    // A middlebox re-encrypting a proven browser's connection writes the request anew, in its own order.
    return unlessReencrypted(server, {
      verdict: o.broken.length ? 'fail' : 'pass',
      observed: o.broken.length ? { broken: o.broken, names: nameList } : nameList,
      expected: `${family} header order${o.layout === 'restart' ? " of the navigation Chromium restarts for the page's Critical-CH" : ''}, as the ${engine} engine the User-Agent header claims writes it${other ? ` (${other}: ${page.basis})` : ''}`,
    }, 'the header order')
  },
})

export const headerCaseHttpVersion = check({
  id: 'header-case-http-version',
  name: 'Header case and HTTP version fit the browser',
  found: 'header case or HTTP version do not fit the browser',
  source: 'server',
  why: 'Over HTTP/1.1 browsers write headers in their own capitalisation (Chrome: "User-Agent", "sec-ch-ua"), and they use HTTP/2 or 3 wherever offered; libraries write other cases and stay on HTTP/1.1.',
  ref: 'https://www.rfc-editor.org/rfc/rfc9113#section-8.2.1',
  needs: [],
  judge: (_, { server }) => {
    // An HTTP/1 head keeps names in wire order and case; an HTTP/2 start has lower-case names
    // by definition (RFC 9113 §8.2.1) and proves the client chose h2.
    const wire = wireRecord(server)
    if (!wire) return na(`original header case and HTTP version: ${RAW_LISTENER} and the protocol version`)
    const browser = claimsBrowser(parseUserAgent(server.userAgent))
    const expected = browser ? 'HTTP/2 to a server that offers it' : 'any'
    if (wire.version === 'HTTP/2') return { verdict: 'pass', observed: `HTTP/2: ${wire.names.join(', ')}`, expected }
    // Browsers title-case HTTP/1.1 names except the lower-case ones Chromium writes: sec-ch-ua*,
    // sec-fetch-* style names, priority, and the legacy client hints (device-memory, dpr,
    // viewport-width: captured from Chromium 156 over HTTP/1.1, src/evidence/fixtures/navigations.json).
    const lower = wire.names.filter((n) => n === n.toLowerCase() && !n.startsWith('sec-') && n !== 'priority' && !isHint(n))
    const offered = h2Offered(tlsEvidenceOf(server)?.tls)
    const problems = browser ? [...(lower.length ? [`lower-case names ${lower.join(', ')}`] : []), ...(offered ? [`${wire.version} where h2 was offered`] : [])] : []
    // A middlebox re-encrypting a proven browser's connection may speak HTTP/1.1 with its own case.
    return unlessReencrypted(server, { verdict: problems.length ? 'fail' : 'pass', observed: `${wire.version}${offered ? '' : ' (the listener offered no h2)'}: ${wire.names.join(', ')}${problems.length ? ` (${problems.join('; ')})` : ''}`, expected: offered ? expected : 'the browser\'s own header case over HTTP/1.1, where h2 was not offered' }, 'the header case and HTTP version')
  },
})

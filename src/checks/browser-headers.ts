// Headers every browser sends on a fetch() from its page, as the claimed browser writes them:
// the basic set, Accept-Encoding, and the Sec-Fetch-* metadata of a same-origin request.
// https://fetch.spec.whatwg.org/#http-network-or-cache-fetch, https://w3c.github.io/webappsec-fetch-metadata/

import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { parseUserAgent, type ClaimedBrowser } from '../../common/user-agent'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'
import { securePage } from './secure-page'

const check = checkOn<HttpHeadersSignals>()

/** Whether the claimed browser sends a Sec-Fetch-* header / br / zstd in a secure context. */
function supports(c: ClaimedBrowser, feature: 'secFetch' | 'br' | 'zstd'): boolean {
  const v = c.version ?? 0
  const min = { secFetch: { blink: 76, gecko: 90, webkit: 17 }, br: { blink: 50, gecko: 44, webkit: 11 }, zstd: { blink: 123, gecko: 126, webkit: Infinity } }[feature]
  return c.engine !== 'unknown' && v >= min[c.engine]
}

const REQUIRED = ['host', 'user-agent', 'accept', 'accept-language', 'accept-encoding', 'origin']

export const browserHeadersPresent = check({
  id: 'browser-headers-present',
  name: 'Headers every browser sends are present',
  found: 'headers every browser sends are missing',
  source: 'server',
  why: 'A fetch() POST from a page always carries Host, User-Agent, Accept, Accept-Language, Accept-Encoding and Origin. HTTP libraries and hand-made requests typically miss Accept-Language or Origin.',
  needs: [],
  judge: (_, { server }) => {
    const missing = REQUIRED.filter((n) => !server.headers.some(([h]) => h === n))
    return { verdict: missing.length ? 'fail' : 'pass', observed: missing.length ? { missing } : 'all present', expected: REQUIRED.join(', ') }
  },
})

export const acceptEncoding = check({
  id: 'accept-encoding',
  name: 'Accept-Encoding lists what the browser supports',
  found: 'Accept-Encoding does not list what the browser supports',
  source: 'server',
  why: 'Browsers always offer gzip and deflate, and in secure contexts Brotli (Chrome 50+, Firefox 44+, Safari) and Zstandard (Chrome 123+, Firefox 126+). Libraries offer less or only gzip. Missing br/zstd only warns: an enterprise policy or a rewriting proxy can remove them.',
  needs: [],
  uses: ['context', 'uaData'],
  judge: (v, { server }) => {
    const ae = header(server, 'accept-encoding')
    if (ae === undefined) return na('no Accept-Encoding header (see browser-headers-present)')
    const claimed = parseUserAgent(server.userAgent)
    if (claimed.engine === 'unknown') return { verdict: 'na', observed: ae, expected: 'the User-Agent names no browser engine' }
    const secure = securePage(v)
    const tokens = ae.toLowerCase().split(',').map((t) => (t.split(';')[0] ?? '').trim())
    const basic = ['gzip', 'deflate'].filter((t) => !tokens.includes(t))
    const modern = secure ? (['br', 'zstd'] as const).filter((t) => supports(claimed, t) && !tokens.includes(t)) : []
    const want = ['gzip', 'deflate', ...(secure ? (['br', 'zstd'] as const).filter((t) => supports(claimed, t)) : [])]
    return {
      verdict: basic.length ? 'fail' : modern.length ? 'warn' : 'pass',
      observed: ae,
      expected: `${want.join(', ')} for ${claimed.family} ${claimed.version ?? ''}, the browser the User-Agent claims,${secure ? ' in a secure context' : ' over plain HTTP'}`.replace(/ {2,}/g, ' ').replace(' ,', ','),
    }
  },
})

export const secFetch = check({
  id: 'sec-fetch',
  name: 'Sec-Fetch-* headers describe a same-origin fetch',
  found: 'Sec-Fetch-* headers are missing or describe another fetch',
  source: 'server',
  why: 'Chromium 76+, Firefox 90+ and Safari 16.4+ add Sec-Fetch-Site/Mode/Dest to every request to a secure origin; a fetch() from the page is same-origin/cors/empty. Missing or different values mean the request was made outside the browser or replayed.',
  ref: 'https://w3c.github.io/webappsec-fetch-metadata/',
  needs: [],
  uses: ['context', 'uaData'],
  judge: (v, { server }) => {
    const meta = { 'sec-fetch-site': header(server, 'sec-fetch-site'), 'sec-fetch-mode': header(server, 'sec-fetch-mode'), 'sec-fetch-dest': header(server, 'sec-fetch-dest') }
    const claimed = parseUserAgent(server.userAgent)
    if (!securePage(v)) return { verdict: 'na', observed: meta, expected: 'browsers send Sec-Fetch-* only to secure origins (https: or localhost)' }
    if (!supports(claimed, 'secFetch')) return { verdict: 'na', observed: meta, expected: `${`${claimed.family} ${claimed.version ?? ''}`.trim()}, the browser the User-Agent claims, predates Sec-Fetch-*` }
    const ok = meta['sec-fetch-site'] === 'same-origin' && meta['sec-fetch-mode'] === 'cors' && meta['sec-fetch-dest'] === 'empty'
    return { verdict: ok ? 'pass' : 'fail', observed: ok ? 'same-origin, cors, empty' : meta, expected: 'sec-fetch-site: same-origin, sec-fetch-mode: cors, sec-fetch-dest: empty' }
  },
})

// Proxy headers on the submitting request, and the addresses they forward. A browser never
// sends Via, Forwarded or X-Forwarded-For itself, so any that did not come from the service's
// own reverse proxy were added on the way (or forged). src/core/forwarded-addresses.ts separates the service's hops
// (X-Forwarded-For right of the client address it resolved) from what arrived at it.
// https://www.rfc-editor.org/rfc/rfc7239 (Forwarded), https://www.rfc-editor.org/rfc/rfc9110#name-via

import { proxyEvidence } from '../core/forwarded-addresses'
import { checkOn } from './define'

const EXPECTED = 'no Via, Forwarded, X-Forwarded-*, X-Real-IP or similar header'

/** Reads no signal: the headers are the server's observation. */
export const proxyHeaders = checkOn<object>()({
  id: 'proxy-headers',
  name: 'No proxy in the request path',
  found: 'a proxy is in the request path',
  source: 'server',
  why: 'Via, Forwarded, X-Forwarded-For, X-Real-IP, True-Client-IP and similar headers are added by proxies on the way (corporate gateways, Squid, HTTP proxies, some VPN and "anonymous" proxy services) and forged by scripts, never sent by browsers. The service\'s own reverse proxy (TRUSTED_PROXIES) is recognised and not counted, but addresses left of the client in its X-Forwarded-For chain arrived from the client\'s side: a proxy before it. Corporate proxies are the usual false positive.',
  ref: 'https://www.rfc-editor.org/rfc/rfc7239',
  needs: [],
  judge: (_, { server }) => {
    const proxy = proxyEvidence(server)
    const counted = proxy.viaServiceProxy ? [] : proxy.headers
    if (counted.length || proxy.foreign.length) {
      return {
        verdict: 'fail',
        observed: { headers: counted.map(([n, v]) => `${n}: ${v}`), forwardedAddresses: proxy.foreign.map((a) => `${a.address} (${a.scope})`) },
        expected: EXPECTED,
      }
    }
    return { verdict: 'pass', observed: proxy.headers.length ? "only the headers of the service's own trusted proxy" : 'none', expected: EXPECTED }
  },
})

/** Addresses a transparent proxy forwards besides the client's own. */
export const forwardedAddressLeak = checkOn<object>()({
  id: 'forwarded-address-leak',
  name: 'Proxy headers reveal no other address',
  found: 'proxy headers reveal another address',
  source: 'server',
  why: 'A transparent proxy forwards the address it received the request from: the user\'s real public address (a failed anonymous proxy) or a LAN address. A public address is a full leak; a private one only reveals the internal network, so it warns.',
  ref: 'https://www.rfc-editor.org/rfc/rfc7239#section-5.2',
  needs: [],
  judge: (_, { server }) => {
    const { foreign } = proxyEvidence(server)
    return {
      verdict: foreign.some((a) => a.scope === 'public') ? 'fail' : foreign.length ? 'warn' : 'pass',
      observed: foreign.map((a) => `${a.address} (${a.scope}, ${a.header})`).join(', ') || 'none',
      expected: `no address other than ${server.ip} in proxy headers`,
    }
  },
})

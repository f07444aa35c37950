// How the page's connections were made: the protocol the page reports it negotiated, and
// whether the service saw a TLS handshake of this browser at all.
// https://developer.mozilla.org/docs/Web/API/PerformanceResourceTiming/nextHopProtocol

import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { checkOn, na } from './define'
import { LISTENER_MISSING, tlsEvidenceOf } from './tls-views'

const check = checkOn<TlsFingerprintSignals>()

export const nextHopProtocol = check({
  id: 'next-hop-protocol',
  name: 'Negotiated protocol fits the connection',
  found: 'the negotiated protocol does not fit the connection',
  source: 'client',
  why: 'Browsers negotiate HTTP/2 and HTTP/3 only over TLS (ALPN); they never speak h2c. A page loaded over plain http: that reports h2 or h3 is lying about nextHopProtocol. Over https: every current browser picks h2 or h3 when the server offers them.',
  ref: 'https://www.rfc-editor.org/rfc/rfc9113#section-3.1',
  needs: ['stack'],
  judge: ({ stack }) => {
    const protos = [stack.navigationProtocol, stack.fetchProtocol].filter((p): p is string => !!p)
    if (!protos.length) return { verdict: 'na', observed: stack.pageProtocol, expected: 'the browser hides nextHopProtocol here' }
    const plaintext = stack.pageProtocol === 'http:'
    const bad = plaintext && protos.some((p) => p === 'h2' || p.startsWith('h3'))
    return { verdict: bad ? 'fail' : 'pass', observed: `page ${stack.pageProtocol} navigation ${stack.navigationProtocol ?? '?'}, fetch ${stack.fetchProtocol ?? '?'}`, expected: plaintext ? 'http/1.1 over plain http:' : 'http/1.1, h2 or h3 over https:' }
  },
})

export const transportTls = check({
  id: 'transport-tls',
  name: 'Request came over TLS',
  found: 'the request did not come over TLS',
  source: 'server',
  why: 'Whether the submitting request was encrypted, and how the handshake looked, is the ground truth the fingerprint checks need. The service\'s HTTP port may sit behind a TLS proxy, so the handshake is read by its own TLS evidence listener on a fresh connection the page opens.',
  needs: [],
  uses: ['stack'],
  judge: ({ stack }, { server }) => {
    const e = tlsEvidenceOf(server)
    if (!e) return { ...na(LISTENER_MISSING), observed: stack ? `the page says ${stack.pageProtocol}, ${stack.secureContext ? 'secure' : 'not a secure'} context` : null }
    if (e.source === 'proxy') {
      const passed = Object.entries(e.headers ?? {}).map(([field, name]) => `${name} (${field})`).join(', ')
      return { verdict: 'pass', observed: `the handshake was read by the trusted proxy in front (socket peer in TRUSTED_PROXIES), which passed ${passed}`, expected: 'a TLS handshake read by the evidence listener or a trusted TLS-terminating proxy' }
    }
    const n = e.tls?.negotiated ?? { protocol: null, alpn: null, cipher: null }
    return { verdict: 'pass', observed: `${n.protocol ?? 'TLS'} ${n.cipher ?? ''}, ALPN ${n.alpn ?? 'none'}, SNI ${e.tls?.sni ?? 'none'}`.replace(/ +/g, ' '), expected: 'a TLS handshake with the evidence listener' }
  },
})

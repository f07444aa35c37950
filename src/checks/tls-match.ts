// The network stack the service saw against the browser the User-Agent header claims: the TLS
// ClientHello (JA4, or a full JA3 string) and the HTTP/2 preface (the Akamai fingerprint), as
// the TLS evidence listener or a trusted proxy read them (./tls-views.ts), each put in a stack
// family by src/core/tls-families.ts. Server evidence only: no page signal is needed.
// https://github.com/FoxIO-LLC/ja4, https://www.blackhat.com/docs/eu-17/materials/eu-17-Shuster-Passive-Fingerprinting-Of-HTTP2-Clients-wp.pdf

import { parseUserAgent, type ClaimedBrowser } from '../../common/user-agent'
import { FAMILY_NAME, familyVerdict, http2Family, tlsFamily } from '../core/tls-families'
import { checkOn, na } from './define'
import { h2Offered, tlsEvidenceOf, type TlsEvidence } from './tls-views'
import { INVARIANT_FAMILY_NAME } from '../core/tls-invariants'
import { brokenText, failing, interception, reencrypted, wireFamily } from './wire-family'

/** The claim as one phrase: "chrome 124 (blink) on windows", "an HTTP client (curl)". */
export const claimText = (c: ClaimedBrowser) => (c.family === 'tool' ? `an HTTP client (${c.tool})` : `${c.family}${c.version ? ` ${c.version}` : ''} (${c.engine}) on ${c.os}${c.headless ? ', headless' : ''}`)

/**
 * What the stack of a claim should be, for `expected`: these checks judge the claim against the
 * wire, so they name the claim, which is the User-Agent header's (no engine of the page's).
 */
export const claimExpect = (c: ClaimedBrowser) =>
  c.family === 'tool' ? `an HTTP library's stack (${claimText(c)}, as the User-Agent header claims)` : `the ${c.engine} stack of ${claimText(c)}, the browser the User-Agent header claims`

/** Whether the claim is a browser's (not an HTTP library's, not unknown). */
export const claimsBrowser = (c: ClaimedBrowser) => c.family !== 'tool' && c.engine !== 'unknown'

const byProxy = (e: TlsEvidence) => (e.source === 'proxy' ? " (from a trusted proxy's headers)" : '')

const check = checkOn<Record<string, never>>()

export const tlsFingerprintFamily = check({
  id: 'tls-fingerprint',
  name: 'TLS fingerprint matches the claimed browser',
  found: 'the TLS fingerprint is not the claimed browser\'s',
  source: 'server',
  why: 'The TLS ClientHello (JA3/JA4) of an HTTP library differs from a browser\'s whatever its User-Agent says. A proxy\'s JA3 hash alone names no stack, so it is not applicable.',
  ref: 'https://github.com/FoxIO-LLC/ja4/blob/main/technical_details/JA4.md',
  needs: [],
  judge: (_, { server }) => {
    const e = tlsEvidenceOf(server)
    if (!e?.tls) return na("needs the TLS evidence listener's record for this page (TLS_PORT), or a trusted proxy's JA4/JA3 header (TLS_FINGERPRINT_HEADERS): the ClientHello compared with the claimed browser")
    const claimed = parseUserAgent(server.userAgent)
    const proxied = interception(server)
    if (proxied) return reencrypted(proxied, 'the ClientHello')
    const seen = tlsFamily(e.tls)
    if (!seen) return { verdict: 'na', observed: `JA3 ${e.tls.ja3_hash ?? e.tls.ja3n_hash}${byProxy(e)}: a hash alone names no TLS stack`, expected: 'a JA4 or the full JA3 string, to compare the stack with the claimed browser' }
    const observed = `${e.tls.ja4 ?? `JA3 ${e.tls.ja3_hash}`}: ${FAMILY_NAME[seen.family]}${byProxy(e)}`
    // Without the claimed family's invariants the hello is another stack, whatever version is claimed.
    const w = wireFamily(server)
    const broken = w ? failing([...w.hello, ...w.order]) : []
    if (w && broken.length) return { verdict: 'fail', observed: `${observed}; not ${INVARIANT_FAMILY_NAME[w.family]} stack for any version: ${brokenText(broken)}`, expected: claimExpect(claimed) }
    return { verdict: familyVerdict(seen.family, claimed), observed, expected: claimExpect(claimed) }
  },
})

export const http2FingerprintFamily = check({
  id: 'http2-fingerprint',
  name: 'HTTP/2 SETTINGS and header order fit the browser',
  found: 'HTTP/2 SETTINGS or header order are not the browser\'s',
  source: 'server',
  why: 'The HTTP/2 preface is as characteristic as the ClientHello (Akamai fingerprint): SETTINGS values and order, the WINDOW_UPDATE increment, PRIORITY frames and the pseudo-header order (Chrome m,a,s,p; Firefox m,p,a,s; Safari m,s,p,a). HTTP libraries send their own. A browser that speaks HTTP/1.1 over TLS to the listener, which offers h2, fails too: every current browser negotiates h2 when offered (a TLS-inspecting middlebox would also change the ClientHello, which the TLS checks already show).',
  ref: 'https://www.blackhat.com/docs/eu-17/materials/eu-17-Shuster-Passive-Fingerprinting-Of-HTTP2-Clients-wp.pdf',
  needs: [],
  judge: (_, { server }) => {
    const e = tlsEvidenceOf(server)
    if (!e) return na("needs the TLS evidence listener's record for this page (TLS_PORT), or a trusted proxy's Akamai HTTP/2 header (TLS_FINGERPRINT_HEADERS): SETTINGS and pseudo-header order compared with the claimed browser")
    const claimed = parseUserAgent(server.userAgent)
    const proxied = interception(server)
    if (proxied) return reencrypted(proxied, 'the HTTP/2 preface (or the HTTP version)')
    if (e.http2) {
      const h = http2Family(e.http2.akamai)
      const observed = `${e.http2.akamai}: ${FAMILY_NAME[h.family]} (${h.reasons.join('; ')})${byProxy(e)}`
      // SETTINGS, window or pseudo-header order off the claimed family's invariants: another stack, whatever version is claimed.
      const w = wireFamily(server)
      const broken = w ? failing(w.http2) : []
      if (w && broken.length) return { verdict: 'fail', observed: `${observed}; not ${INVARIANT_FAMILY_NAME[w.family]} HTTP/2 for any version: ${brokenText(broken)}`, expected: claimExpect(claimed) }
      return { verdict: familyVerdict(h.family, claimed), observed, expected: claimExpect(claimed) }
    }
    if (e.http1) {
      if (!h2Offered(e.tls)) return { verdict: 'na', observed: `${e.http1.version} over TLS: the listener offered ${e.tls?.negotiated?.offered?.join(', ') || 'no ALPN'}`, expected: 'an HTTP/2 preface, which a browser sends only where h2 is offered' }
      const browser = claimsBrowser(claimed)
      return { verdict: browser ? 'fail' : 'pass', observed: `${e.http1.version} over TLS (ALPN ${e.tls?.negotiated?.alpn ?? 'none'}): no HTTP/2`, expected: browser ? 'HTTP/2 (every current browser negotiates h2 when offered)' : 'any' }
    }
    if (e.source === 'proxy') return { verdict: 'na', observed: 'no HTTP/2 fingerprint header', expected: 'an Akamai HTTP/2 fingerprint header from the trusted proxy (TLS_FINGERPRINT_HEADERS akamai=)' }
    return { verdict: 'na', observed: 'no HTTP record', expected: 'the HTTP/2 preface the listener reads after the handshake' }
  },
})

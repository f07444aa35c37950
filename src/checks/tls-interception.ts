// A proven browser behind someone else's TLS (issue 56): the page proved it ran in a browser
// engine for this page load, yet the TLS hello or HTTP/2 preface on the wire lacks the claimed
// family's invariants (src/checks/wire-family.ts). The browser is real; its connection is
// decrypted and re-encrypted on the way by a TLS-inspecting middlebox — a corporate gateway,
// antivirus HTTPS scanning, a debugging proxy — whose CA the machine trusts. That is worth
// telling the person, and is no sign of automation: this warns with a small weight, and the
// checks that would judge the browser by the middlebox's stack are `na` instead of failing.
// Without a valid proof the same wire is a client that never ran the page: the wire checks fail
// and this one is `na`.

import { INVARIANT_FAMILY_NAME } from '../core/tls-invariants'
import { checkOn, na } from './define'
import { brokenText, failing, offFamily, wireFamily } from './wire-family'

const PROOF_TEXT: Record<string, string> = {
  wrong: "its answer was not this page load's",
  missing: 'it sent no answer',
  'no-nonce': 'it had no live nonce to answer for',
}

export const tlsInterception = checkOn<Record<string, never>>()({
  id: 'tls-interception',
  name: 'The connection reaches the service as the browser made it',
  found: 'the connection is decrypted and re-encrypted on its way (by a proxy, security software or a gateway)',
  source: 'server',
  why: "A TLS-inspecting middlebox (a corporate gateway, antivirus HTTPS scanning, a debugging proxy) ends the browser's TLS connection and opens its own: the ClientHello and HTTP/2 preface the service sees are then the middlebox's, without the claimed browser's invariants (GREASE, its signature algorithms, its SETTINGS). When the page proved that it ran in a real browser engine for this page load, that is what such a wire means: the person can know that whoever runs the middlebox reads their HTTPS traffic, and it is not held against them (the other wire checks are not applicable). Without that proof the same wire is a client that never ran the page, which the TLS checks fail.",
  ref: 'https://www.rfc-editor.org/rfc/rfc8701',
  expected: "the claimed browser's own TLS and HTTP/2 on the wire, end to end",
  needs: [],
  judge: (_, { server }) => {
    const w = wireFamily(server)
    if (!w) return na("needs the TLS evidence listener's record of this page's connection (or a trusted proxy's HTTP/2 fingerprint) and a browser claim whose stack has known invariants (Chromium, Firefox, Safari)")
    const name = INVARIANT_FAMILY_NAME[w.family]
    const broken = failing([...w.hello, ...w.order, ...w.http2])
    if (!offFamily(w)) return { verdict: 'pass', observed: `${name} stack on the wire (${w.hellos} hello${w.hellos === 1 ? '' : 's'}${w.http2Seen ? ' and the HTTP/2 preface' : ''})` }
    if (server.proof !== 'valid') {
      const why = server.proof ? PROOF_TEXT[server.proof] ?? server.proof : 'no proof was checked'
      return { verdict: 'na', observed: `the wire is not ${name} stack (${brokenText(broken)}), and the page did not prove it ran in a browser (${why})`, expected: "a valid proof that the page ran in a browser, to read such a wire as a middlebox re-encrypting a person's connection; without it the TLS checks judge the client" }
    }
    return { verdict: 'warn', observed: `the page proved it ran in a browser, but the connection arrives with another TLS stack than ${name}: ${brokenText(broken)}` }
  },
})

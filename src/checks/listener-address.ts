// Whose handshake was filed under the page's nonce (issue 24). The HTTPS listener files every
// connection's records with the client's address, and a task is judged only on those of its own
// submitter (src/evidence/binding.ts); records from another address are set aside
// (`server.evidence_elsewhere`) and this check says so. A bot that has a real browser elsewhere
// open the listener with its nonce gains nothing: that handshake is not judged, and the
// handshake checks see none of its own.

import { checkOn, na } from './define'

const EXPECTED = "the HTTPS listener's records under the page's nonce all from the submitting address (for IPv6 its /64)"

/** Reads no signal: where the records came from is the server's observation. */
export const listenerAddress = checkOn<object>()({
  id: 'listener-address',
  name: "The handshake under the page's nonce is the submitter's own",
  found: 'the handshake under the page\'s nonce came from another address',
  source: 'server',
  why: "The TLS ClientHello and HTTP/2 frames the service judges are those of a connection to its HTTPS listener filed under the page's nonce. Anyone the nonce is handed to can make that connection, so a client could have another machine's browser lend it a handshake. Records from another address than the submitting request's are therefore not judged, and this check warns when there were any: a nonce used from two places. A browser whose connections leave by two addresses (IPv4 for one, IPv6 for the other, or a network change between page load and submission) shows it too, so it warns rather than fails.",
  needs: [],
  expected: EXPECTED,
  judge: (_, { server }) => {
    const elsewhere = server.evidenceElsewhere ?? []
    const own = (server.evidence ?? []).filter((e) => e.source !== 'proxy' && (e.kind === 'tls' || e.kind === 'http2' || e.kind === 'http1'))
    if (!elsewhere.length && !own.length) return na("a record of the service's HTTPS listener under the page's nonce (TLS_PORT)")
    if (!elsewhere.length) return { verdict: 'pass', observed: `${own.length} record${own.length === 1 ? '' : 's'} from ${server.ip}` }
    const from = [...new Set(elsewhere.map((e) => e.address ?? 'an unknown address'))]
    return {
      verdict: 'warn',
      observed: {
        submitter: server.ip,
        setAside: elsewhere.map((e) => `${e.kind} from ${e.address ?? 'an unknown address'}`),
        judged: own.length ? `${own.length} record${own.length === 1 ? '' : 's'} from ${server.ip}` : `none: the handshake checks have no record of this client (${from.join(', ')} made the connection${from.length === 1 ? '' : 's'})`,
      },
    }
  },
})

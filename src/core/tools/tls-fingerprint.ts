// tls-fingerprint: the browser a client claims to be, against what its network stack shows.
// The decisive evidence — the TLS ClientHello (JA3, JA3N with Chrome's shuffled extensions
// sorted, JA4, cipher/extension/curve lists, ALPN) and the HTTP/2 preface (SETTINGS,
// WINDOW_UPDATE, PRIORITY, pseudo-header order: the Akamai fingerprint) — is only visible to a
// TLS listener of the service's own (TLS_PORT, src/listeners/tls.ts), which files them under
// the page's nonce; the stack they show (src/core/tls-families.ts) is compared with the browser
// the User-Agent and client hints claim. Behind a TLS-terminating proxy, the proxy's JA4/JA3/
// Akamai headers (TLS_FINGERPRINT_HEADERS, from TRUSTED_PROXIES only) stand in, judged from
// what they show: no GREASE, no extension order (src/checks/tls-views.ts). Without either,
// those checks are `na` and the `tls` and `http2` sections hold nulls. The page also reports
// what JavaScript can see: the negotiated protocol (ALPN result), secure context, Network
// Information, and client hints.

import { Type, type TSchema } from '@sinclair/typebox'
import { TlsFingerprintSignals } from '../../../common/signals/tls-fingerprint'
import { brandsClaim, parseUserAgent } from '../../../common/user-agent'
import { browserClaim } from '../../checks/browser-claim'
import { hintsFromHeaders } from '../../checks/client-hints'
import { ja3, ja4, tlsParameters } from '../../checks/client-hello'
import { nextHopProtocol, transportTls } from '../../checks/connection-protocol'
import { engineApis } from '../../checks/engine-apis'
import { listenerAddress } from '../../checks/listener-address'
import { claimText, http2FingerprintFamily } from '../../checks/tls-match'
import { tlsVersion } from '../../checks/tls-version'
import { tlsInterception } from '../../checks/tls-interception'
import { pageRan } from '../../checks/page-ran'
import { tlsEvidenceOf } from '../../checks/tls-views'
import { FAMILY_NAME, http2Family, tlsFamily } from '../tls-families'
import { header, type ServerObservation } from './observation'
import { synOf, tcpSynOs } from '../../checks/tcp-syn-os'
import { kernelFamily } from '../../evidence/tcp-syn'
import { defineTool } from './types'

const N = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])
const Source = N(Type.Union([Type.Literal('listener'), Type.Literal('proxy')], { description: "Who read it: the service's TLS evidence listener, or a trusted TLS-terminating proxy's headers (TLS_FINGERPRINT_HEADERS); null when neither." }))

export const TlsFingerprintSections = Type.Object({
  tls: Type.Object(
    {
      source: Source,
      listener: Type.Union([Type.Integer(), Type.Null()], { description: 'Port of the TLS evidence listener the page reached; null without the listener.' }),
      nonce: N(Type.String()),
      version: N(Type.String()),
      ja3: N(Type.String()),
      ja3Hash: N(Type.String()),
      ja3n: N(Type.String()),
      ja3nHash: N(Type.String()),
      ja4: N(Type.String()),
      ciphers: N(Type.Array(Type.Integer())),
      extensions: N(Type.Array(Type.Integer())),
      curves: N(Type.Array(Type.Integer())),
      alpn: N(Type.Array(Type.String())),
      ja4r: N(Type.String()),
      sni: N(Type.String()),
      family: N(Type.String({ description: `TLS stack the ClientHello belongs to: ${Object.keys(FAMILY_NAME).map((f) => `\`${f}\``).join(', ')}.` })),
    },
    { description: "The ClientHello as the TLS evidence listener parsed it, or as far as a trusted proxy's fingerprint headers show it (`source`; members they do not show are null); every member is null without either." },
  ),
  http2: Type.Object({
    source: Source,
    akamai: N(Type.String()),
    settings: N(Type.Array(Type.Tuple([Type.Integer(), Type.Integer()]))),
    windowUpdate: Type.Union([Type.Integer(), Type.Null()]),
    pseudoHeaderOrder: N(Type.Array(Type.String())),
    family: N(Type.String()),
  }),
  tcp: Type.Union(
    [
      Type.Object({
        ja4t: Type.String({ description: 'FoxIO JA4T: `<window>_<TCP options in order>_<MSS>_<window scale>`.' }),
        ttl: Type.Integer(),
        initialTtl: Type.Integer({ description: 'The initial TTL the SYN was most likely sent with (64, 128, 255).' }),
        hops: Type.Integer(),
        df: Type.Union([Type.Boolean(), Type.Null()], { description: "IPv4's don't-fragment bit; null on IPv6." }),
        window: Type.Integer(),
        options: Type.Array(Type.Integer(), { description: 'TCP option kinds in the order sent.' }),
        mss: N(Type.Integer()),
        windowScale: N(Type.Integer()),
        timestamps: Type.Boolean(),
        sack: Type.Boolean(),
        family: Type.String({ description: 'The kernel family the SYN points to: windows, linux (Linux, Android), apple (macOS, iOS) or other.' }),
        proxy: Type.Boolean({ description: 'The socket peer was a trusted proxy: the SYN is the proxy\'s.' }),
      }),
      Type.Null(),
    ],
    { description: "The SYN of the page's connection, as the client's kernel sent it (TCP_SAVED_SYN on the HTTPS listener, Linux); null when none was kept (plain HTTP without the side connection, another platform)." },
  ),
  claimed: Type.Object({
    family: Type.String(),
    engine: Type.String(),
    version: Type.Union([Type.Number(), Type.Null()]),
    os: Type.String(),
    hints: Type.Union([Type.Object({ family: Type.String(), version: Type.Union([Type.Number(), Type.Null()]) }), Type.Null()]),
  }),
  transport: Type.Object({
    pageProtocol: N(Type.String()),
    secureContext: Type.Union([Type.Boolean(), Type.Null()]),
    navigationProtocol: N(Type.String()),
    fetchProtocol: N(Type.String()),
    connection: Type.Union([Type.Object({ effectiveType: N(Type.String()), rtt: Type.Union([Type.Number(), Type.Null()]), downlink: Type.Union([Type.Number(), Type.Null()]) }), Type.Null()]),
  }),
  handshake: Type.Object(
    {
      tested: Type.Boolean({ description: 'Whether a TLS ClientHello or HTTP/2 fingerprint of this client was seen (listener or trusted proxy). When false, the score covers only the checks that ran: it is not a clean result.' }),
      reason: N(Type.String({ description: 'Why it was not tested; null when it was.' })),
      httpsUrl: N(Type.String({ description: "The same tool on the service's HTTPS listener, where the page's own connection is read; null when tested or when the listener is off." })),
    },
    { description: 'Whether the TLS handshake was tested, and if not, why and where it can be.' },
  ),
  verdict: Type.String(),
})

/** What the report tells a person whose connection a middlebox decrypts and re-encrypts (no setting, no raw value). */
export const REENCRYPTED_TEXT =
  'Your connection is decrypted and re-encrypted on its way here, by a proxy, security software or a company gateway: the TLS and HTTP/2 seen below are that go-between\'s, not your browser\'s. That is worth knowing, since whoever runs it can read what you send over HTTPS. It is not held against you: this page proved it ran in a real browser.'

export const tlsFingerprint = defineTool({
  id: 'tls-fingerprint',
  signals: TlsFingerprintSignals,
  sections: TlsFingerprintSections,
  checks: [
    [browserClaim, 30],
    [engineApis, 30],
    [nextHopProtocol, 15],
    [transportTls, 0],
    [ja4, 50],
    [ja3, 40],
    [tlsParameters, 30],
    [http2FingerprintFamily, 40],
    [tlsVersion, 40],
    [tlsInterception, 10],
    [pageRan, 30],
    [listenerAddress, 10],
    [tcpSynOs, 30],
  ],
  addSections(s, { checks }, server) {
    const claimed = parseUserAgent(server.userAgent)
    const hints = hintsFromHeaders(server)
    const hintClaim = hints.brands ? brandsClaim(hints.brands) : null
    const stack = s.stack.ok ? s.stack.value : undefined
    const conn = s.connection.ok ? s.connection.value : undefined
    const probe = s.evidence.ok ? s.evidence.value : undefined
    const evidence = tlsEvidenceOf(server)
    const tv = evidence?.tls ?? null
    const h2 = evidence?.http2 ?? null
    const tlsGuess = tv ? tlsFamily(tv) : null
    const h2Guess = h2 ? http2Family(h2.akamai) : null
    const fromProxy = evidence?.source === 'proxy'
    const syn = synOf(server)

    const failed = checks.filter((c) => c.verdict === 'fail')
    // A proven browser whose connection a middlebox re-encrypts (src/checks/tls-interception.ts): said in plain words.
    const reencrypted = checks.some((c) => c.id === tlsInterception.id && c.verdict === 'warn')
    const head = failed.length
      ? `The claimed browser does not hold together: ${failed.map((c) => c.name).join('; ')} failed.`
      : `The client claims ${claimText(claimed)}, consistently across User-Agent, client hints and the APIs the page can see.`
    const middlebox = reencrypted ? ` ${REENCRYPTED_TEXT}` : ''
    const stacks = [tlsGuess && `TLS stack seen: ${FAMILY_NAME[tlsGuess.family]}`, h2Guess && `HTTP/2 stack: ${FAMILY_NAME[h2Guess.family]}`].filter(Boolean)
    const seen = stacks.length ? ` ${stacks.join('; ')}${fromProxy ? " (from a trusted proxy's headers)" : ''}.` : ''
    const handshake = handshakeStatus(!!evidence, s.evidence, server)
    const verdict = handshake.tested
      ? head + middlebox + seen
      : `Handshake not tested: ${handshake.reason}${handshake.httpsUrl ? `; open ${handshake.httpsUrl} to test it` : ''}. ${head} Not tested: the TLS ClientHello (JA3, JA3N, JA4) and the HTTP/2 fingerprint, which need the service's HTTPS listener (TLS_PORT) or fingerprint headers from a trusted TLS-terminating proxy (TLS_FINGERPRINT_HEADERS).`

    return {
      tls: {
        source: tv && evidence ? evidence.source : null,
        listener: probe?.port ?? null,
        nonce: probe?.nonce ?? null,
        version: tv?.version ? `TLS ${tv.version === '13' ? '1.3' : tv.version === '12' ? '1.2' : tv.version}` : null,
        ja3: tv?.ja3 ?? null,
        ja3Hash: tv?.ja3_hash ?? null,
        ja3n: tv?.ja3n ?? null,
        ja3nHash: tv?.ja3n_hash ?? null,
        ja4: tv?.ja4 ?? null,
        ja4r: tv?.ja4_r ?? null,
        sni: tv?.sni ?? null,
        ciphers: tv?.ciphers ?? null,
        extensions: tv?.extensions ?? null,
        curves: tv?.groups ?? null,
        alpn: tv?.alpn ?? null,
        family: tlsGuess?.family ?? null,
      },
      http2: {
        source: h2 && evidence ? evidence.source : null,
        akamai: h2?.akamai ?? null,
        settings: h2?.settings ?? null,
        windowUpdate: h2?.window_update ?? null,
        pseudoHeaderOrder: h2?.pseudo_header_order ?? null,
        family: h2Guess?.family ?? null,
      },
      tcp: syn && { ja4t: syn.ja4t, ttl: syn.ttl, initialTtl: syn.initialTtl, hops: syn.hops, df: syn.df, window: syn.window, options: syn.options, mss: syn.mss, windowScale: syn.windowScale, timestamps: syn.timestamps, sack: syn.sack, family: kernelFamily(syn), proxy: syn.proxy },
      claimed: { family: claimed.family, engine: claimed.engine, version: claimed.version, os: claimed.os, hints: hintClaim && { family: hintClaim.family, version: hintClaim.version } },
      transport: {
        pageProtocol: stack?.pageProtocol ?? null,
        secureContext: stack?.secureContext ?? null,
        navigationProtocol: stack?.navigationProtocol ?? null,
        fetchProtocol: stack?.fetchProtocol ?? null,
        connection: conn ? { effectiveType: conn.effectiveType, rtt: conn.rtt, downlink: conn.downlink } : null,
      },
      handshake,
      verdict,
    }
  },
  // The handshake is this tool's main evidence: without it the task is not a TLS result.
  untested(sections) {
    const h = sections.handshake as { tested: boolean; reason: string | null; httpsUrl: string | null }
    return h.tested ? null : { reason: `handshake not tested: ${h.reason ?? 'no ClientHello was seen'}`, url: h.httpsUrl }
  },
})

/**
 * Whether the handshake was seen; if not, why (from the page's connection to the listener) and
 * the tool's URL on the HTTPS listener, on the host the page was loaded from.
 */
function handshakeStatus(tested: boolean, probe: TlsFingerprintSignals['evidence'], server: ServerObservation): { tested: boolean; reason: string | null; httpsUrl: string | null } {
  if (tested) return { tested, reason: null, httpsUrl: null }
  // Records another client filed under this nonce are not this client's handshake (src/evidence/binding.ts).
  const elsewhere = [...new Set((server.evidenceElsewhere ?? []).map((e) => e.address ?? 'an unknown address'))]
  if (elsewhere.length) return { tested, reason: `the HTTPS listener's records under the page's nonce came from ${elsewhere.join(', ')}, not from this client's address ${server.ip}, so they are not judged`, httpsUrl: null }
  if (!probe.ok) {
    // A client without JavaScript (src/core/tools/assemble.ts NOT_SENT).
    if (probe.error.message.startsWith('not sent')) return { tested, reason: "nothing of this client's handshake is filed under the page's nonce: load the page from the service's HTTPS listener, or fetch /evidence/<nonce> on it with the same client", httpsUrl: null }
    const off = probe.error.kind === 'unsupported' && /TLS_PORT|listener/.test(probe.error.message)
    return { tested, reason: off ? "the service's HTTPS listener is off (TLS_PORT=off)" : `the page's connection to the HTTPS listener failed (${probe.error.message})`, httpsUrl: null }
  }
  const reason = probe.value.reached
    ? `the page reached the HTTPS listener on port ${probe.value.port}, but nothing is filed under its nonce`
    : `the page could not open its connection to the HTTPS listener on port ${probe.value.port}: the browser does not trust its certificate (self-signed unless TLS_CERT_FILE and TLS_KEY_FILE are set), or the port is blocked`
  // The host the page was loaded from (the Host of its POST), with the listener's port.
  const host = header(server, 'host')?.trim().toLowerCase() ?? ''
  const m = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/.exec(host)
  const port = probe.value.port
  const httpsUrl = m ? `https://${m[1]}${port === 443 ? '' : `:${port}`}/tools/tls-fingerprint` : null
  return { tested, reason, httpsUrl }
}

// tls-fingerprint: the browser a client claims to be, against what its network stack shows.
// The decisive evidence — the TLS ClientHello (JA3, JA3N with Chrome's shuffled extensions
// sorted, JA4, cipher/extension/curve lists, ALPN) and the HTTP/2 preface (SETTINGS,
// WINDOW_UPDATE, PRIORITY, pseudo-header order: the Akamai fingerprint) — is only visible to a
// TLS listener of the service's own (TLS_PORT, src/listeners/tls.ts), which files them under
// the page's nonce; the stack they show (src/core/tls-families.ts) is compared with the browser
// the User-Agent and client hints claim. Behind a TLS-terminating proxy, the proxy's JA4/JA3/
// Akamai headers (TLS_FINGERPRINT_HEADERS, from TRUSTED_PROXIES only) stand in, judged from
// what they show: no GREASE, no extension order. Without either, those checks are `na` and the
// `tls` and `http2` sections hold nulls. The page also reports what JavaScript can see: the
// negotiated protocol (ALPN result), secure context, Network Information, and client hints.

import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { check, type Check, type CheckDef } from '../scoring'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { brandsClaim, parseUserAgent, uaHintMismatches, type ClaimedBrowser } from '../../../common/user-agent'
import { NavigatorUaSchema, UaClientHintsSchema } from '../../../common/signals/shared'
import { hintsFromHeaders } from './http-headers'
import { evidenceOf, type ServerObservation } from './observation'
import { FAMILY_NAME, familyVerdict, http2Family, tlsFamily, type TlsFamily } from '../tls-families'
import type { Http1Record, Http2Record, TlsRecord } from '../../evidence/tls-records'
import { legacyTool } from './types'

const NullableStr = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()])
const NullableNum = Type.Union([Type.Number(), Type.Null()])

export const TlsFingerprintSignals = Type.Object({
  navigator: Signal(NavigatorUaSchema),
  uaData: Signal(UaClientHintsSchema),
  /** probes/signals/network-stack.ts */
  stack: Signal(
    Type.Object({
      pageProtocol: Type.String({ maxLength: 16 }),
      secureContext: Type.Boolean(),
      navigationProtocol: NullableStr(32),
      fetchProtocol: NullableStr(32),
      navigationTls: Type.Union([Type.Boolean(), Type.Null()]),
    }),
  ),
  /** probes/signals/network-information.ts (navigator.connection, Chromium only). */
  connection: Signal(Type.Object({ type: NullableStr(32), effectiveType: NullableStr(32), rtt: NullableNum, downlink: NullableNum, saveData: Type.Union([Type.Boolean(), Type.Null()]) })),
  /** probes/signals/tls-evidence.ts: the nonce under which the TLS listener filed this browser's ClientHello. */
  evidence: Signal(Type.Object({ port: Type.Integer({ minimum: 1, maximum: 65535 }), nonce: Type.String({ pattern: '^[a-z2-7]{26}$' }), reached: Type.Boolean(), ms: Type.Number() })),
})
export type TlsFingerprintSignals = Static<typeof TlsFingerprintSignals>

/**
 * The ClientHello as far as it is known: everything from the listener (a TlsRecord fits), or
 * what a proxy's headers show (src/evidence/proxy-fingerprints.ts), null where they show nothing.
 */
export interface TlsView {
  /** JA4 version code of the highest version offered ('13'). */
  version: string | null
  ja3: string | null
  ja3_hash: string | null
  ja3n: string | null
  ja3n_hash: string | null
  ja4: string | null
  ja4_r: string | null
  /** JA4 part b where there is no JA4 (a proxy's JA3 string). */
  cipher_hash?: string | null
  ciphers: number[] | null
  extensions: number[] | null
  groups: number[] | null
  /** Every ALPN offered (listener); a proxy's JA4 shows only the first, in `ja4_alpn`. */
  alpn: string[] | null
  /** JA4's two ALPN characters ('h2', 'h1', '00'), from a proxy. */
  ja4_alpn?: string | null
  sni: string | null
  /** Null: not visible (a proxy's JA3/JA4 never shows GREASE). */
  grease: boolean | null
  alps: number | null
  record_size_limit: number | null
  negotiated?: TlsRecord['negotiated'] | null
}

/** The HTTP/2 start as far as it is known; an Http2Record fits. */
export interface Http2View {
  akamai: string
  settings: Array<[number, number]> | null
  window_update: number | null
  pseudo_header_order: string[] | null
}

/**
 * What the TLS evidence listener filed under the page's nonce (`source: 'listener'`), or else
 * what a trusted proxy passed in headers for the submitting request (`source: 'proxy'`).
 */
export interface TlsEvidence {
  source: 'listener' | 'proxy'
  tls: TlsView | null
  http2: Http2View | null
  http1: Http1Record | null
  /** For a proxy: the header each fingerprint came from. */
  headers?: Record<string, string>
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')
const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number')
const str = (v: unknown) => (typeof v === 'string' ? v : null)
const nums = (v: unknown) => (numbers(v) ? v : null)
const num = (v: unknown) => (typeof v === 'number' ? v : null)

/** A proxy's 'tls' data as a view; null when it holds no fingerprint (only ignored headers). */
function proxyTlsView(d: unknown): TlsView | null {
  if (!isRecord(d)) return null
  const view: TlsView = {
    version: str(d.version),
    ja3: str(d.ja3),
    ja3_hash: str(d.ja3_hash),
    ja3n: str(d.ja3n),
    ja3n_hash: str(d.ja3n_hash),
    ja4: str(d.ja4),
    ja4_r: str(d.ja4_r),
    cipher_hash: str(d.cipher_hash),
    ciphers: nums(d.ciphers),
    extensions: nums(d.extensions),
    groups: nums(d.groups),
    alpn: null,
    ja4_alpn: str(d.ja4_alpn),
    sni: null,
    grease: d.grease === true ? true : null,
    alps: num(d.alps),
    record_size_limit: null,
    negotiated: null,
  }
  return view.ja4 || view.ja3 || view.ja3_hash || view.ja3n_hash ? view : null
}

function proxyHttp2View(d: unknown): Http2View | null {
  if (!isRecord(d) || typeof d.akamai !== 'string') return null
  const settings = Array.isArray(d.settings) && d.settings.every((s) => numbers(s) && s.length === 2) ? (d.settings as Array<[number, number]>) : null
  return { akamai: d.akamai, settings, window_update: num(d.window_update), pseudo_header_order: strings(d.pseudo_header_order) ? d.pseudo_header_order : null }
}

/**
 * The TLS and HTTP records to judge: the listener's (its first TLS record and the HTTP record
 * of the same nonce) when it filed a whole one; else a trusted proxy's headers; null when
 * neither has anything (or only odd shapes). Never a mix: the listener's records describe one
 * connection, the proxy's another.
 */
export function tlsEvidenceOf(server: Pick<ServerObservation, 'evidence'>): TlsEvidence | null {
  const items = server.evidence ?? []
  const listener = { evidence: items.filter((e) => e.source !== 'proxy') }
  const tls = evidenceOf(listener, 'tls')[0]
  if (isRecord(tls) && typeof tls.ja4 === 'string' && typeof tls.ja3n_hash === 'string' && numbers(tls.ciphers) && numbers(tls.extensions) && strings(tls.alpn)) {
    const h2 = evidenceOf(listener, 'http2')[0]
    const h1 = evidenceOf(listener, 'http1')[0]
    return {
      source: 'listener',
      tls: tls as unknown as TlsRecord,
      http2: isRecord(h2) && typeof h2.akamai === 'string' && strings(h2.pseudo_header_order) ? (h2 as unknown as Http2Record) : null,
      http1: isRecord(h1) && typeof h1.version === 'string' && Array.isArray(h1.headers) ? (h1 as unknown as Http1Record) : null,
    }
  }
  const proxy = { evidence: items.filter((e) => e.source === 'proxy') }
  const ptls = evidenceOf(proxy, 'tls')[0]
  const ph2 = evidenceOf(proxy, 'http2')[0]
  const view = { tls: proxyTlsView(ptls), http2: proxyHttp2View(ph2) }
  if (!view.tls && !view.http2) return null
  const headers = Object.fromEntries([ptls, ph2].flatMap((d) => (isRecord(d) && isRecord(d.headers) ? Object.entries(d.headers).filter((e): e is [string, string] => typeof e[1] === 'string') : [])))
  return { source: 'proxy', ...view, http1: null, headers }
}

const LISTENER_MISSING = "needs the service's TLS evidence listener (TLS_PORT), which parses the ClientHello of a fresh connection the page opens to it; the service's HTTP listener speaks plain HTTP (TLS, if any, ends at a proxy in front), so behind a TLS-terminating proxy its fingerprint headers can stand in (TLS_FINGERPRINT_HEADERS, from TRUSTED_PROXIES)"

const DEFS = {
  claimed: { id: 'claimed-browser', name: 'User-Agent and client hints claim the same browser', source: 'server', weight: 30, why: 'The TLS fingerprint is compared with the browser the client claims to be, so the claim must first be consistent: the User-Agent header and the Sec-CH-UA brands (Chromium) name one family and version. An HTTP library\'s User-Agent or a UA that contradicts the hints means the claim is already false.' },
  engineApis: { id: 'engine-apis', name: 'Network APIs match the claimed engine', source: 'client', weight: 30, why: 'Chromium exposes navigator.userAgentData in secure contexts and navigator.connection (Network Information); Firefox on desktop and Safari expose neither. A Chrome User-Agent without them is Firefox or Safari behind a UA switcher, whose TLS fingerprint will be Firefox\'s or Safari\'s; a Firefox User-Agent with them is Chromium in disguise.' },
  protocol: { id: 'next-hop-protocol', name: 'Negotiated protocol fits the connection', source: 'client', weight: 15, why: 'Browsers negotiate HTTP/2 and HTTP/3 only over TLS (ALPN); they never speak h2c. A page loaded over plain http: that reports h2 or h3 is lying about nextHopProtocol. Over https: every current browser picks h2 or h3 when the server offers them.' },
  transport: { id: 'transport-tls', name: 'Request came over TLS', source: 'server', weight: 0, why: 'Whether the submitting request was encrypted, and how the handshake looked, is the ground truth the fingerprint checks need. The service\'s HTTP port may sit behind a TLS proxy, so the handshake is read by its own TLS evidence listener on a fresh connection the page opens.' },
  ja3: { id: 'ja3', name: 'JA3 / JA3N fingerprint fits the claimed browser', source: 'server', weight: 40, why: 'JA3 hashes the ClientHello (version, ciphers, extensions, curves, point formats); JA3N sorts the extensions first because Chrome 110+ shuffles them on every connection. Each browser version has few JA3N values; curl, Python, Go and Node have their own, so a browser User-Agent with a library\'s JA3N is a bot.' },
  ja4: { id: 'ja4', name: 'JA4 fingerprint fits the claimed browser', source: 'server', weight: 50, why: 'JA4 (FoxIO) describes the ClientHello in a readable, order-independent form (protocol, version, SNI, cipher and extension counts, ALPN, sorted hashes). Chrome, Firefox and Safari each have a stable JA4 per version; impersonation libraries (curl-impersonate, utls) copy it, but most automation does not.' },
  tlsParams: { id: 'tls-parameters', name: 'Ciphers, extensions, curves and ALPN fit the browser', source: 'server', weight: 30, why: 'Beyond the hashes: GREASE values (Chromium, Safari), post-quantum key shares (X25519MLKEM768 in Chrome 131+, Firefox 132+), ALPN h2 then http/1.1, and extension sets that engines have and libraries lack.' },
  http2: { id: 'http2-fingerprint', name: 'HTTP/2 SETTINGS and header order fit the browser', source: 'server', weight: 40, why: 'The HTTP/2 preface is as characteristic as the ClientHello (Akamai fingerprint): SETTINGS values and order, the WINDOW_UPDATE increment, PRIORITY frames and the pseudo-header order (Chrome m,a,s,p; Firefox m,p,a,s; Safari m,s,p,a). HTTP libraries send their own.' },
} as const satisfies Record<string, CheckDef>

const na = (def: CheckDef, expected: string, observed: unknown = null) => check(def, { verdict: 'na', observed, expected })

const claimText = (c: ClaimedBrowser) => (c.family === 'tool' ? `an HTTP client (${c.tool})` : `${c.family}${c.version ? ` ${c.version}` : ''} (${c.engine}) on ${c.os}${c.headless ? ', headless' : ''}`)

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
      family: N(Type.String({ description: 'TLS stack the ClientHello belongs to (src/core/tls-families.ts).' })),
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
  verdict: Type.String(),
})

/** Judges the signals; `evidence` is what the TLS listener recorded for the page's nonce (issue 7), or a trusted proxy's headers. */
export function judgeTls(s: TlsFingerprintSignals, server: ServerObservation, evidence: TlsEvidence | null = null) {
  const checks: Check[] = []
  const claimed = parseUserAgent(server.userAgent)
  const hints = hintsFromHeaders(server)
  const uaData = valueOf(s.uaData)
  const stack = valueOf(s.stack)
  const conn = valueOf(s.connection)
  const probe = valueOf(s.evidence)
  const hintClaim = hints.brands ? brandsClaim(hints.brands) : null

  // The claim.
  if (claimed.family === 'tool') checks.push(check(DEFS.claimed, { verdict: 'fail', observed: server.userAgent || '(no User-Agent)', expected: 'a browser User-Agent' }))
  else if (hints.brands) {
    const m = uaHintMismatches(claimed, { brands: hints.brands, platform: hints.platform, mobile: hints.mobile })
    checks.push(check(DEFS.claimed, { verdict: m.length ? 'fail' : 'pass', observed: m.length ? m : `${claimText(claimed)}; Sec-CH-UA ${hintClaim!.family} ${hintClaim!.version ?? ''}`.trim(), expected: 'one browser family and version in the User-Agent and Sec-CH-UA' }))
  } else if (claimed.engine === 'blink' && stack?.secureContext) {
    checks.push(check(DEFS.claimed, { verdict: 'fail', observed: `${claimText(claimed)}; no Sec-CH-UA`, expected: 'Sec-CH-UA from a Chromium browser in a secure context' }))
  } else checks.push(check(DEFS.claimed, { verdict: claimed.family === 'other' ? 'warn' : 'pass', observed: `${claimText(claimed)} (no client hints: ${claimed.engine === 'blink' ? 'not a secure context' : 'not Chromium'})`, expected: 'a recognisable browser' }))

  // Engine-specific APIs.
  const hasUaData = uaData !== undefined
  const noUaData = !s.uaData.ok && s.uaData.error.kind === 'unsupported'
  const hasConn = conn !== undefined
  const noConn = !s.connection.ok && s.connection.error.kind === 'unsupported'
  if (claimed.engine === 'unknown' || (!hasUaData && !noUaData) || (!hasConn && !noConn)) {
    checks.push(na(DEFS.engineApis, claimed.engine === 'unknown' ? 'the User-Agent names no engine' : `${whyMissing(s.uaData) || whyMissing(s.connection)}`))
  } else {
    const problems: string[] = []
    const secure = stack?.secureContext ?? hasUaData
    if (claimed.engine === 'blink') {
      if (secure && (claimed.version ?? 0) >= 90 && !hasUaData) problems.push('no navigator.userAgentData')
      if ((claimed.version ?? 0) >= 61 && !hasConn) problems.push('no navigator.connection')
    } else {
      if (hasUaData) problems.push('navigator.userAgentData exists')
      // Firefox for Android keeps navigator.connection; desktop Firefox and Safari have none.
      if (hasConn && !(claimed.engine === 'gecko' && claimed.os === 'android')) problems.push('navigator.connection exists')
    }
    const observed = `userAgentData ${hasUaData ? 'present' : 'absent'}, navigator.connection ${hasConn ? 'present' : 'absent'}`
    checks.push(check(DEFS.engineApis, { verdict: problems.length ? 'fail' : 'pass', observed: problems.length ? `${observed}: ${problems.join(', ')} for ${claimText(claimed)}` : observed, expected: claimed.engine === 'blink' ? 'both present in Chromium' : `neither in ${claimed.engine}` }))
  }

  // Negotiated protocol.
  const protos = stack ? [stack.navigationProtocol, stack.fetchProtocol].filter((p): p is string => !!p) : []
  if (!stack) checks.push(na(DEFS.protocol, whyMissing(s.stack)))
  else if (!protos.length) checks.push(na(DEFS.protocol, 'the browser hides nextHopProtocol here', stack.pageProtocol))
  else {
    const plaintext = stack.pageProtocol === 'http:'
    const encryptedOnly = protos.filter((p) => p === 'h2' || p.startsWith('h3'))
    const bad = plaintext && encryptedOnly.length > 0
    checks.push(check(DEFS.protocol, { verdict: bad ? 'fail' : 'pass', observed: `page ${stack.pageProtocol} navigation ${stack.navigationProtocol ?? '?'}, fetch ${stack.fetchProtocol ?? '?'}`, expected: plaintext ? 'http/1.1 over plain http:' : 'http/1.1, h2 or h3 over https:' }))
  }

  const evidenceWhy = probe ? `the listener's record for nonce ${probe.nonce}` : LISTENER_MISSING
  const none = probe ? (probe.reached ? `the page reached port ${probe.port} but nothing is filed under its nonce` : `the page could not reach port ${probe.port} (certificate not trusted, or the port is blocked)`) : 'no ClientHello recorded'
  const fromProxy = evidence?.source === 'proxy'
  const proxyHeaders = Object.entries(evidence?.headers ?? {}).map(([field, name]) => `${name} (${field})`).join(', ')
  let tlsGuess: { family: TlsFamily; reasons: string[] } | null = null
  let h2Guess: { family: TlsFamily; reasons: string[] } | null = null
  if (!evidence) {
    checks.push(na(DEFS.transport, LISTENER_MISSING, stack ? `the page says ${stack.pageProtocol}, ${stack.secureContext ? 'secure' : 'not a secure'} context` : null))
    checks.push(na(DEFS.ja3, evidenceWhy, none), na(DEFS.ja4, evidenceWhy, none), na(DEFS.tlsParams, evidenceWhy, none), na(DEFS.http2, evidenceWhy, none))
  } else {
    const t = evidence.tls
    const browser = claimed.family !== 'tool' && claimed.engine !== 'unknown'
    const verdictFor = (family: TlsFamily) => familyVerdict(family, claimed)
    const claimExpect = claimed.family === 'tool' ? `an HTTP library's stack (${claimText(claimed)})` : `the ${claimed.engine} stack of ${claimText(claimed)}`
    const via = fromProxy ? ' (read by the trusted proxy)' : ''
    if (fromProxy) {
      checks.push(check(DEFS.transport, { verdict: 'pass', observed: `the handshake was read by the trusted proxy in front (socket peer in TRUSTED_PROXIES), which passed ${proxyHeaders}`, expected: 'a TLS handshake read by the evidence listener or a trusted TLS-terminating proxy' }))
    } else {
      const n = t?.negotiated ?? { protocol: null, alpn: null, cipher: null }
      checks.push(check(DEFS.transport, { verdict: 'pass', observed: `${n.protocol ?? 'TLS'} ${n.cipher ?? ''}, ALPN ${n.alpn ?? 'none'}, SNI ${t?.sni ?? 'none'}`.replace(/ +/g, ' '), expected: 'a TLS handshake with the evidence listener' }))
    }

    if (!t) {
      const why = 'a JA4, JA4_r or JA3 header from the trusted proxy (TLS_FINGERPRINT_HEADERS ja4=, ja4_r=, ja3=)'
      checks.push(na(DEFS.ja4, why, 'no TLS fingerprint header'), na(DEFS.ja3, why, 'no TLS fingerprint header'), na(DEFS.tlsParams, why, 'no TLS fingerprint header'))
    } else {
      tlsGuess = tlsFamily(t)
      const old = browser && t.version !== null && t.version !== '13'
      const stackVerdict = old ? 'fail' : tlsGuess ? verdictFor(tlsGuess.family) : null
      const stackText = tlsGuess ? `${FAMILY_NAME[tlsGuess.family]} (${tlsGuess.reasons.join('; ')})` : ''
      const ja4Expect = `${browser ? 'JA4 starting t13 (every current browser offers TLS 1.3) from ' : ''}${claimExpect}`
      if (t.ja4 && stackVerdict) checks.push(check(DEFS.ja4, { verdict: stackVerdict, observed: `${t.ja4}: ${stackText}${via}`, expected: ja4Expect }))
      else checks.push(na(DEFS.ja4, 'a JA4 or JA4_r header from the trusted proxy (TLS_FINGERPRINT_HEADERS ja4= or ja4_r=)', 'no JA4 from the proxy'))
      // JA3 itself changes per connection in Chromium (shuffled extensions); JA3N is the stable
      // form. Both hash the same lists as JA4, so they agree with it on the family. A JA3 hash
      // alone (what some proxies pass) names no stack: the tables are by list, not by hash.
      if (tlsGuess && stackVerdict && (!fromProxy || t.ja3)) {
        checks.push(check(DEFS.ja3, { verdict: stackVerdict, observed: { ja3: t.ja3_hash, ja3n: t.ja3n_hash, family: FAMILY_NAME[tlsGuess.family], ...(fromProxy ? { from: 'trusted proxy' } : {}) }, expected: claimExpect }))
      } else if (t.ja3_hash || t.ja3n_hash) {
        const hashes = [t.ja3_hash && `JA3 ${t.ja3_hash}`, t.ja3n_hash && `JA3N ${t.ja3n_hash}`].filter(Boolean).join(', ')
        checks.push(na(DEFS.ja3, 'the full JA3 string from the trusted proxy (TLS_FINGERPRINT_HEADERS ja3=), or JA4', `${hashes} from the trusted proxy: a hash alone names no stack (the tables list cipher lists, not JA3 hashes), so it neither confirms nor refutes the claim`))
      } else checks.push(na(DEFS.ja3, 'a JA3 header from the trusted proxy (TLS_FINGERPRINT_HEADERS ja3=)', 'no JA3 from the proxy'))

      // What is not visible (a proxy's headers show no GREASE, and only the first ALPN) is
      // skipped, not counted either way.
      const problems: string[] = []
      const seen: string[] = []
      const unseen: string[] = []
      const firstAlpn = t.ja4_alpn ? ({ h2: 'h2', h1: 'http/1.1', h3: 'h3', '00': 'none' } as Record<string, string>)[t.ja4_alpn] ?? t.ja4_alpn : null
      if (t.alpn) seen.push(`ALPN ${t.alpn.join(',')}`)
      else if (firstAlpn) seen.push(`first ALPN ${firstAlpn}`)
      else unseen.push('ALPN')
      if (t.grease !== null) seen.push(t.grease ? 'GREASE' : 'no GREASE')
      else unseen.push('GREASE')
      if (browser) {
        if (t.alpn && !t.alpn.includes('h2')) problems.push(`ALPN ${t.alpn.join(',') || 'none'} without h2 (browsers offer h2 and http/1.1)`)
        if (!t.alpn && firstAlpn && firstAlpn !== 'h2' && firstAlpn !== 'h3') problems.push(`first ALPN ${firstAlpn} (browsers offer h2 first)`)
        if ((claimed.engine === 'blink' || claimed.engine === 'webkit') && t.grease === false) problems.push(`no GREASE (${claimed.engine} always sends it)`)
        if (claimed.engine === 'gecko' && t.grease === true) problems.push('GREASE values (Firefox sends none)')
        if (old) problems.push(`highest version offered is ${t.version} (not TLS 1.3)`)
      }
      // X25519MLKEM768 (0x11ec) since Chrome 131 and Firefox 132; X25519Kyber768 (0x6399) before.
      const wantsPq = (claimed.engine === 'blink' && (claimed.version ?? 0) >= 131) || (claimed.family === 'firefox' && (claimed.version ?? 0) >= 132)
      const pq = t.groups ? t.groups.includes(0x11ec) || t.groups.includes(0x6399) : null
      if (t.groups) seen.push(`groups ${t.groups.filter((g) => (g & 0x0f0f) !== 0x0a0a).join(',')}`)
      else if (wantsPq) unseen.push('key share groups')
      const warnings = wantsPq && pq === false ? ['no post-quantum key share group'] : []
      const hidden = unseen.length ? ` (not visible in the proxy's headers: ${unseen.join(', ')})` : ''
      const paramsExpect = browser ? `ALPN h2 and http/1.1, ${claimed.engine === 'gecko' ? 'no GREASE' : 'GREASE'}, TLS 1.3${wantsPq ? ', a post-quantum key share' : ''}` : 'any'
      if (!seen.length && t.version === null) checks.push(na(DEFS.tlsParams, "the ALPN, version and groups of the ClientHello: a JA4 or the JA3 string from the trusted proxy", `nothing readable in ${proxyHeaders || 'the proxy headers'}`))
      else {
        checks.push(
          check(DEFS.tlsParams, {
            verdict: problems.length ? 'fail' : warnings.length ? 'warn' : 'pass',
            observed: (problems.length || warnings.length ? [...problems, ...warnings].join('; ') : seen.join(', ')) + hidden,
            expected: paramsExpect,
          }),
        )
      }
    }

    if (evidence.http2) {
      h2Guess = http2Family(evidence.http2.akamai)
      checks.push(check(DEFS.http2, { verdict: verdictFor(h2Guess.family), observed: `${evidence.http2.akamai}: ${FAMILY_NAME[h2Guess.family]} (${h2Guess.reasons.join('; ')})${via}`, expected: claimExpect }))
    } else if (evidence.http1) {
      checks.push(check(DEFS.http2, { verdict: browser ? 'fail' : 'pass', observed: `${evidence.http1.version} over TLS (ALPN ${t?.negotiated?.alpn ?? 'none'}): no HTTP/2`, expected: browser ? 'HTTP/2 (every current browser negotiates h2 when offered)' : 'any' }))
    } else if (fromProxy) checks.push(na(DEFS.http2, 'an Akamai HTTP/2 fingerprint header from the trusted proxy (TLS_FINGERPRINT_HEADERS akamai=)', 'no HTTP/2 fingerprint header'))
    else checks.push(na(DEFS.http2, 'the HTTP/2 preface the listener reads after the handshake', 'no HTTP record'))
  }

  const failed = checks.filter((c) => c.verdict === 'fail')
  const head = failed.length
    ? `The claimed browser does not hold together: ${failed.map((c) => c.name).join('; ')} failed.`
    : `The client claims ${claimText(claimed)}, consistently across User-Agent, client hints and the APIs the page can see.`
  const stacks = [tlsGuess && `TLS stack seen: ${FAMILY_NAME[tlsGuess.family]}`, h2Guess && `HTTP/2 stack: ${FAMILY_NAME[h2Guess.family]}`].filter(Boolean)
  const seen = stacks.length ? ` ${stacks.join('; ')}${fromProxy ? " (from a trusted proxy's headers)" : ''}.` : ''
  const verdict = evidence
    ? head + seen
    : `${head} Not tested: the TLS ClientHello (JA3, JA3N, JA4) and the HTTP/2 fingerprint, which need the service's TLS evidence listener (TLS_PORT) or fingerprint headers from a trusted TLS-terminating proxy (TLS_FINGERPRINT_HEADERS)${probe ? ` (${none})` : ''}.`
  const tv = evidence?.tls ?? null
  const h2 = evidence?.http2 ?? null

  return {
    checks,
    sections: {
      tls: {
        source: tv ? evidence!.source : null,
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
        source: h2 ? evidence!.source : null,
        akamai: h2?.akamai ?? null,
        settings: h2?.settings ?? null,
        windowUpdate: h2?.window_update ?? null,
        pseudoHeaderOrder: h2?.pseudo_header_order ?? null,
        family: h2Guess?.family ?? null,
      },
      claimed: { family: claimed.family, engine: claimed.engine, version: claimed.version, os: claimed.os, hints: hintClaim && { family: hintClaim.family, version: hintClaim.version } },
      transport: {
        pageProtocol: stack?.pageProtocol ?? null,
        secureContext: stack?.secureContext ?? null,
        navigationProtocol: stack?.navigationProtocol ?? null,
        fetchProtocol: stack?.fetchProtocol ?? null,
        connection: conn ? { effectiveType: conn.effectiveType, rtt: conn.rtt, downlink: conn.downlink } : null,
      },
      verdict,
    },
  }
}

export const tlsFingerprint = legacyTool({
  id: 'tls-fingerprint',
  signals: TlsFingerprintSignals,
  sections: TlsFingerprintSections,
  judge: (s: TlsFingerprintSignals, server: ServerObservation) => judgeTls(s, server, tlsEvidenceOf(server)),
})

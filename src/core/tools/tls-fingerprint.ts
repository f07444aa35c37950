// tls-fingerprint: the browser a client claims to be, against what its network stack shows.
// The decisive evidence — the TLS ClientHello (JA3, JA3N with Chrome's shuffled extensions
// sorted, JA4, cipher/extension/curve lists, ALPN) and the HTTP/2 preface (SETTINGS,
// WINDOW_UPDATE, PRIORITY, pseudo-header order: the Akamai fingerprint) — is only visible to a
// TLS listener of the service's own (TLS_PORT, src/listeners/tls.ts), which files them under
// the page's nonce; the stack they show (src/core/tls-families.ts) is compared with the browser
// the User-Agent and client hints claim. Without the listener those checks are `na` and the
// `tls` and `http2` sections hold nulls. The page also reports what JavaScript can see: the
// negotiated protocol (ALPN result), secure context, Network Information, and client hints.

import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { check, type Check, type CheckDef } from '../checks'
import { Signal, valueOf, whyMissing } from '../signal'
import { brandsClaim, parseUserAgent, uaHintMismatches, type ClaimedBrowser } from '../user-agent'
import { NavigatorUaSchema, UaClientHintsSchema } from './client-signals'
import { hintsFromHeaders } from './http-headers'
import { evidenceOf, type ServerObservation } from './observation'
import { FAMILY_NAME, familyVerdict, http2Family, tlsFamily, type TlsFamily } from '../tls-families'
import type { Http1Record, Http2Record, TlsRecord } from '../../evidence/tls-records'
import { defineTool } from './types'

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

/** What the TLS evidence listener (src/listeners/tls.ts) filed under the page's nonce. */
export interface TlsEvidence {
  tls: TlsRecord
  http2: Http2Record | null
  http1: Http1Record | null
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')
const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number')

/** The first TLS record and the HTTP record of the same nonce; null when the listener filed none (or an odd shape). */
export function tlsEvidenceOf(server: Pick<ServerObservation, 'evidence'>): TlsEvidence | null {
  const tls = evidenceOf(server, 'tls')[0]
  if (!isRecord(tls) || typeof tls.ja4 !== 'string' || typeof tls.ja3n_hash !== 'string' || !numbers(tls.ciphers) || !numbers(tls.extensions) || !strings(tls.alpn)) return null
  const h2 = evidenceOf(server, 'http2')[0]
  const h1 = evidenceOf(server, 'http1')[0]
  return {
    tls: tls as unknown as TlsRecord,
    http2: isRecord(h2) && typeof h2.akamai === 'string' && strings(h2.pseudo_header_order) ? (h2 as unknown as Http2Record) : null,
    http1: isRecord(h1) && typeof h1.version === 'string' && Array.isArray(h1.headers) ? (h1 as unknown as Http1Record) : null,
  }
}

const LISTENER_MISSING = "needs the service's TLS evidence listener (TLS_PORT), which parses the ClientHello of a fresh connection the page opens to it; the service's HTTP listener speaks plain HTTP (TLS, if any, ends at a proxy in front)"

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

export const TlsFingerprintSections = Type.Object({
  tls: Type.Object(
    {
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
    { description: 'The ClientHello as the TLS evidence listener parsed it; every member is null when the service runs without the listener (TLS_PORT) or the page did not reach it.' },
  ),
  http2: Type.Object({
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

/** Judges the signals; `evidence` is what the TLS listener recorded for the page's nonce (issue 7). */
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
    const n = t.negotiated ?? { protocol: null, alpn: null, cipher: null }
    checks.push(check(DEFS.transport, { verdict: 'pass', observed: `${n.protocol ?? 'TLS'} ${n.cipher ?? ''}, ALPN ${n.alpn ?? 'none'}, SNI ${t.sni ?? 'none'}`.replace(/ +/g, ' '), expected: 'a TLS handshake with the evidence listener' }))

    tlsGuess = tlsFamily(t)
    const old = browser && t.version !== '13'
    const ja4Verdict = old ? 'fail' : verdictFor(tlsGuess.family)
    checks.push(check(DEFS.ja4, { verdict: ja4Verdict, observed: `${t.ja4}: ${FAMILY_NAME[tlsGuess.family]} (${tlsGuess.reasons.join('; ')})`, expected: `${browser ? 'JA4 starting t13 (every current browser offers TLS 1.3) from ' : ''}${claimExpect}` }))
    // JA3 itself changes per connection in Chromium (shuffled extensions); JA3N is the stable
    // form. Both hash the same lists as JA4, so they agree with it on the family.
    checks.push(check(DEFS.ja3, { verdict: ja4Verdict, observed: { ja3: t.ja3_hash, ja3n: t.ja3n_hash, family: FAMILY_NAME[tlsGuess.family] }, expected: claimExpect }))

    const problems: string[] = []
    if (browser) {
      if (!t.alpn.includes('h2')) problems.push(`ALPN ${t.alpn.join(',') || 'none'} without h2 (browsers offer h2 and http/1.1)`)
      if ((claimed.engine === 'blink' || claimed.engine === 'webkit') && !t.grease) problems.push(`no GREASE (${claimed.engine} always sends it)`)
      if (claimed.engine === 'gecko' && t.grease) problems.push('GREASE values (Firefox sends none)')
      if (old) problems.push(`highest version offered is ${t.version} (not TLS 1.3)`)
    }
    // X25519MLKEM768 (0x11ec) since Chrome 131 and Firefox 132; X25519Kyber768 (0x6399) before.
    const pq = t.groups.includes(0x11ec) || t.groups.includes(0x6399)
    const wantsPq = (claimed.engine === 'blink' && (claimed.version ?? 0) >= 131) || (claimed.family === 'firefox' && (claimed.version ?? 0) >= 132)
    const warnings = wantsPq && !pq ? ['no post-quantum key share group'] : []
    checks.push(
      check(DEFS.tlsParams, {
        verdict: problems.length ? 'fail' : warnings.length ? 'warn' : 'pass',
        observed: problems.length || warnings.length ? [...problems, ...warnings].join('; ') : `ALPN ${t.alpn.join(',')}, ${t.grease ? 'GREASE' : 'no GREASE'}, groups ${t.groups.filter((g) => (g & 0x0f0f) !== 0x0a0a).join(',')}`,
        expected: browser ? `ALPN h2 and http/1.1, ${claimed.engine === 'gecko' ? 'no GREASE' : 'GREASE'}, TLS 1.3${wantsPq ? ', a post-quantum key share' : ''}` : 'any',
      }),
    )

    if (evidence.http2) {
      h2Guess = http2Family(evidence.http2.akamai)
      checks.push(check(DEFS.http2, { verdict: verdictFor(h2Guess.family), observed: `${evidence.http2.akamai}: ${FAMILY_NAME[h2Guess.family]} (${h2Guess.reasons.join('; ')})`, expected: claimExpect }))
    } else if (evidence.http1) {
      checks.push(check(DEFS.http2, { verdict: browser ? 'fail' : 'pass', observed: `${evidence.http1.version} over TLS (ALPN ${n.alpn ?? 'none'}): no HTTP/2`, expected: browser ? 'HTTP/2 (every current browser negotiates h2 when offered)' : 'any' }))
    } else checks.push(na(DEFS.http2, 'the HTTP/2 preface the listener reads after the handshake', 'no HTTP record'))
  }

  const failed = checks.filter((c) => c.verdict === 'fail')
  const head = failed.length
    ? `The claimed browser does not hold together: ${failed.map((c) => c.name).join('; ')} failed.`
    : `The client claims ${claimText(claimed)}, consistently across User-Agent, client hints and the APIs the page can see.`
  const seen = tlsGuess ? ` TLS stack seen: ${FAMILY_NAME[tlsGuess.family]}${h2Guess ? `; HTTP/2 stack: ${FAMILY_NAME[h2Guess.family]}` : ''}.` : ''
  const verdict = evidence ? head + seen : `${head} Not tested: the TLS ClientHello (JA3, JA3N, JA4) and the HTTP/2 fingerprint, which need the service's TLS evidence listener (TLS_PORT)${probe ? ` (${none})` : ''}.`

  return {
    checks,
    sections: {
      tls: {
        listener: probe?.port ?? null,
        nonce: probe?.nonce ?? null,
        version: evidence ? `TLS ${evidence.tls.version === '13' ? '1.3' : evidence.tls.version === '12' ? '1.2' : evidence.tls.version}` : null,
        ja3: evidence?.tls.ja3 ?? null,
        ja3Hash: evidence?.tls.ja3_hash ?? null,
        ja3n: evidence?.tls.ja3n ?? null,
        ja3nHash: evidence?.tls.ja3n_hash ?? null,
        ja4: evidence?.tls.ja4 ?? null,
        ja4r: evidence?.tls.ja4_r ?? null,
        sni: evidence?.tls.sni ?? null,
        ciphers: evidence?.tls.ciphers ?? null,
        extensions: evidence?.tls.extensions ?? null,
        curves: evidence?.tls.groups ?? null,
        alpn: evidence?.tls.alpn ?? null,
        family: tlsGuess?.family ?? null,
      },
      http2: {
        akamai: evidence?.http2?.akamai ?? null,
        settings: evidence?.http2?.settings ?? null,
        windowUpdate: evidence?.http2?.window_update ?? null,
        pseudoHeaderOrder: evidence?.http2?.pseudo_header_order ?? null,
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

export const tlsFingerprint = defineTool({
  id: 'tls-fingerprint',
  signals: TlsFingerprintSignals,
  sections: TlsFingerprintSections,
  judge: (s: TlsFingerprintSignals, server: ServerObservation) => judgeTls(s, server, tlsEvidenceOf(server)),
})

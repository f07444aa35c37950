// The wire of this page load against the invariants of the stack its User-Agent claims
// (src/core/tls-invariants.ts, issue 56): every ClientHello the TLS evidence listener filed under
// the page's nonce (the page's connection, its side connection to /evidence/<nonce>), the order of
// their extensions between connections, and the HTTP/2 preface. Read once here for every check
// that judges the wire.
//
// A wire that breaks the claimed family's invariants is another stack than the browser's. Two
// kinds of client send one: a program that never ran the page (a library, a replayer), and a
// person whose connection a TLS-inspecting middlebox (a corporate gateway, antivirus HTTPS
// scanning) decrypts and re-encrypts with its own stack. The page's proof that it ran in a
// browser engine for this page load (ServerObservation.proof) tells them apart: with a valid
// proof the stack on the wire is the middlebox's (`tls-interception` warns, and the checks that
// would judge the browser by it are `na`); without one, the wire checks fail.

import { parseUserAgent, type ClaimedBrowser } from '../../common/user-agent'
import { http2Broken, http2Shape } from '../core/http2-invariants'
import { helloBroken, INVARIANT_FAMILY_NAME, orderBroken, type Broken, type HelloShape, type InvariantFamily } from '../core/tls-invariants'
import { evidenceOf, type ServerObservation } from '../core/tools/observation'
import type { Outcome } from './define'
import { tlsEvidenceOf } from './tls-views'

/** The stack whose invariants a claim names: every Blink browser's BoringSSL, Gecko's NSS, WebKit's on Apple systems Apple's; none for WebKit elsewhere (GnuTLS and libsoup) or a library. */
export function invariantFamilyOf(claim: Pick<ClaimedBrowser, 'family' | 'engine' | 'os'>): InvariantFamily | null {
  if (claim.family === 'tool') return null
  if (claim.engine === 'blink') return 'chromium'
  if (claim.engine === 'gecko') return 'firefox'
  if (claim.engine === 'webkit' && (claim.os === 'mac' || claim.os === 'ios')) return 'safari'
  return null
}

export interface WireFamily {
  family: InvariantFamily
  /** The claimed major version (null: none named), for invariants that hold since a version. */
  major: number | null
  /** Hellos judged: the listener's, each one connection of this client. */
  hellos: number
  hello: Broken[]
  order: Broken[]
  /** Whether two hellos could be compared (a page loaded over plain HTTP has only its side connection). */
  orderJudged: boolean
  http2: Broken[]
  /** Whether an HTTP/2 preface was judged. */
  http2Seen: boolean
}

const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number')
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

function asHello(d: unknown): HelloShape | null {
  if (!isRecord(d) || !numbers(d.ciphers) || !numbers(d.extensions) || !d.ciphers.length) return null
  const list = (v: unknown) => (numbers(v) ? v : null)
  const alpn = Array.isArray(d.alpn) && d.alpn.every((x) => typeof x === 'string') ? (d.alpn as string[]) : null
  return { ciphers: d.ciphers, extensions: d.extensions, groups: list(d.groups), versions: list(d.versions), key_shares: list(d.key_shares), signature_algorithms: list(d.signature_algorithms), alpn }
}

/** Each Broken once, by id, the first seen kept. */
function unique(list: Broken[]): Broken[] {
  const seen = new Set<string>()
  return list.filter((b) => !seen.has(b.id) && seen.add(b.id))
}

/**
 * The wire against the claimed family's invariants; null when the claim names no family with
 * invariants or nothing of the wire was seen. Hellos only from the listener (a proxy's headers
 * show no GREASE and no order); the HTTP/2 preface from the listener or a trusted proxy.
 */
export function wireFamily(server: Pick<ServerObservation, 'userAgent' | 'evidence'>): WireFamily | null {
  const claim = parseUserAgent(server.userAgent)
  const family = invariantFamilyOf(claim)
  if (!family) return null
  const listener = { evidence: (server.evidence ?? []).filter((e) => e.source !== 'proxy') }
  const hellos = evidenceOf(listener, 'tls').map(asHello).filter((h): h is HelloShape => h !== null)
  const h2 = tlsEvidenceOf(server)?.http2 ?? null
  const akamais = [...new Set([...evidenceOf(listener, 'http2').flatMap((d) => (isRecord(d) && typeof d.akamai === 'string' ? [d.akamai] : [])), ...(h2 ? [h2.akamai] : [])])]
  if (!hellos.length && !akamais.length) return null
  const major = claim.version
  const order = orderBroken(family, hellos, major)
  return {
    family,
    major,
    hellos: hellos.length,
    hello: unique(hellos.flatMap((h) => helloBroken(family, h, major))),
    order: order.broken,
    orderJudged: order.judged,
    http2: unique(akamais.flatMap((a) => http2Broken(family, http2Shape(a), major))),
    http2Seen: akamais.length > 0,
  }
}

/** The invariants broken that no setting of a person's explains (not the `warn` ones). */
export const failing = (list: readonly Broken[]) => list.filter((b) => b.severity === 'fail')

/** Whether the wire is not the claimed family's stack: an invariant of the hellos, their order or the HTTP/2 preface broken. */
export const offFamily = (w: WireFamily) => failing([...w.hello, ...w.order, ...w.http2]).length > 0

/**
 * The wire of a proven browser that is not its family's: a middlebox re-encrypts the connection.
 * Null when the page did not prove it ran in a browser, or when the wire is the family's.
 */
export function interception(server: Pick<ServerObservation, 'userAgent' | 'evidence' | 'proof'>): WireFamily | null {
  if (server.proof !== 'valid') return null
  const w = wireFamily(server)
  return w && offFamily(w) ? w : null
}

/** The broken invariants as one phrase: "without a GREASE value first among the cipher suites; …". */
export function brokenText(list: readonly Broken[]): string {
  return list.map((b) => `without ${b.says}${b.detail ? ` (${b.detail})` : ''}`).join('; ')
}

/** What a wire check says when the connection is re-encrypted on its way: it judges the middlebox, not the browser. */
export function reencrypted(w: WireFamily, what: string): Outcome {
  return {
    verdict: 'na',
    observed: `the connection is decrypted and re-encrypted on its way: the page proved it ran in a browser, but the wire is not ${INVARIANT_FAMILY_NAME[w.family]} stack (${brokenText(failing([...w.hello, ...w.order, ...w.http2]))})`,
    expected: `${what} of the browser itself, which a TLS-inspecting middlebox (a proxy, security software, a gateway) replaces with its own; tls-interception says so instead`,
  }
}

/**
 * A wire check's outcome, unless it fires only because a middlebox re-encrypts a proven
 * browser's connection (the middlebox writes the headers, the HTTP version and the TCP SYN):
 * then `na`, saying so. A pass stays a pass.
 */
export function unlessReencrypted(server: Pick<ServerObservation, 'userAgent' | 'evidence' | 'proof'>, outcome: Outcome, what: string): Outcome {
  if (outcome.verdict !== 'fail' && outcome.verdict !== 'warn') return outcome
  const proxied = interception(server)
  return proxied ? reencrypted(proxied, what) : outcome
}

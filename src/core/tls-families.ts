// Which TLS/HTTP2 stack a fingerprint belongs to, for comparing it with the browser a client
// claims. Browsers share stacks: every Chromium browser (Chrome, Edge, Opera, Brave, Samsung…)
// uses BoringSSL and Chromium's HTTP/2 code; Firefox uses NSS; Safari (and every iOS browser)
// Apple's stack; HTTP libraries mostly OpenSSL (curl, Python, Node, Ruby) or Go's crypto/tls.
// Exact JA4 values move with browser versions, so the family is read from what stays put: the
// JA4 cipher hash (part b) where it is known, GREASE, and a few extensions only one stack sends.
//
// Sources: FoxIO's JA4+ database (https://ja4db.com) and its README examples; Akamai's HTTP/2
// fingerprint paper (Shuster, Black Hat EU 2017) and the values published by tls.peet.ws and
// browserleaks.com/http2; Chromium 156 and curl 7.88/OpenSSL 3.0 captured here
// (src/evidence/fixtures, whose tests pin the values marked "captured").

import type { ClaimedBrowser, Engine } from '../../common/user-agent'

export type TlsFamily = 'chromium' | 'firefox' | 'safari' | 'openssl' | 'go' | 'unknown'

/** The engine whose browsers ship each stack; libraries have none. */
export const FAMILY_ENGINE: Record<TlsFamily, Engine | null> = { chromium: 'blink', firefox: 'gecko', safari: 'webkit', openssl: null, go: null, unknown: null }

export const FAMILY_NAME: Record<TlsFamily, string> = {
  chromium: 'Chromium (BoringSSL)',
  firefox: 'Firefox (NSS)',
  safari: 'Safari (Apple TLS)',
  openssl: 'an OpenSSL client (curl, Python, Node, Ruby…)',
  go: 'Go crypto/tls',
  unknown: 'an unknown TLS stack',
}

/**
 * JA4 part b (SHA-256 of the sorted cipher list) per stack. A stack changes its cipher list
 * rarely, so this is the steadiest part of JA4; parts a (counts) and c (extensions) move more.
 */
export const JA4_CIPHER_HASHES: ReadonlyArray<{ hash: string; family: TlsFamily; note: string }> = [
  // 15 ciphers: TLS 1.3 three, ECDHE-GCM/ChaCha, ECDHE-CBC-SHA, RSA-GCM, RSA-CBC (captured: Chromium 156).
  { hash: '8daaf6152771', family: 'chromium', note: 'Chrome/Edge/Opera/Brave since ~2020 (t13d1516h2_8daaf6152771_…)' },
  // 17 ciphers, no GREASE (Firefox 100+: t13d1715h2_5b57614c22b0_…, t13d1717h2_… with ECH).
  { hash: '5b57614c22b0', family: 'firefox', note: 'Firefox desktop and Android' },
  // 20 ciphers including 3DES and CBC-SHA384 (Safari 15–18: t13d2014h2_a09f3c656075_…).
  { hash: 'a09f3c656075', family: 'safari', note: 'Safari macOS/iOS, and every iOS browser' },
  // OpenSSL 3.0 default list, 31 ciphers (captured: curl 7.88.1/OpenSSL 3.0).
  { hash: 'e8f1e7e78f70', family: 'openssl', note: 'curl, python, node on OpenSSL 3.0 defaults' },
]

/** Akamai HTTP/2 fingerprints (SETTINGS|WINDOW_UPDATE|PRIORITY|pseudo-headers) per stack. */
export const AKAMAI_FINGERPRINTS: ReadonlyArray<{ text: string; family: TlsFamily; note: string }> = [
  { text: '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p', family: 'chromium', note: 'Chrome 106+ (captured: Chromium 156)' },
  { text: '1:65536;3:1000;4:6291456;6:262144|15663105|0|m,a,s,p', family: 'chromium', note: 'Chrome before 106' },
  { text: '1:65536;2:0;4:131072;5:16384|12517377|0|m,p,a,s', family: 'firefox', note: 'Firefox 120+' },
  { text: '2:0;4:4194304;3:100|10485760|0|m,s,p,a', family: 'safari', note: 'Safari 17' },
  { text: '2:0;3:100;4:2097152;9:1|10420225|0|m,s,a,p', family: 'safari', note: 'Safari 18' },
  { text: '3:100;4:33554432;2:0|33488897|0|m,p,s,a', family: 'openssl', note: 'curl 7.88 (nghttp2), captured' },
  { text: '3:100;4:10485760;2:0|1048510465|0|m,p,s,a', family: 'openssl', note: 'curl 8 (nghttp2)' },
  { text: '2:0;4:4194304;6:10485760|1073741824|0|m,a,s,p', family: 'go', note: 'Go net/http2' },
]

/** Pseudo-header order per stack (§8.3.1 of RFC 9113 leaves it free; each stack has its own). */
export const PSEUDO_ORDER: ReadonlyArray<{ order: string; family: TlsFamily }> = [
  { order: 'm,a,s,p', family: 'chromium' },
  { order: 'm,p,a,s', family: 'firefox' },
  { order: 'm,s,p,a', family: 'safari' },
  { order: 'm,s,a,p', family: 'safari' },
  { order: 'm,p,s,a', family: 'openssl' },
]

/**
 * What the family is read from. The listener knows everything; a proxy's header (JA3, JA4)
 * never shows GREASE (`grease: null`) and may show no extension list (`extensions: null`, so
 * ALPS and record_size_limit are unknown too).
 */
export interface TlsShape {
  ja4: string | null
  /** JA4 part b when known without a JA4 (from a JA3 string's ciphers); else read from `ja4`. */
  cipher_hash?: string | null
  grease: boolean | null
  extensions: readonly number[] | null
  alps: number | null
  record_size_limit: number | null
}

const ALPS_EXTENSIONS = [17513, 17613]
const RECORD_SIZE_LIMIT = 28

export interface FamilyGuess {
  family: TlsFamily
  /** What decided it, for the check's observed value. */
  reasons: string[]
}

/**
 * The TLS stack of a ClientHello, from its JA4 cipher hash and the extensions only one stack
 * sends; null when the shape shows neither (a proxy that passed only a JA3 hash).
 */
export function tlsFamily(t: TlsShape & { ja4: string }): FamilyGuess
export function tlsFamily(t: TlsShape): FamilyGuess | null
export function tlsFamily(t: TlsShape): FamilyGuess | null {
  const cipherHash = t.cipher_hash ?? t.ja4?.split('_')[1] ?? null
  const exts = t.extensions
  if (!cipherHash && !exts) return null
  const reasons: string[] = []
  const known = JA4_CIPHER_HASHES.find((k) => k.hash === cipherHash)
  if (known) reasons.push(`JA4 cipher hash ${cipherHash} is ${FAMILY_NAME[known.family]}`)
  // Sent, not sent, or unknown (null: no extension list to look in).
  const alps = t.alps !== null ? true : exts ? exts.some((e) => ALPS_EXTENSIONS.includes(e)) : null
  const rsl = t.record_size_limit !== null ? true : exts ? exts.includes(RECORD_SIZE_LIMIT) : null
  // ALPS (17513/17613) is BoringSSL's; record_size_limit (28) and delegated_credentials (34)
  // are NSS's among browsers; GREASE is sent by BoringSSL and Apple, never by NSS/OpenSSL/Go.
  const tells: TlsFamily | null = alps ? 'chromium' : rsl && t.grease !== true ? 'firefox' : null
  if (alps) reasons.push('ALPS extension (BoringSSL only)')
  if (rsl) reasons.push('record_size_limit extension (NSS)')
  if (!exts) reasons.push('extension list not visible (ALPS, record_size_limit unknown)')
  reasons.push(t.grease === null ? 'GREASE not visible in a proxy header (JA3 and JA4 leave it out)' : t.grease ? 'GREASE values' : 'no GREASE')
  let family: TlsFamily = known?.family ?? tells ?? 'unknown'
  // A known cipher list with contradicting tells (a library copying Chrome's ciphers without
  // GREASE or ALPS) is not that browser. What cannot be seen does not contradict: from a
  // proxy's JA4 alone, such a library and the browser look the same.
  if (family === 'chromium' && (t.grease === false || alps === false)) family = 'unknown'
  if (family === 'safari' && t.grease === false) family = 'unknown'
  if (family === 'firefox' && t.grease === true) family = 'unknown'
  if (FAMILY_ENGINE[family] && (t.grease === null || alps === null)) reasons.push('tells that would expose a library copying this cipher list are not visible')
  return { family, reasons }
}

/** The HTTP/2 stack of an Akamai fingerprint: an exact known value, else by pseudo-header order. */
export function http2Family(akamai: string): FamilyGuess {
  const exact = AKAMAI_FINGERPRINTS.find((k) => k.text === akamai)
  if (exact) return { family: exact.family, reasons: [`known fingerprint of ${exact.note}`] }
  const order = akamai.split('|')[3] ?? ''
  const byOrder = PSEUDO_ORDER.find((p) => p.order === order)
  if (byOrder) return { family: byOrder.family, reasons: [`pseudo-header order ${order} is ${FAMILY_NAME[byOrder.family]}'s; SETTINGS not in the table`] }
  return { family: 'unknown', reasons: [`pseudo-header order ${order || '(none)'} matches no known stack`] }
}

/**
 * Compares a stack with the claimed engine: `match`, `mismatch` (another known stack — the
 * claim is false), or `unknown` (no table entry: neither confirms nor refutes).
 */
export function compareFamily(family: TlsFamily, claimedEngine: Engine): 'match' | 'mismatch' | 'unknown' {
  if (family === 'unknown' || claimedEngine === 'unknown') return 'unknown'
  return FAMILY_ENGINE[family] === claimedEngine ? 'match' : 'mismatch'
}

/**
 * The verdict for a stack seen against a claim: a browser claim needs its engine's stack (warn
 * when the stack is not in the tables); an HTTP library's claim is consistent with any
 * library stack and contradicted by a browser's.
 */
export function familyVerdict(family: TlsFamily, claim: Pick<ClaimedBrowser, 'family' | 'engine'>): 'pass' | 'warn' | 'fail' {
  if (claim.family === 'tool') return FAMILY_ENGINE[family] ? 'fail' : 'pass'
  const c = compareFamily(family, claim.engine)
  return c === 'match' ? 'pass' : c === 'mismatch' ? 'fail' : 'warn'
}

// Which TLS/HTTP2 stack a fingerprint belongs to, for comparing it with the browser a client
// claims. Browsers share stacks: every Chromium browser (Chrome, Edge, Opera, Brave, Samsung…)
// uses BoringSSL and Chromium's HTTP/2 code; Firefox uses NSS; Safari (and every iOS browser)
// Apple's stack; HTTP libraries mostly OpenSSL (curl, Python, Node, Ruby) or Go's crypto/tls.
// Exact JA4 values move with browser versions, so the family is read from what stays put: the
// JA4 cipher hash (part b) where it is known, GREASE, and a few extensions only one stack sends;
// where the listener saw the whole hello, a cipher list that names Chromium must also show
// BoringSSL's invariants (src/core/tls-invariants.ts), and a pseudo-header order that names a
// browser its SETTINGS.
//
// Sources: FoxIO's JA4+ database (https://ja4db.com) and its README examples; Akamai's HTTP/2
// fingerprint paper (Shuster, Black Hat EU 2017) and the values published by tls.peet.ws and
// browserleaks.com/http2; Chromium 156, WebKitGTK 2.50 and curl 7.88/OpenSSL 3.0 captured here
// (src/evidence/fixtures, whose tests pin the values marked "captured").

import type { ClaimedBrowser, Engine, Os } from '../../common/user-agent'
import { http2Broken, http2Shape } from './http2-invariants'
import { helloBroken } from './tls-invariants'

export type TlsFamily = 'chromium' | 'firefox' | 'safari' | 'gnutls' | 'libsoup' | 'openssl' | 'go' | 'unknown'

const offApple = (os: Os) => os !== 'mac' && os !== 'ios'

/**
 * Which claims each stack fits: the engine whose browsers ship it (and on which systems), and
 * whether HTTP libraries use it. GnuTLS and libsoup are WebKit's only off Apple systems (no
 * Safari runs there, and on macOS and iOS every WebKit browser uses Apple's stack), and
 * libraries use them too (wget, GNOME's own HTTP clients).
 */
const FITS: Record<TlsFamily, { engine: Engine | null; on?: (os: Os) => boolean; library: boolean }> = {
  chromium: { engine: 'blink', library: false },
  firefox: { engine: 'gecko', library: false },
  safari: { engine: 'webkit', library: false },
  gnutls: { engine: 'webkit', on: offApple, library: true },
  libsoup: { engine: 'webkit', on: offApple, library: true },
  openssl: { engine: null, library: true },
  go: { engine: null, library: true },
  unknown: { engine: null, library: false },
}

export const FAMILY_NAME: Record<TlsFamily, string> = {
  chromium: 'Chromium (BoringSSL)',
  firefox: 'Firefox (NSS)',
  safari: 'Safari (Apple TLS)',
  gnutls: 'GnuTLS (WebKitGTK and WPE through glib-networking; also wget)',
  libsoup: 'libsoup (WebKitGTK and WPE)',
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
  // GnuTLS 3.7's NORMAL priority, 29 ciphers with CCM (captured: WebKitGTK 2.50 on Debian 12).
  { hash: '723694b0fccc', family: 'gnutls', note: 'WebKitGTK/WPE and other GnuTLS clients on Debian 12' },
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
  { text: '4:33554432;1:65536;2:0|33488897|0|m,s,a,p', family: 'libsoup', note: 'libsoup 3 (WebKitGTK 2.50), captured' },
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
  /** The cipher suites offered, where known (the listener, a proxy's JA4_r or JA3 string). */
  ciphers?: readonly number[] | null
  grease: boolean | null
  extensions: readonly number[] | null
  alps: number | null
  record_size_limit: number | null
  /** Where the listener read the hello (GREASE kept): what BoringSSL's invariants are judged on (src/core/tls-invariants.ts). */
  groups?: readonly number[] | null
  versions?: readonly number[] | null
  key_shares?: readonly number[] | null
  signature_algorithms?: readonly number[] | null
}

const ALPS_EXTENSIONS = [17513, 17613]
const RECORD_SIZE_LIMIT = 28
/**
 * TLS_AES_128_CCM_SHA256: GnuTLS's default priority offers it; BoringSSL, NSS, Apple's stack,
 * Go and OpenSSL's defaults never do (https://gitlab.com/gnutls/gnutls/-/blob/master/lib/priority.c).
 */
const TLS13_AES_128_CCM = 0x1304

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
  const ccm = t.ciphers ? t.ciphers.includes(TLS13_AES_128_CCM) : null
  // ALPS (17513/17613) is BoringSSL's; TLS 1.3 AES-CCM is GnuTLS's; record_size_limit (28) and
  // delegated_credentials (34) are NSS's among the other browsers' stacks (GnuTLS sends
  // record_size_limit too); GREASE is sent by BoringSSL and Apple, never by NSS, GnuTLS,
  // OpenSSL or Go.
  const tells: TlsFamily | null = alps ? 'chromium' : ccm && t.grease !== true ? 'gnutls' : rsl && t.grease !== true ? 'firefox' : null
  if (alps) reasons.push('ALPS extension (BoringSSL only)')
  if (ccm) reasons.push('TLS_AES_128_CCM_SHA256 offered (GnuTLS)')
  if (rsl && !ccm) reasons.push('record_size_limit extension (NSS)')
  if (!exts) reasons.push('extension list not visible (ALPS, record_size_limit unknown)')
  reasons.push(t.grease === null ? 'GREASE not visible in a proxy header (JA3 and JA4 leave it out)' : t.grease ? 'GREASE values' : 'no GREASE')
  let family: TlsFamily = known?.family ?? tells ?? 'unknown'
  // A known cipher list with contradicting tells (a library copying Chrome's ciphers without
  // GREASE or ALPS) is not that browser. What cannot be seen does not contradict: from a
  // proxy's JA4 alone, such a library and the browser look the same.
  if (family === 'chromium' && (t.grease === false || alps === false)) family = 'unknown'
  // Where the listener saw the whole hello, BoringSSL's invariants decide (src/core/tls-invariants.ts):
  // GREASE in each place it puts one and Chromium's signature-algorithm shape. A library that
  // copies Chrome's cipher list but not these is not Chromium, whatever version it claims.
  if (family === 'chromium' && t.grease !== null && t.ciphers?.length && exts?.length) {
    const broken = helloBroken('chromium', { ...t, ciphers: t.ciphers, extensions: exts }, null).filter((b) => b.severity === 'fail' && b.id !== 'alps')
    if (broken.length) {
      family = 'unknown'
      reasons.push(`not BoringSSL's: lacks ${broken.map((b) => (b.detail ? `${b.says} (${b.detail})` : b.says)).join('; ')}`)
    }
  }
  if (family === 'safari' && t.grease === false) family = 'unknown'
  if ((family === 'firefox' || family === 'gnutls') && t.grease === true) family = 'unknown'
  if (FITS[family].engine && (t.grease === null || alps === null)) reasons.push('tells that would expose a library copying this cipher list are not visible')
  return { family, reasons }
}

/** The HTTP/2 stack of an Akamai fingerprint: an exact known value, else by pseudo-header order. */
export function http2Family(akamai: string): FamilyGuess {
  const exact = AKAMAI_FINGERPRINTS.find((k) => k.text === akamai)
  if (exact) return { family: exact.family, reasons: [`known fingerprint of ${exact.note}`] }
  const order = akamai.split('|')[3] ?? ''
  const byOrder = PSEUDO_ORDER.find((p) => p.order === order)
  // The pseudo-header order alone is easy to copy: SETTINGS ids, their order and the window that
  // contradict the family's invariants (src/core/tls-invariants.ts) make it another stack.
  const broken = byOrder && (byOrder.family === 'chromium' || byOrder.family === 'firefox' || byOrder.family === 'safari') ? http2Broken(byOrder.family, http2Shape(akamai), null) : []
  if (byOrder && broken.length) return { family: 'unknown', reasons: [`pseudo-header order ${order} is ${FAMILY_NAME[byOrder.family]}'s, but not ${broken.map((b) => b.says).join('; ')}`] }
  if (byOrder) return { family: byOrder.family, reasons: [`pseudo-header order ${order} is ${FAMILY_NAME[byOrder.family]}'s; SETTINGS not in the table`] }
  return { family: 'unknown', reasons: [`pseudo-header order ${order || '(none)'} matches no known stack`] }
}

/**
 * Compares a stack with the claimed engine and system: `match`, `mismatch` (another known
 * stack — the claim is false), or `unknown` (no table entry: neither confirms nor refutes).
 * An unknown system is no Apple one: GnuTLS fits a WebKit claim that names none.
 */
export function compareFamily(family: TlsFamily, claim: Pick<ClaimedBrowser, 'engine'> & { os?: Os }): 'match' | 'mismatch' | 'unknown' {
  if (family === 'unknown' || claim.engine === 'unknown') return 'unknown'
  const fits = FITS[family]
  return fits.engine === claim.engine && (!fits.on || fits.on(claim.os ?? 'unknown')) ? 'match' : 'mismatch'
}

/**
 * The verdict for a stack seen against a claim: a browser claim needs its engine's stack (warn
 * when the stack is not in the tables); an HTTP library's claim is consistent with any
 * library stack and contradicted by a browser's.
 */
export function familyVerdict(family: TlsFamily, claim: Pick<ClaimedBrowser, 'family' | 'engine'> & { os?: Os }): 'pass' | 'warn' | 'fail' {
  if (claim.family === 'tool') return FITS[family].library || family === 'unknown' ? 'pass' : 'fail'
  const c = compareFamily(family, claim)
  return c === 'match' ? 'pass' : c === 'mismatch' ? 'fail' : 'warn'
}

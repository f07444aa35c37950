// TLS client fingerprints over a parsed ClientHello.
//
// JA3 (https://github.com/salesforce/ja3): "SSLVersion,Ciphers,Extensions,EllipticCurves,
// EllipticCurvePointFormats", decimal values joined by "-", GREASE removed, MD5 of the text.
// Chrome has shuffled its extension order per connection since Chrome 110
// (https://chromestatus.com/feature/5124606246518784), so its JA3 changes on every visit;
// JA3N is the same text with the extensions sorted numerically, which is stable.
//
// JA4 (https://github.com/FoxIO-LLC/ja4/blob/main/technical_details/JA4.md):
//   a = transport, version, SNI d/i, cipher count, extension count, ALPN first+last character
//   b = sha256 of the sorted cipher list, first 12 hex characters
//   c = sha256 of the sorted extension list without SNI and ALPN, "_", the signature
//       algorithms in their order, first 12 hex characters
// with GREASE ignored everywhere. JA4_r shows the lists instead of the hashes; JA4_o and
// JA4_ro keep the original order (and so SNI and ALPN in the extension list).

import { hex4 } from './bytes'
import { md5Hex, sha256Hex } from './digests'
import { TLS_EXTENSION, isGrease, type ClientHello } from './tls-client-hello'

type Ja3Input = Pick<ClientHello, 'version' | 'cipherSuites' | 'extensions' | 'supportedGroups' | 'ecPointFormats'>
type Ja4Input = Pick<ClientHello, 'version' | 'cipherSuites' | 'extensions' | 'supportedVersions' | 'alpn' | 'signatureAlgorithms'>

export interface Ja3 {
  text: string
  hash: string
}

const noGrease = (values: readonly number[] | null): number[] => (values ?? []).filter((v) => !isGrease(v))

function ja3Text(h: Ja3Input, sortExtensions: boolean): string {
  const extensions = noGrease(h.extensions.map((e) => e.type))
  if (sortExtensions) extensions.sort((a, b) => a - b)
  return [
    String(h.version),
    noGrease(h.cipherSuites).join('-'),
    extensions.join('-'),
    noGrease(h.supportedGroups).join('-'),
    // Point formats are one byte and have no GREASE values.
    (h.ecPointFormats ?? []).join('-'),
  ].join(',')
}

export function ja3(hello: Ja3Input): Ja3 {
  const text = ja3Text(hello, false)
  return { text, hash: md5Hex(text) }
}

/** JA3 with the extension list sorted, so that Chrome's per-connection shuffle does not change it. */
export function ja3n(hello: Ja3Input): Ja3 {
  const text = ja3Text(hello, true)
  return { text, hash: md5Hex(text) }
}

export interface Ja4 {
  ja4: string
  ja4_r: string
  ja4_o: string
  ja4_ro: string
}

/** Where the hello travelled: TLS over TCP, QUIC, or DTLS. */
export type Ja4Transport = 't' | 'q' | 'd'

const VERSION_CODES: Record<number, string> = {
  772: '13',
  771: '12',
  770: '11',
  769: '10',
  768: 's3',
  2: 's2',
  65279: 'd1',
  65277: 'd2',
  65276: 'd3',
}

/** The highest non-GREASE supported_versions entry when the extension is there, else legacy_version. */
export function ja4Version(h: Pick<ClientHello, 'version' | 'supportedVersions'>): string {
  const offered = noGrease(h.supportedVersions)
  // DTLS versions count down (0xfefc is DTLS 1.3), so "highest" is by the code table's order.
  const version = offered.length > 0 ? offered.reduce((best, v) => (rank(v) > rank(best) ? v : best)) : h.version
  return VERSION_CODES[version] ?? '00'
}

function rank(v: number): number {
  return v >= 0xfe00 ? 0x10000 - v : v
}

const isAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)

/**
 * First and last character of the first ALPN value; "00" without one. Per the spec, a value
 * whose first or last byte is not alphanumeric is shown by the first and last characters of
 * its hex, and a one-character value gives that character twice. (FoxIO's Rust and Python
 * tools differ here: "9" per non-ASCII character and "x0" for a single "x". Browsers send
 * "h2" or "http/1.1", where all agree.)
 */
export function ja4Alpn(alpn: readonly string[] | null): string {
  const first = alpn?.[0]
  if (!first) return '00'
  const a = first.charCodeAt(0)
  const z = first.charCodeAt(first.length - 1)
  if (isAlnum(a) && isAlnum(z)) return first[0]! + first[first.length - 1]!
  let hex = ''
  for (let i = 0; i < first.length; i++) hex += (first.charCodeAt(i) & 0xff).toString(16).padStart(2, '0')
  return hex[0]! + hex[hex.length - 1]!
}

const count = (n: number) => String(Math.min(n, 99)).padStart(2, '0')
const hash12 = (text: string) => (text === '' ? '000000000000' : sha256Hex(text).slice(0, 12))

/** A JA4 hash: the first 12 hex characters of SHA-256 of a raw part, twelve zeros for an empty one. */
export function ja4Hash(raw: string): string {
  return hash12(raw)
}

/**
 * JA4 part b of a cipher list in any order (GREASE removed, sorted, 4-hex): what identifies a
 * stack when only a JA3 string or a JA4_r is at hand (src/evidence/proxy-fingerprints.ts).
 */
export function ja4CipherHash(ciphers: readonly number[]): string {
  return hash12(noGrease(ciphers).sort((x, y) => x - y).map(hex4).join(','))
}

export function ja4(hello: Ja4Input, transport: Ja4Transport = 't'): Ja4 {
  const ciphers = noGrease(hello.cipherSuites)
  const extensions = noGrease(hello.extensions.map((e) => e.type))
  const signatures = noGrease(hello.signatureAlgorithms).map(hex4).join(',')
  const sni = extensions.includes(TLS_EXTENSION.serverName) ? 'd' : 'i'
  const a = `${transport}${ja4Version(hello)}${sni}${count(ciphers.length)}${count(extensions.length)}${ja4Alpn(hello.alpn)}`

  const sortedCiphers = [...ciphers].sort((x, y) => x - y).map(hex4).join(',')
  const originalCiphers = ciphers.map(hex4).join(',')
  // The sorted form leaves out SNI and ALPN (already in part a), so that the same client has
  // the same part c whether it goes to a name or an IP and whatever protocols it offers.
  const sortedExtensions = extensions
    .filter((t) => t !== TLS_EXTENSION.serverName && t !== TLS_EXTENSION.alpn)
    .sort((x, y) => x - y)
    .map(hex4)
    .join(',')
  const originalExtensions = extensions.map(hex4).join(',')
  // "If there are no signature algorithms in the hello packet, then the string ends without
  // an underscore"; an empty extension list hashes to twelve zeros.
  const withSignatures = (exts: string) => (exts === '' ? '' : signatures === '' ? exts : `${exts}_${signatures}`)
  const rawC = withSignatures(sortedExtensions)
  const rawCo = withSignatures(originalExtensions)
  return {
    ja4: `${a}_${hash12(sortedCiphers)}_${hash12(rawC)}`,
    ja4_r: `${a}_${sortedCiphers}_${rawC}`,
    ja4_o: `${a}_${hash12(originalCiphers)}_${hash12(rawCo)}`,
    ja4_ro: `${a}_${originalCiphers}_${rawCo}`,
  }
}

export interface TlsFingerprints {
  ja3: Ja3
  ja3n: Ja3
  ja4: Ja4
}

/** Every TLS fingerprint of one hello. */
export function tlsFingerprints(hello: Ja3Input & Ja4Input, transport: Ja4Transport = 't'): TlsFingerprints {
  return { ja3: ja3(hello), ja3n: ja3n(hello), ja4: ja4(hello, transport) }
}

// What every ClientHello and HTTP/2 preface of a browser's network stack shows whatever its
// version (issue 56): the family's invariants, kept as data with where each one comes from.
// A row of src/core/tls-versions.ts says what one version sends; these say what none of the
// family's versions lacks, so a client claiming a version no row has (Chrome 149, 170) is
// judged too. A stack without its claimed family's invariants is another stack: a library, or a
// TLS-inspecting middlebox re-encrypting the browser's connection (src/checks/wire-family.ts
// tells them apart by the page's proof that it ran in a browser).
//
// What these cannot stop: a library that copies a browser's hello faithfully (wreq, utls and
// curl-impersonate on BoringSSL send GREASE where Chrome does, permute the extensions and copy
// the signature algorithms) holds every invariant; the page's proof of execution is what stops
// it. Values checked against the captures in src/evidence/fixtures (navigations.json: Chromium
// 156 and Firefox ESR 153 over every kind of connection a person makes).

import { isGreaseValue } from './tls-versions'

/** The stacks whose invariants are known: the claim's engine names one (src/checks/wire-family.ts). */
export type InvariantFamily = 'chromium' | 'firefox' | 'safari'

export const INVARIANT_FAMILY_NAME: Record<InvariantFamily, string> = { chromium: "Chromium's (BoringSSL)", firefox: "Firefox's (NSS)", safari: "Safari's (Apple's TLS)" }

/** The ClientHello as the TLS evidence listener keeps it (a TlsRecord fits), GREASE values included. */
export interface HelloShape {
  ciphers: readonly number[]
  extensions: readonly number[]
  groups?: readonly number[] | null
  versions?: readonly number[] | null
  key_shares?: readonly number[] | null
  signature_algorithms?: readonly number[] | null
  /** The protocols offered in ALPN, where known. */
  alpn?: readonly string[] | null
}


/**
 * One invariant: what it says, where it comes from, from which version of the family it holds
 * (`since`: claims of older versions are not judged by it), and the test. `holds` answers null
 * when the value is not there to judge (no signature_algorithms extension in an older record).
 * `warn`: a tell that a setting of a person's may change, judged as one feature off only.
 */
export interface Invariant<T> {
  id: string
  family: InvariantFamily
  says: string
  source: string
  since?: number
  warn?: boolean
  holds(x: T, major: number | null): boolean | null
}

const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`
const leadsWithGrease = (list: readonly number[] | null | undefined) => (list?.length ? isGreaseValue(list[0]!) : null)
const anyGrease = (list: readonly number[] | null | undefined) => (list ? list.some(isGreaseValue) : null)

/** Extensions a hello puts after every other one: pre_shared_key must be last (RFC 8446 §4.2.11), padding pads the rest. */
const TRAILING = new Set([21, 41])
/** ML-DSA signature algorithms (0x0904–0x0906), which Chromium puts first since about 150. */
const ML_DSA = new Set([0x0904, 0x0905, 0x0906])
/** RSA-PSS before PKCS#1 v1.5 for each hash in Chromium's list (net/socket/ssl_client_socket_impl.cc). */
const PSS_BEFORE_PKCS1: ReadonlyArray<[number, number]> = [
  [0x0804, 0x0401],
  [0x0805, 0x0501],
  [0x0806, 0x0601],
]
const SHA1 = new Set([0x0201, 0x0202, 0x0203])
const ED = new Set([0x0807, 0x0808])
const DSA = new Set([0x0202, 0x0402, 0x0502, 0x0602])

/**
 * How a signature-algorithm list departs from Chromium's shape: ecdsa_secp256r1_sha256 first
 * after GREASE and ML-DSA, RSA-PSS before PKCS#1 per hash, no SHA-1 (before Chrome 123 one
 * trailing rsa_pkcs1_sha1, which Chrome sent until 117 and an enterprise policy kept until
 * 123), no EdDSA, no DSA. Empty when it fits.
 */
export function chromiumSignatureShape(list: readonly number[], major: number | null): string[] {
  const algs = list.filter((a) => !isGreaseValue(a) && !ML_DSA.has(a))
  const trailingSha1 = (major === null || major < 123) && algs.at(-1) === 0x0201
  const body = trailingSha1 ? algs.slice(0, -1) : algs
  const out: string[] = []
  if (body[0] !== 0x0403) out.push(`${body[0] === undefined ? 'none' : hex(body[0])} first instead of ecdsa_secp256r1_sha256 (0x0403)`)
  for (const [pss, pkcs1] of PSS_BEFORE_PKCS1) if (body.includes(pss) && body.includes(pkcs1) && body.indexOf(pss) > body.indexOf(pkcs1)) out.push(`${hex(pkcs1)} before ${hex(pss)} (Chromium puts RSA-PSS first)`)
  const sha1 = body.filter((a) => SHA1.has(a))
  if (sha1.length) out.push(`SHA-1 (${sha1.map(hex).join(', ')})`)
  const ed = body.filter((a) => ED.has(a))
  if (ed.length) out.push(`EdDSA (${ed.map(hex).join(', ')})`)
  const dsa = body.filter((a) => DSA.has(a) && !SHA1.has(a))
  if (dsa.length) out.push(`DSA (${dsa.map(hex).join(', ')})`)
  return out
}

const BORINGSSL = 'BoringSSL ssl/handshake_client.cc (ssl_write_client_cipher_list) and ssl/extensions.cc (ssl_add_clienthello_tlsext, ext_grease1/ext_grease2), RFC 8701'

export const HELLO_INVARIANTS: ReadonlyArray<Invariant<HelloShape>> = [
  // BoringSSL / Chromium
  {
    id: 'grease-cipher',
    family: 'chromium',
    says: 'a GREASE value first among the cipher suites',
    source: `${BORINGSSL}; enabled in Chrome 55 (captured: Chromium 156)`,
    since: 60,
    holds: (h) => leadsWithGrease(h.ciphers),
  },
  {
    id: 'grease-extensions',
    family: 'chromium',
    says: 'a GREASE extension first and another last (before padding and pre_shared_key)',
    source: `${BORINGSSL}: the empty GREASE extension is written before the others, the non-empty one after them (captured: Chromium 156, every hello of navigations.json)`,
    since: 60,
    holds: (h) => {
      const rest = h.extensions.filter((e) => !TRAILING.has(e))
      return rest.length >= 2 && isGreaseValue(rest[0]!) && isGreaseValue(rest.at(-1)!)
    },
  },
  {
    id: 'grease-groups',
    family: 'chromium',
    says: 'a GREASE value first in supported_groups',
    source: `${BORINGSSL} (ext_supported_groups_add_clienthello); captured: Chromium 156`,
    since: 70,
    holds: (h) => leadsWithGrease(h.groups),
  },
  {
    id: 'grease-versions',
    family: 'chromium',
    says: 'a GREASE value first in supported_versions',
    source: `${BORINGSSL} (ext_supported_versions_add_clienthello); captured: Chromium 156`,
    since: 70,
    holds: (h) => leadsWithGrease(h.versions),
  },
  {
    id: 'grease-key-share',
    family: 'chromium',
    says: 'a GREASE key share first',
    source: `${BORINGSSL} (ext_key_share_add_clienthello); captured: Chromium 156`,
    since: 70,
    holds: (h) => leadsWithGrease(h.key_shares),
  },
  {
    id: 'alps',
    family: 'chromium',
    says: 'application_settings (ALPS, 0x4469 or 0x44cd)',
    source: 'BoringSSL ssl/extensions.cc (ext_alps_add_clienthello); Chromium sends it for h2 since about 91, the new codepoint 0x44cd since about 130 (captured: Chromium 156, h2 and HTTP/1.1-only connections alike)',
    since: 100,
    // ALPS carries HTTP/2 settings: a connection that does not offer h2 (a flag that turns HTTP/2 off) has none to send.
    holds: (h) => (h.alpn && !h.alpn.includes('h2') ? null : h.extensions.includes(0x4469) || h.extensions.includes(0x44cd)),
  },
  {
    id: 'signature-shape',
    family: 'chromium',
    says: "signature algorithms of Chromium's shape (ecdsa_secp256r1_sha256 first after GREASE and ML-DSA, RSA-PSS before PKCS#1 per hash, no SHA-1, no EdDSA, no DSA)",
    source: "Chromium net/socket/ssl_client_socket_impl.cc (its verify preferences); SHA-1 removed in Chrome 117, the InsecureHashesInTLSHandshakesEnabled policy that kept it gone in 123 (blink-dev 'Intent to Ship: Deprecate TLS SHA-1 server signatures'); captured: Chromium 156",
    holds: (h, major) => (h.signature_algorithms?.length ? chromiumSignatureShape(h.signature_algorithms, major).length === 0 : null),
  },
  // NSS / Firefox
  {
    id: 'no-grease',
    family: 'firefox',
    says: 'no GREASE value anywhere (cipher suites, extensions, groups, versions, signature algorithms)',
    source: 'NSS lib/ssl (ssl3con.c, tls13exthandle.c) has no GREASE for TLS over TCP; FoxIO JA4 database (Firefox: t13d1715h2_5b57614c22b0_…, no GREASE); captured: Firefox ESR 153',
    holds: (h) => ![h.ciphers, h.extensions, h.groups, h.versions, h.signature_algorithms].some((l) => anyGrease(l)),
  },
  {
    id: 'record-size-limit',
    family: 'firefox',
    says: 'record_size_limit (28)',
    source: 'NSS lib/ssl/ssl3ext.c (the client handler table: ssl_record_size_limit_xtn, ssl_SendRecordSizeLimitXtn), sent since about Firefox 65; captured: Firefox ESR 153',
    since: 70,
    holds: (h) => h.extensions.includes(28),
  },
  {
    id: 'delegated-credentials',
    family: 'firefox',
    says: 'delegated_credentials (34)',
    source: 'NSS lib/ssl/ssl3ext.c and tls13subcerts.c (ssl_delegated_credentials_xtn, tls13_ClientSendDelegatedCredentialsXtn), on by default in current Firefox behind a preference (security.tls.enable_delegated_credentials), so its absence only warns; captured: Firefox ESR 153',
    since: 90,
    warn: true,
    holds: (h) => h.extensions.includes(34),
  },
  {
    id: 'signature-sha1-last',
    family: 'firefox',
    says: 'signature algorithms ending with the SHA-1 pair ecdsa_sha1, rsa_pkcs1_sha1 (0x0203, 0x0201)',
    source: 'NSS lib/ssl/sslimpl.h / ssl3con.c (the default signature scheme list ends with the two SHA-1 schemes); captured: Firefox ESR 153',
    holds: (h) => {
      const algs = h.signature_algorithms
      return algs?.length ? algs.at(-2) === 0x0203 && algs.at(-1) === 0x0201 : null
    },
  },
  // Apple's stack (Safari, every iOS browser): not captured here.
  {
    id: 'grease-cipher',
    family: 'safari',
    says: 'a GREASE value first among the cipher suites',
    source: "FoxIO JA4 database and README (Safari: t13d2014h2_a09f3c656075_…); Apple's Network.framework sends GREASE as BoringSSL does (tls.peet.ws captures of Safari 16–18)",
    since: 14,
    holds: (h) => leadsWithGrease(h.ciphers),
  },
  {
    id: 'grease-extensions',
    family: 'safari',
    says: 'GREASE among the extensions',
    source: 'tls.peet.ws captures of Safari 16–18 (a GREASE extension first and last)',
    since: 14,
    holds: (h) => anyGrease(h.extensions),
  },
]

/** The order of the extensions two hellos both carry, GREASE and the trailing ones aside. */
function sharedOrder(a: readonly number[], b: readonly number[]): [number[], number[]] {
  const keep = (x: readonly number[], other: readonly number[]) => x.filter((e) => !isGreaseValue(e) && !TRAILING.has(e) && other.includes(e))
  return [keep(a, b), keep(b, a)]
}

/** Every pair of hellos: whether the two carry their common extensions in the same order. */
function samePairs(hellos: ReadonlyArray<Pick<HelloShape, 'extensions'>>): boolean[] {
  const out: boolean[] = []
  for (let i = 0; i < hellos.length; i++) {
    for (let j = i + 1; j < hellos.length; j++) {
      const [a, b] = sharedOrder(hellos[i]!.extensions, hellos[j]!.extensions)
      if (a.length >= 8) out.push(a.join() === b.join())
    }
  }
  return out
}

/**
 * Invariants across the hellos of one page load (the page's connection and its side connection
 * to /evidence/<nonce>, and any other the browser opened): null when there are fewer than two.
 */
export const ORDER_INVARIANTS: ReadonlyArray<Invariant<ReadonlyArray<Pick<HelloShape, 'extensions'>>>> = [
  {
    id: 'extension-permutation',
    family: 'chromium',
    says: 'the extension order permuted between connections',
    source: "BoringSSL ssl/extensions.cc (ssl_setup_extension_permutation, a shuffle per handshake); on by default since Chrome 110 (chromestatus 5124606246518784; Fastly, 'A first look at Chrome's TLS ClientHello permutation in the wild'); captured: Chromium 156, each page load's two hellos in a different order",
    since: 110,
    holds: (hellos) => {
      const pairs = samePairs(hellos)
      return pairs.length ? !pairs.some(Boolean) : null
    },
  },
  {
    id: 'fixed-extension-order',
    family: 'firefox',
    says: 'the same extension order on every connection',
    source: 'NSS lib/ssl/ssl3ext.c (the client extension handlers in a fixed table); captured: Firefox ESR 153, every page load. NSS has an option to permute (SSL_ENABLE_CH_EXTENSION_PERMUTATION) that Firefox turns on for QUIC (mozilla/neqo#2217), so a difference only warns',
    warn: true,
    holds: (hellos) => {
      const pairs = samePairs(hellos)
      return pairs.length ? pairs.every(Boolean) : null
    },
  },
]

/** An invariant the wire did not show. */
export interface Broken {
  id: string
  says: string
  /** `warn`: a tell a person's setting may change (judged as one feature off). */
  severity: 'fail' | 'warn'
  /** What was seen instead, where it says more than the invariant. */
  detail?: string
}

export function judgeAll<T>(list: ReadonlyArray<Invariant<T>>, family: InvariantFamily, x: T, major: number | null): { broken: Broken[]; judged: number } {
  const broken: Broken[] = []
  let judged = 0
  for (const inv of list) {
    if (inv.family !== family || (inv.since !== undefined && major !== null && major < inv.since)) continue
    const holds = inv.holds(x, major)
    if (holds === null) continue
    judged++
    if (!holds) broken.push({ id: inv.id, says: inv.says, severity: inv.warn ? 'warn' : 'fail' })
  }
  return { broken, judged }
}

/** The family's hello invariants this hello breaks (`major`: the claimed version; null judges every one). */
export function helloBroken(family: InvariantFamily, hello: HelloShape, major: number | null): Broken[] {
  const { broken } = judgeAll(HELLO_INVARIANTS, family, hello, major)
  const shape = broken.find((b) => b.id === 'signature-shape')
  if (shape && hello.signature_algorithms) shape.detail = chromiumSignatureShape(hello.signature_algorithms, major).join('; ')
  return broken
}

/** The family's invariants across the page load's hellos; `judged` false with fewer than two comparable hellos. */
export function orderBroken(family: InvariantFamily, hellos: ReadonlyArray<Pick<HelloShape, 'extensions'>>, major: number | null): { broken: Broken[]; judged: boolean } {
  const { broken, judged } = judgeAll(ORDER_INVARIANTS, family, hellos, major)
  return { broken, judged: judged > 0 }
}

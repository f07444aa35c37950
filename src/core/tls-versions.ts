// What a browser version's own TLS stack puts in every ClientHello (issue 46), kept as data with
// where each entry came from. Impersonating HTTP clients (wreq, curl-impersonate, tls-client)
// copy a browser version's hello, but lag behind: wreq's newest Chrome profile was 149 when
// people ran Chromium 156, which offers an extension (0xca34) and ML-DSA signature algorithms
// (0x0904–0x0906) 149 did not. A client that claims 156 and sends 149's hello is not Chrome 156.
//
// Only what no setting of a person's can change is kept: the signature algorithms (in order) and
// the extensions present in every hello of the version, captured over every case a person
// produces (first page, the navigation restarted for Critical-CH, a typed page on a warm
// connection, a reload, a resumed session with a PSK, the side connection of a plain-HTTP page,
// HTTP/1.1 where h2 is not offered). Left out: what depends on the connection (SNI, PSK, early
// data, padding) and what an enterprise policy or a preference switches (ECH's GREASE 0xfe0d, the
// post-quantum key share). A version not in this table is judged by its family's invariants
// alone (src/core/tls-invariants.ts, which hold for every version; src/checks/tls-version.ts).
// Re-capture with tests/matrix/capture-navigations.ts when a browser changes, and add its row.

export type TlsStackFamily = 'chromium' | 'firefox'

export interface TlsVersionTraits {
  family: TlsStackFamily
  /** The major version, as the User-Agent gives it (Chrome/156, Firefox/153). */
  major: number
  /** Extension types every hello of this version carries (GREASE aside). */
  extensions: readonly number[]
  /** signature_algorithms in the order sent, GREASE aside. */
  signatureAlgorithms: readonly number[]
  /** Whether a GREASE value leads the signature algorithms (Chromium since about 150). */
  greaseSignatureAlgorithm: boolean
  /** Where the row came from. */
  source: string
}

export const TLS_VERSION_TRAITS: readonly TlsVersionTraits[] = [
  {
    family: 'chromium',
    major: 156,
    extensions: [5, 10, 11, 13, 16, 18, 23, 27, 35, 43, 45, 51, 17613, 51764, 65281],
    signatureAlgorithms: [0x0904, 0x0905, 0x0906, 0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601],
    greaseSignatureAlgorithm: true,
    source: 'Chromium 156.0.8078.108 (Debian 12), every hello of 10 page loads in src/evidence/fixtures/navigations.json (2026-11-28)',
  },
  {
    family: 'firefox',
    major: 153,
    extensions: [10, 11, 13, 16, 23, 28, 43, 45, 51, 65281],
    signatureAlgorithms: [0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601, 0x0203, 0x0201],
    greaseSignatureAlgorithm: false,
    source: 'Firefox ESR 153.8.0 (Debian 12), every hello of 7 page loads in src/evidence/fixtures/navigations.json (2026-11-28)',
  },
]

/** GREASE values (RFC 8701): 0x?a?a with both bytes equal. */
export const isGreaseValue = (v: number) => (v & 0x0f0f) === 0x0a0a && v >> 8 === (v & 0xff)

/** The TLS stack a User-Agent's browser has, and its major version: Chromium's for every Blink browser (its Chrome/N token), Firefox's. */
export function claimedTlsStack(userAgent: string): { family: TlsStackFamily; major: number } | null {
  if (/Firefox\/(\d+)/.test(userAgent) && !/Seamonkey/i.test(userAgent)) return { family: 'firefox', major: Number(/Firefox\/(\d+)/.exec(userAgent)![1]) }
  const chrome = /(?:Chrome|Chromium|CriOS)\/(\d+)/.exec(userAgent)
  if (chrome && !/CriOS/.test(userAgent)) return { family: 'chromium', major: Number(chrome[1]) }
  return null
}

export function traitsFor(family: TlsStackFamily, major: number): TlsVersionTraits | undefined {
  return TLS_VERSION_TRAITS.find((t) => t.family === family && t.major === major)
}

/**
 * How a hello differs from its version's traits, one entry a feature: each missing extension,
 * other signature algorithms, no GREASE among them. Chrome switches single features by field
 * trial (trust_anchors, 0xca34, arrived behind one in 141), so one difference alone may be a
 * person's browser in a trial group; several at once are an older stack (src/checks/tls-version.ts).
 */
export function tlsVersionDifferences(t: TlsVersionTraits, hello: { extensions: readonly number[]; signature_algorithms: readonly number[] }): string[] {
  const extensions = new Set(hello.extensions.filter((e) => !isGreaseValue(e)))
  const missing = t.extensions.filter((e) => !extensions.has(e))
  const sigalgs = hello.signature_algorithms.filter((s) => !isGreaseValue(s))
  const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`
  const out: string[] = []
  for (const e of missing) out.push(`lacks extension ${hex(e)}`)
  if (sigalgs.join() !== t.signatureAlgorithms.join()) out.push(`signature algorithms ${sigalgs.map(hex).join(', ') || 'none'} instead of ${t.signatureAlgorithms.map(hex).join(', ')}`)
  if (t.greaseSignatureAlgorithm && !hello.signature_algorithms.some(isGreaseValue)) out.push('no GREASE among the signature algorithms')
  return out
}

// tls-fingerprint's picture: the TLS ClientHello's JA4 split into its three parts (FoxIO JA4:
// a = protocol, version, SNI, cipher and extension counts, ALPN; b = a hash of the sorted
// cipher suites; c = a hash of the sorted extensions and signature algorithms), each with what
// it means in words, GREASE present or not, and the ALPN offered. Numbers and sentences only;
// src/pages/pictures/glance.tsx draws it. Pure.

export interface Ja4Field {
  /** The characters of part a this field is: "t", "13", "d", "15", "16", "h2". */
  text: string
  means: string
}

export interface TlsHello {
  ja4: string
  parts: Array<{ part: 'a' | 'b' | 'c'; text: string; means: string }>
  /** Part a, field by field; empty when part a is not JA4's shape. */
  fields: Ja4Field[]
  /** true / false; null when not visible (a proxy's fingerprint headers never show GREASE). */
  grease: boolean | null
  alpn: string[] | null
  says: string
}

const PROTOCOLS: Record<string, string> = { t: 'TCP', q: 'QUIC', d: 'DTLS' }
const VERSIONS: Record<string, string> = { '13': 'TLS 1.3', '12': 'TLS 1.2', '11': 'TLS 1.1', '10': 'TLS 1.0', s3: 'SSL 3.0', s2: 'SSL 2.0', '00': 'an unknown version' }

/** Part a's fields ("t13d1516h2"), or [] when it is not JA4's shape. */
export function ja4Fields(a: string): Ja4Field[] {
  const m = /^([tqd])(\d\d|s[23])([di])(\d\d)(\d\d)(..)$/.exec(a)
  if (!m) return []
  const [, proto, version, sni, ciphers, extensions, alpn] = m as unknown as [string, string, string, string, string, string, string]
  return [
    { text: proto, means: `over ${PROTOCOLS[proto]}` },
    { text: version, means: `highest version offered: ${VERSIONS[version] ?? version}` },
    { text: sni, means: sni === 'd' ? 'a host name was sent (SNI)' : 'no host name sent (an IP address)' },
    { text: ciphers, means: `${Number(ciphers)} cipher suites` },
    { text: extensions, means: `${Number(extensions)} extensions` },
    { text: alpn, means: alpn === '00' ? 'no application protocol (ALPN) offered' : `first application protocol: ${alpn === 'h2' ? 'HTTP/2' : alpn === 'h1' ? 'HTTP/1.1' : alpn}` },
  ]
}

export function tlsHello(ja4: string, grease: boolean | null, alpn: readonly string[] | null): TlsHello | null {
  const [a, b, c] = ja4.split('_')
  if (!a || !b || !c) return null
  const fields = ja4Fields(a)
  const parts = [
    { part: 'a' as const, text: a, means: fields.length ? 'protocol, version, host name, counts, ALPN' : 'the hello’s outline' },
    { part: 'b' as const, text: b, means: 'hash of the cipher suites (sorted)' },
    { part: 'c' as const, text: c, means: 'hash of the extensions and signature algorithms' },
  ]
  const greaseText = grease === null ? 'GREASE not visible' : grease ? 'GREASE values present (random placeholders a browser adds so servers tolerate new values)' : 'No GREASE values'
  const alpnText = alpn?.length ? `ALPN offered: ${alpn.join(', ')}` : 'No ALPN list seen'
  const says = `JA4 ${ja4}. Part a, ${a}: ${fields.length ? fields.map((f) => f.means).join(', ') : 'not in the usual form'}. Part b, ${b}: ${parts[1]!.means}. Part c, ${c}: ${parts[2]!.means}. ${greaseText}. ${alpnText}.`
  return { ja4, parts, fields, grease, alpn: alpn ? [...alpn] : null, says }
}

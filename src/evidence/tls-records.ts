// What the TLS evidence listener files under a page nonce (db evidence kinds 'tls', 'http2',
// 'http1'), built from the parsed wire formats, and the few bytes it answers with. Pure: the
// listener (src/listeners/tls.ts) only moves bytes between the socket and these functions.

import type { SynRecord } from './tcp-syn'
import { redactHeaderValue, redactUrl } from '../core/redact'
import { ByteWriter, concatBytes } from './bytes'
import { akamaiFingerprint, H2_FRAME, type H2ClientStart } from './http2'
import type { Http1RequestHead } from './http1'
import { tlsFingerprints, ja4Version } from './ja'
import { isGrease, TLS_EXTENSION, type ClientHello } from './tls-client-hello'

/** Evidence kind 'tls': the ClientHello as sent (GREASE kept) and its fingerprints. */
export interface TlsRecord {
  /** JA4 version code of the highest version offered: '13' for TLS 1.3. */
  version: string
  /** legacy_version of the hello (771 = 0x0303). */
  legacyVersion: number
  ja3: string
  ja3_hash: string
  ja3n: string
  ja3n_hash: string
  ja4: string
  ja4_r: string
  ja4_o: string
  /** Cipher suites, extension types and groups in the order sent, GREASE included. */
  ciphers: number[]
  extensions: number[]
  groups: number[]
  point_formats: number[]
  signature_algorithms: number[]
  versions: number[]
  key_shares: number[]
  alpn: string[]
  /** SNI host name; null when the client connected to an address (browsers send none for IPs). */
  sni: string | null
  /** Whether GREASE values were sent (Chromium and Safari do; NSS, OpenSSL and Go do not). */
  grease: boolean
  compress_certificate: number[]
  /** ALPS codepoint (17513 or 17613), Chromium only. */
  alps: number | null
  record_size_limit: number | null
  malformed_extensions: number[]
  /**
   * What the handshake settled on, and the ALPN protocols the listener offered (`offered`,
   * absent on records from before it was kept, when the listener always offered h2 and http/1.1).
   */
  negotiated: { protocol: string | null; alpn: string | null; cipher: string | null; offered?: string[] }
  /**
   * The connection's SYN as the client's kernel sent it (tcp-syn.ts, issue 49), with `proxy`
   * true when the socket's peer was a trusted proxy (then the SYN is the proxy's, not the
   * client's). Null when the kernel kept none (another platform, the listener could not ask);
   * absent on records from before it was kept.
   */
  syn?: (SynRecord & { proxy: boolean }) | null
}

export function tlsRecord(hello: ClientHello, negotiated: TlsRecord['negotiated'], syn: TlsRecord['syn'] = null): TlsRecord {
  const fp = tlsFingerprints(hello)
  const extensions = hello.extensions.map((e) => e.type)
  return {
    version: ja4Version(hello),
    legacyVersion: hello.version,
    ja3: fp.ja3.text,
    ja3_hash: fp.ja3.hash,
    ja3n: fp.ja3n.text,
    ja3n_hash: fp.ja3n.hash,
    ja4: fp.ja4.ja4,
    ja4_r: fp.ja4.ja4_r,
    ja4_o: fp.ja4.ja4_o,
    ciphers: hello.cipherSuites,
    extensions,
    groups: hello.supportedGroups ?? [],
    point_formats: hello.ecPointFormats ?? [],
    signature_algorithms: hello.signatureAlgorithms ?? [],
    versions: hello.supportedVersions ?? [],
    key_shares: (hello.keyShares ?? []).map((k) => k.group),
    alpn: hello.alpn ?? [],
    sni: hello.serverName,
    grease: hello.cipherSuites.some(isGrease) || extensions.some(isGrease),
    compress_certificate: hello.compressCertificate ?? [],
    alps: hello.applicationSettings?.type ?? (extensions.includes(TLS_EXTENSION.applicationSettings) ? TLS_EXTENSION.applicationSettings : null),
    record_size_limit: hello.recordSizeLimit,
    malformed_extensions: hello.malformedExtensions,
    negotiated,
    syn,
  }
}

/** Evidence kind 'http2': the Akamai fingerprint and its parts. */
export interface Http2Record {
  akamai: string
  akamai_hash: string
  settings: Array<[number, number]>
  window_update: number | null
  priority: Array<{ stream: number; exclusive: boolean; dependsOn: number; weight: number }>
  /** The priority in the first HEADERS frame (Chrome: exclusive, weight 256). */
  headers_priority: { exclusive: boolean; dependsOn: number; weight: number } | null
  pseudo_header_order: string[]
  /** Regular header names of the first request in the order sent. */
  header_order: string[]
  path: string | null
  user_agent: string | null
  /** Round trips of this connection (the listener adds them; absent in older records). */
  rtt?: RttRecord
}

const redactPath = (p: string | null) => (p === null ? null : redactUrl(p))

export function http2Record(start: H2ClientStart): Http2Record {
  const ak = akamaiFingerprint(start)
  const field = (name: string) => start.headers.fields.find((f) => f.name === name)?.value ?? null
  return {
    akamai: ak.text,
    akamai_hash: ak.hash,
    settings: start.settings.map((s) => [s.id, s.value]),
    window_update: start.windowUpdate,
    priority: start.priorities.map((p) => ({ stream: p.streamId, exclusive: p.exclusive, dependsOn: p.dependsOn, weight: p.weight })),
    headers_priority: start.headers.priority,
    pseudo_header_order: start.headers.pseudoHeaderOrder,
    header_order: start.headers.fields.filter((f) => !f.name.startsWith(':')).map((f) => f.name),
    path: redactPath(field(':path')),
    user_agent: field('user-agent'),
  }
}

/** Evidence kind 'http1': the request head with names in wire order and case. */
export interface Http1Record {
  version: string
  method: string
  path: string
  headers: Array<[string, string]>
  bare_line_feeds: boolean
  /** The connection's TCP round trip (no PING over HTTP/1). */
  rtt?: RttRecord
}

/** Credential-bearing values (Cookie, Authorization, key-shaped values, an apikey in the path) are redacted before they are stored (src/core/redact.ts). */
export function http1Record(head: Http1RequestHead): Http1Record {
  return {
    version: head.version,
    method: head.method,
    path: redactUrl(head.target),
    headers: head.headers.map((h) => [h.name, redactHeaderValue(h.name, h.value)]),
    bare_line_feeds: head.bareLineFeeds,
  }
}

/**
 * The `rtt` member of the 'http2' and 'http1' records: two round trips of the same connection.
 * `tcp_rtt_ms` is the kernel's RTT of the TCP handshake, taken at accept (Linux TCP_INFO,
 * src/listeners/tcp-info.ts): the round trip to whatever terminated the client's TCP
 * connection. `h2_ping_rtt_ms` is the fastest of the HTTP/2 PINGs the listener sent after the
 * request's headers, each answered by the client's own HTTP/2 stack: the round trip to the
 * browser, through every relay. A SOCKS or HTTP CONNECT proxy (and Tor) puts the first at the
 * proxy and the second at the browser; a layer-3 VPN tunnels packets, so the client's TCP
 * reaches the service and the two agree.
 */
export interface RttRecord {
  /** Milliseconds (µs precision); null where TCP_INFO cannot be read (not Linux). */
  tcp_rtt_ms: number | null
  /** The minimum of `ping_samples`; null without HTTP/2 or when no PING was answered in time. */
  h2_ping_rtt_ms: number | null
  /** Each answered PING's round trip in ms, in the order sent. */
  ping_samples: number[]
  transport: 'h2' | 'http/1.1'
}

const ms3 = (ms: number) => Math.round(ms * 1000) / 1000

export function rttRecord(tcpRttMicros: number | null, pingSamplesMs: readonly number[], transport: RttRecord['transport']): RttRecord {
  const samples = pingSamplesMs.filter((n) => Number.isFinite(n) && n >= 0).map(ms3)
  return {
    tcp_rtt_ms: tcpRttMicros === null ? null : ms3(tcpRttMicros / 1000),
    h2_ping_rtt_ms: samples.length ? Math.min(...samples) : null,
    ping_samples: samples,
    transport,
  }
}

/** `/evidence/<nonce>` → the nonce (query string ignored); null for any other path. */
export function evidenceNonce(path: string | null): string | null {
  const m = /^\/evidence\/([a-z2-7]{26})(?:[?#]|$)/.exec(path ?? '')
  return m ? m[1]! : null
}

const enc = new TextEncoder()

/** An HTTP/1.1 response that closes the connection. */
export function http1Response(status: number, reason: string, headers: Array<[string, string]>, body: string): Uint8Array {
  const b = enc.encode(body)
  const lines = [`HTTP/1.1 ${status} ${reason}`, ...headers.map(([k, v]) => `${k}: ${v}`), `content-length: ${b.length}`, 'connection: close', '', '']
  return concatBytes([enc.encode(lines.join('\r\n')), b])
}

// HTTP/2 server side (RFC 9113), just enough for one response: our SETTINGS (the listener's
// limits), the ACK of the client's, HEADERS and DATA on the request's stream, GOAWAY.

function frame(type: number, flags: number, streamId: number, payload: Uint8Array): Uint8Array {
  const w = new ByteWriter()
  w.u8((payload.length >>> 16) & 0xff).u16(payload.length & 0xffff).u8(type).u8(flags).u32(streamId & 0x7fffffff)
  return concatBytes([w.finish(), payload])
}

/** HPACK integer with an N-bit prefix (RFC 7541 §5.1); `first` holds the pattern bits. */
function hpackInt(w: ByteWriter, first: number, prefixBits: number, value: number): void {
  const max = (1 << prefixBits) - 1
  if (value < max) {
    w.u8(first | value)
    return
  }
  w.u8(first | max)
  value -= max
  while (value >= 128) {
    w.u8((value % 128) + 128)
    value = Math.floor(value / 128)
  }
  w.u8(value)
}

/** A header block of `:status` and literal fields without indexing, new names (§6.2.2), no Huffman. */
export function hpackEncode(status: number, headers: Array<[string, string]>): Uint8Array {
  const w = new ByteWriter()
  const literal = (name: string, value: string) => {
    w.u8(0x00)
    const n = enc.encode(name)
    hpackInt(w, 0x00, 7, n.length)
    w.bytes(n)
    const v = enc.encode(value)
    hpackInt(w, 0x00, 7, v.length)
    w.bytes(v)
  }
  // Static table index 8 is `:status 200` (Appendix A); other statuses are literals.
  if (status === 200) w.u8(0x88)
  else literal(':status', String(status))
  for (const [k, v] of headers) literal(k.toLowerCase(), v)
  return w.finish()
}

/** The server preface (a SETTINGS frame with these [id, value] entries) and the ACK of the client's SETTINGS. */
export function h2ServerPreface(settings: ReadonlyArray<readonly [number, number]> = []): Uint8Array {
  const w = new ByteWriter()
  for (const [id, value] of settings) w.u16(id).u32(value)
  return concatBytes([frame(H2_FRAME.settings, 0, 0, w.finish()), frame(H2_FRAME.settings, 0x1, 0, new Uint8Array(0))])
}

/** HEADERS (END_HEADERS) and DATA (END_STREAM) on one stream, then GOAWAY naming it as the last. */
export function h2Response(streamId: number, status: number, headers: Array<[string, string]>, body: string): Uint8Array {
  const b = enc.encode(body)
  const goaway = new ByteWriter().u32(streamId).u32(0).finish()
  return concatBytes([
    frame(H2_FRAME.headers, 0x4, streamId, hpackEncode(status, [...headers, ['content-length', String(b.length)]])),
    frame(H2_FRAME.data, 0x1, streamId, b),
    frame(H2_FRAME.goaway, 0, 0, goaway),
  ])
}

// What the service saw of the page's TLS handshake and HTTP start, as one view whoever read it:
// the TLS evidence listener (TLS_PORT, src/listeners/tls.ts), which files the ClientHello and
// the HTTP/2 preface (or HTTP/1 head) under the page's nonce, or else a trusted TLS-terminating
// proxy's fingerprint headers (TLS_FINGERPRINT_HEADERS, src/evidence/proxy-fingerprints.ts).

import type { Http1Record, Http2Record, TlsRecord } from '../evidence/tls-records'
import { evidenceOf, type ServerObservation } from '../core/tools/observation'

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
  /** The listener's only (a proxy's headers show none of them): GREASE kept, in the order sent. */
  versions?: number[] | null
  key_shares?: number[] | null
  signature_algorithms?: number[] | null
}

/**
 * Whether the listener offered h2 on this connection: a browser speaks HTTP/1.1 over TLS only
 * where h2 was not offered. Records from before the offer was kept: it always was.
 */
export function h2Offered(tls: Pick<TlsView, 'negotiated'> | null | undefined): boolean {
  const offered = tls?.negotiated?.offered
  return !Array.isArray(offered) || offered.includes('h2')
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


/** Why the handshake checks have nothing to judge without the listener or a trusted proxy. */
export const LISTENER_MISSING = "needs the service's HTTPS listener (TLS_PORT, on by default), which parses the ClientHello of the connection the page was loaded over, or of a side connection a page on plain HTTP opens to it (refused by a browser that does not trust its certificate); behind a TLS-terminating proxy its fingerprint headers can stand in (TLS_FINGERPRINT_HEADERS, from TRUSTED_PROXIES)"

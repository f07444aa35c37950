import { describe, expect, test } from 'bun:test'
import type { ServerObservation } from '../core/tools/observation'
import { fixture } from '../evidence/fixtures/load'
import { parseHttp1Head } from '../evidence/http1'
import { parseH2ClientStart } from '../evidence/http2'
import { proxyFingerprintEvidence } from '../evidence/proxy-fingerprints'
import { parseClientHello } from '../evidence/tls-client-hello'
import { http1Record, http2Record, tlsRecord } from '../evidence/tls-records'
import { LISTENER_MISSING, tlsEvidenceOf } from './tls-views'

type Evidence = NonNullable<ServerObservation['evidence']>
const NEGOTIATED = { protocol: 'TLSv1.3', alpn: 'h2', cipher: 'TLS_AES_128_GCM_SHA256' }
function hello(name: string) {
  const h = parseClientHello(fixture(name))
  if (!h.ok) throw new Error(name)
  return tlsRecord(h.value, NEGOTIATED)
}
function h2(name: string) {
  const s = parseH2ClientStart(fixture(name))
  if (!s.ok) throw new Error(name)
  return http2Record(s.value)
}
function h1(name: string) {
  const s = parseHttp1Head(fixture(name))
  if (!s.ok) throw new Error(name)
  return http1Record(s.value)
}
/** What the TLS listener files under the page's nonce. */
const filed = (records: Array<[string, unknown]>): Evidence => records.map(([kind, data]) => ({ kind, data, observedAt: '2026-01-01T00:00:00+00:00' }))
/** What src/http/observe.ts adds when a trusted proxy put fingerprints in the request's headers. */
const MAP = { ja4: 'x-ja4', ja3_hash: 'x-ja3-hash', akamai: 'x-http2-fingerprint' }
const proxied = (headers: Record<string, string>): Evidence => proxyFingerprintEvidence(MAP, new Headers(headers)).map((i) => ({ ...i, observedAt: '2026-01-01T00:00:00+00:00' }))

const CHROMIUM_JA4 = 't13d1516h2_8daaf6152771_02713d6af862'
const FIREFOX_JA4 = 't13d1715h2_5b57614c22b0_3d5424432f57'
const FIREFOX_AKAMAI = '1:65536;2:0;4:131072;5:16384|12517377|0|m,p,a,s'

describe('tlsEvidenceOf: the listener', () => {
  test("Chromium 156's ClientHello and HTTP/2 start, as the listener filed them", () => {
    const tls = hello('tls-chromium-ip.hex')
    const http2 = h2('h2-chromium.hex')
    const e = tlsEvidenceOf({ evidence: filed([['tls', tls], ['http2', http2]]) })
    expect(e).toEqual({ source: 'listener', tls, http2, http1: null })
    expect(e!.tls).toMatchObject({ version: '13', grease: true, sni: null, alpn: ['h2', 'http/1.1'] })
    expect(e!.tls!.ja4).toMatch(/^t13i/) // an IP literal: no SNI
    expect(e!.http2!.pseudo_header_order).toEqual([':method', ':authority', ':scheme', ':path'])
  })

  test("curl's OpenSSL hello is read the same way: no GREASE, its own JA4", () => {
    const e = tlsEvidenceOf({ evidence: filed([['tls', hello('tls-curl-ip.hex')], ['http2', h2('h2-curl.hex')]]) })
    expect(e?.source).toBe('listener')
    expect(e!.tls!.grease).toBe(false)
    expect(e!.tls!.ja4).not.toBe(hello('tls-chromium-ip.hex').ja4)
    expect(e!.http2!.akamai).not.toBe(h2('h2-chromium.hex').akamai)
  })

  test('an HTTP/1 request head is kept when the client spoke HTTP/1.1', () => {
    const head = h1('http1-chromium.hex')
    const e = tlsEvidenceOf({ evidence: filed([['tls', hello('tls-chromium-ip.hex')], ['http1', head]]) })
    expect(e).toMatchObject({ source: 'listener', http2: null, http1: head })
    expect(e!.http1!.headers.length).toBeGreaterThan(0)
  })

  test('odd records are left out: a TLS record without its fields is no evidence, a partial HTTP/2 record is dropped', () => {
    expect(tlsEvidenceOf({ evidence: filed([['tls', { ja4: 5 }]]) })).toBeNull()
    expect(tlsEvidenceOf({ evidence: filed([['tls', { ...hello('tls-chromium-ip.hex'), alpn: 'h2' }]]) })).toBeNull()
    const e = tlsEvidenceOf({ evidence: filed([['tls', hello('tls-chromium-ip.hex')], ['http2', { akamai: 'x' }], ['http1', { version: 1 }]]) })
    expect(e).toMatchObject({ source: 'listener', http2: null, http1: null })
  })

  test("the listener's record wins over a proxy's headers; the two are never mixed", () => {
    const tls = hello('tls-chromium-ip.hex')
    const e = tlsEvidenceOf({ evidence: [...filed([['tls', tls]]), ...proxied({ 'x-ja4': FIREFOX_JA4, 'x-http2-fingerprint': FIREFOX_AKAMAI })] })
    expect(e).toEqual({ source: 'listener', tls, http2: null, http1: null })
  })
})

describe("tlsEvidenceOf: a trusted proxy's headers", () => {
  test("Chrome behind the proxy: the JA4 as a view, with what a header cannot show left null", () => {
    const e = tlsEvidenceOf({ evidence: proxied({ 'x-ja4': CHROMIUM_JA4 }) })
    expect(e).toMatchObject({ source: 'proxy', http2: null, http1: null, headers: { ja4: 'x-ja4' } })
    expect(e!.tls).toMatchObject({ version: '13', ja4: CHROMIUM_JA4, ja4_alpn: 'h2', cipher_hash: '8daaf6152771', grease: null, alpn: null, sni: null, record_size_limit: null, negotiated: null })
  })

  test('Firefox behind the proxy: JA4 and the Akamai HTTP/2 fingerprint, each with its header', () => {
    const e = tlsEvidenceOf({ evidence: proxied({ 'x-ja4': FIREFOX_JA4, 'x-http2-fingerprint': FIREFOX_AKAMAI }) })
    expect(e!.source).toBe('proxy')
    expect(e!.tls).toMatchObject({ ja4: FIREFOX_JA4, cipher_hash: '5b57614c22b0' })
    expect(e!.http2).toEqual({ akamai: FIREFOX_AKAMAI, settings: [[1, 65536], [2, 0], [4, 131072], [5, 16384]], window_update: 12517377, pseudo_header_order: [':method', ':path', ':authority', ':scheme'] })
    expect(e!.headers).toEqual({ ja4: 'x-ja4', akamai: 'x-http2-fingerprint' })
  })

  test('an HTTP/2 fingerprint alone is evidence; a JA3 hash alone is a TLS view too', () => {
    expect(tlsEvidenceOf({ evidence: proxied({ 'x-http2-fingerprint': FIREFOX_AKAMAI }) })).toMatchObject({ source: 'proxy', tls: null, http2: { akamai: FIREFOX_AKAMAI } })
    expect(tlsEvidenceOf({ evidence: proxied({ 'x-ja3-hash': '0149f47eabf9a20d0893e2a44e5a6323' }) })!.tls).toMatchObject({ ja3_hash: '0149f47eabf9a20d0893e2a44e5a6323', ja4: null })
  })

  test('only malformed headers (kept as ignored), or nothing at all: null', () => {
    const garbage = proxied({ 'x-ja4': 'garbage', 'x-http2-fingerprint': 'garbage' })
    expect(garbage).toHaveLength(2)
    expect(tlsEvidenceOf({ evidence: garbage })).toBeNull()
    expect(tlsEvidenceOf({ evidence: [] })).toBeNull()
    expect(tlsEvidenceOf({})).toBeNull()
  })

  test('LISTENER_MISSING names both ways to get the evidence', () => {
    expect(LISTENER_MISSING).toContain('TLS_PORT')
    expect(LISTENER_MISSING).toContain('TLS_FINGERPRINT_HEADERS')
  })
})

import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { proxyFingerprintEvidence } from '../evidence/proxy-fingerprints'
import { http2FingerprintFamily, tlsFingerprintFamily } from './tls-match'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const CHROME_AKAMAI = '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p'
const CURL_AKAMAI = '3:100;4:33554432;2:0|33488897|0|m,p,s,a'
const CHROMIUM_TLS = { ja4: 't13d1516h2_8daaf6152771_d8a2da3f94cd', ja3n_hash: 'x', ciphers: [], extensions: [], alpn: ['h2'], grease: true, alps: 17613, record_size_limit: null }
const CURL_TLS = { ja4: 't13d3112h2_e8f1e7e78f70_b26ce05bbdd6', ja3n_hash: 'x', ciphers: [], extensions: [], alpn: ['h2'], grease: false, alps: null, record_size_limit: null }

const obs = (ua: string, evidence: ServerObservation['evidence'] = []): ServerObservation => ({ ip: '81.2.69.23', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, evidence })
const listener = (tls: object, http: { kind: 'http2' | 'http1'; data: object }) => [{ kind: 'tls', data: tls, observedAt: 'x' }, { ...http, observedAt: 'x' }]
const proxied = (headers: Record<string, string>) => proxyFingerprintEvidence({ ja4: 'x-ja4', ja3_hash: 'x-ja3-hash', akamai: 'x-http2-fingerprint' }, new Headers(headers)).map((i) => ({ ...i, observedAt: 'x' }))
const run = (o: ServerObservation) => {
  const { checks } = runChecks([[tlsFingerprintFamily, 40], [http2FingerprintFamily, 30]], {}, o, {})
  return (id: string) => checks.find((c) => c.id === id)!
}

describe('tls-fingerprint and http2-fingerprint', () => {
  test('are na without the listener or a proxy, and say what they need', () => {
    const r = run(obs(CHROME_UA))
    for (const id of ['tls-fingerprint', 'http2-fingerprint']) expect(r(id)).toMatchObject({ verdict: 'na', expected: expect.stringContaining('TLS_PORT') })
  })
  test("pass Chromium's stack under a Chrome claim and fail curl's", () => {
    const chrome = run(obs(CHROME_UA, listener(CHROMIUM_TLS, { kind: 'http2', data: { akamai: CHROME_AKAMAI, pseudo_header_order: [] } })))
    expect([chrome('tls-fingerprint').verdict, chrome('http2-fingerprint').verdict]).toEqual(['pass', 'pass'])
    // Judged against the claim, which they name: the User-Agent header's, no engine of the page's.
    for (const id of ['tls-fingerprint', 'http2-fingerprint']) expect(chrome(id).expected).toBe('the blink stack of chrome 124 (blink) on windows, the browser the User-Agent header claims')
    const curl = run(obs(CHROME_UA, listener(CURL_TLS, { kind: 'http2', data: { akamai: CURL_AKAMAI, pseudo_header_order: [] } })))
    expect([curl('tls-fingerprint').verdict, curl('http2-fingerprint').verdict]).toEqual(['fail', 'fail'])
  })
  test('a browser claim that spoke HTTP/1.1 to the listener fails the HTTP/2 check; a library claim passes', () => {
    const h1 = { kind: 'http1' as const, data: { version: 'HTTP/1.1', method: 'GET', path: '/', headers: [], bare_line_feeds: false } }
    expect(run(obs(CHROME_UA, listener(CHROMIUM_TLS, h1)))('http2-fingerprint').verdict).toBe('fail')
    expect(run(obs('curl/8.5.0', listener(CURL_TLS, h1)))('http2-fingerprint').verdict).toBe('pass')
  })
  test("a trusted proxy's headers: judged from what they show, a JA3 hash alone is na", () => {
    const chrome = run(obs(CHROME_UA, proxied({ 'x-ja4': 't13d1516h2_8daaf6152771_02713d6af862', 'x-http2-fingerprint': CHROME_AKAMAI })))
    expect(chrome('tls-fingerprint').observed).toBe("t13d1516h2_8daaf6152771_02713d6af862: Chromium (BoringSSL) (from a trusted proxy's headers)")
    expect(chrome('http2-fingerprint').verdict).toBe('pass')
    expect(run(obs(CHROME_UA, proxied({ 'x-ja4': 't13d1516h2_8daaf6152771_02713d6af862' })))('http2-fingerprint')).toMatchObject({ verdict: 'na', observed: 'no HTTP/2 fingerprint header' })
    const hashOnly = run(obs(CHROME_UA, proxied({ 'x-ja3-hash': '0149f47eabf9a20d0893e2a44e5a6323' })))
    expect(hashOnly('tls-fingerprint')).toMatchObject({ verdict: 'na', observed: expect.stringContaining('a hash alone names no TLS stack') })
  })
})

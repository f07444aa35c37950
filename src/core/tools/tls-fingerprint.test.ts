import { describe, expect, test } from 'bun:test'
import type { Static } from '@sinclair/typebox'
import { summarize, type Check } from '../scoring'
import type { ServerObservation } from './observation'
import { fixture } from '../../evidence/fixtures/load'
import { parseH2ClientStart } from '../../evidence/http2'
import { parseClientHello } from '../../evidence/tls-client-hello'
import { http2Record, tlsRecord } from '../../evidence/tls-records'
import { proxyFingerprintEvidence } from '../../evidence/proxy-fingerprints'
import type { TlsFingerprintSignals } from '../../../common/signals/tls-fingerprint'
import { tlsEvidenceOf, type TlsEvidence } from '../../checks/tls-views'
import { REENCRYPTED_TEXT, tlsFingerprint, type TlsFingerprintSections } from './tls-fingerprint'
import { ok, missing } from '../../../tests/support/signals'
import { SPIDERMONKEY } from './bot-detector.fixture'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const BRANDS = [{ brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }, { brand: 'Not-A.Brand', version: '99' }]

const NO_LISTENER = missing('unsupported', 'no TLS evidence listener on this service (TLS_PORT is not set)')

const NEGOTIATED = { protocol: 'TLSv1.3', alpn: 'h2', cipher: 'TLS_AES_128_GCM_SHA256' }
function captured(tls: string, h2: string): TlsEvidence {
  const hello = parseClientHello(fixture(tls))
  const start = parseH2ClientStart(fixture(h2))
  if (!hello.ok || !start.ok) throw new Error('fixture')
  return { source: 'listener', tls: tlsRecord(hello.value, NEGOTIATED), http2: http2Record(start.value), http1: null }
}
const CHROMIUM_156 = () => captured('tls-chromium-ip.hex', 'h2-chromium.hex')
const CURL = () => captured('tls-curl-ip.hex', 'h2-curl.hex')
const FAMILY_OPENSSL = 'an OpenSSL client (curl, Python, Node, Ruby…)'

function signals(over: Partial<TlsFingerprintSignals> = {}): TlsFingerprintSignals {
  return {
    navigator: ok({ userAgent: CHROME_UA, platform: 'Win32' }),
    uaData: ok({ brands: BRANDS, mobile: false, platform: 'Windows', high: null, highError: null }),
    stack: ok({ pageProtocol: 'https:', secureContext: true, navigationProtocol: 'h2', fetchProtocol: 'h2', navigationTls: true }),
    connection: ok({ type: null, effectiveType: '4g', rtt: 50, downlink: 10, saveData: false }),
    evidence: NO_LISTENER,
    ...over,
  }
}

function obs(ua: string, brands: typeof BRANDS | null): ServerObservation {
  const headers: Array<[string, string]> = [['user-agent', ua]]
  if (brands) headers.push(['sec-ch-ua', brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', ')], ['sec-ch-ua-platform', '"Windows"'], ['sec-ch-ua-mobile', '?0'])
  return { ip: '81.2.69.23', userAgent: ua, headers, receivedAt: 0 }
}

/** The listener's records as the HTTP layer files them under the page's nonce. */
const filed = (e: TlsEvidence): NonNullable<ServerObservation['evidence']> =>
  (['tls', 'http2', 'http1'] as const).flatMap((kind) => (e[kind] ? [{ kind, data: e[kind], observedAt: 'x' }] : []))

/** Judges with `evidence` as the listener filed it (a proxy's evidence is already in the observation). */
function judge(s: TlsFingerprintSignals, o: ServerObservation, evidence: TlsEvidence | null = null) {
  const { checks, sections } = tlsFingerprint.judge(s, evidence?.source === 'listener' ? { ...o, evidence: filed(evidence) } : o)
  return { byId: Object.fromEntries(checks.map((c) => [c.id, c])) as Record<string, Check>, sections: sections as Static<typeof TlsFingerprintSections>, summary: summarize(checks) }
}

describe('tls-fingerprint judge', () => {
  test('desktop Chrome over https: consistent claim, fingerprint checks pending', () => {
    const r = judge(signals(), obs(CHROME_UA, BRANDS))
    for (const id of ['claimed-browser', 'engine-apis', 'next-hop-protocol']) expect(r.byId[id]!.verdict).toBe('pass')
    for (const id of ['transport-tls', 'ja3', 'ja4', 'tls-parameters', 'http2-fingerprint']) {
      expect(r.byId[id]!.verdict).toBe('na')
      expect(r.byId[id]!.expected).toContain('TLS_PORT')
    }
    expect(r.summary.score).toBe(100)
    expect(r.sections.tls).toMatchObject({ listener: null, ja3: null, ja4: null, alpn: null })
    expect(r.sections.claimed).toMatchObject({ family: 'chrome', engine: 'blink', version: 124, hints: { family: 'chrome', version: 124 } })
    expect(r.sections.verdict).toContain('Not tested')
  })

  test('headless Chromium on http://127.0.0.1: same TLS stack as Chrome, so the claim holds', () => {
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'
    const brands = [{ brand: 'Not:A-Brand', version: '8' }, { brand: 'Chromium', version: '156' }]
    const o = obs(ua, brands)
    o.headers = o.headers.map(([n, v]) => [n, n === 'sec-ch-ua-platform' ? '"Linux"' : v])
    const s = signals({
      navigator: ok({ userAgent: ua, platform: 'Linux x86_64' }),
      uaData: ok({ brands, mobile: false, platform: 'Linux', high: null, highError: null }),
      stack: ok({ pageProtocol: 'http:', secureContext: true, navigationProtocol: 'http/1.1', fetchProtocol: 'http/1.1', navigationTls: false }),
    })
    const r = judge(s, o)
    expect(r.byId['claimed-browser']!.verdict).toBe('pass')
    expect(r.byId['claimed-browser']!.observed).toContain('headless')
    expect(r.summary.score).toBe(100)
  })

  test('Firefox behind a Chrome User-Agent: no client hints, no Chromium APIs, a SpiderMonkey engine', () => {
    const s = signals({ uaData: missing('unsupported', 'no navigator.userAgentData'), connection: missing('unsupported', 'no navigator.connection'), engine: ok(SPIDERMONKEY) })
    const r = judge(s, obs(CHROME_UA, null))
    expect(r.byId['claimed-browser']!.verdict).toBe('fail')
    expect(r.byId['claimed-browser']!.expected).toContain('judged by SpiderMonkey (Gecko)')
    expect(r.byId['engine-apis']!.verdict).toBe('fail')
    expect(r.summary.score).toBe(40)
    // Without the engine signal (an older page) the missing hints alone only warn.
    const { engine: _, ...old } = s
    expect(judge(old, obs(CHROME_UA, null)).byId['claimed-browser']!.verdict).toBe('warn')
  })

  test('Chromium claiming to be Firefox keeps its Chromium APIs', () => {
    const r = judge(signals(), obs(FIREFOX_UA, null))
    expect(r.byId['engine-apis']!.verdict).toBe('fail')
    expect(r.byId['engine-apis']!.observed).toContain('navigator.userAgentData exists')
  })

  test('a real Firefox passes', () => {
    const s = signals({ navigator: ok({ userAgent: FIREFOX_UA, platform: 'Win32' }), uaData: missing('unsupported', 'no navigator.userAgentData'), connection: missing('unsupported', 'no navigator.connection') })
    const r = judge(s, obs(FIREFOX_UA, null))
    expect(r.byId['claimed-browser']!.verdict).toBe('pass')
    expect(r.byId['engine-apis']!.verdict).toBe('pass')
  })

  test('an HTTP library fails the claim', () => {
    const r = judge(signals(), obs('python-requests/2.31.0', null))
    expect(r.byId['claimed-browser']!.verdict).toBe('fail')
    expect(r.byId['engine-apis']!.verdict).toBe('na')
  })

  test('h2 over plain http: is a lie about the protocol', () => {
    const r = judge(signals({ stack: ok({ pageProtocol: 'http:', secureContext: false, navigationProtocol: 'h2', fetchProtocol: 'h2', navigationTls: false }) }), obs(CHROME_UA, BRANDS))
    expect(r.byId['next-hop-protocol']!.verdict).toBe('fail')
  })

  test('Chromium 156 evidence under a Chrome claim: every fingerprint check passes', () => {
    const s = signals({ evidence: ok({ port: 8443, nonce: 'a'.repeat(26), reached: true, ms: 30 }) })
    const ev = CHROMIUM_156()
    const r = judge(s, obs(CHROME_UA, BRANDS), ev)
    for (const id of ['transport-tls', 'ja3', 'ja4', 'tls-parameters', 'http2-fingerprint']) expect(r.byId[id]!.verdict, id).toBe('pass')
    expect(r.byId.ja4!.observed).toStartWith('t13i1516h2_8daaf6152771_')
    expect(r.sections.tls).toMatchObject({ listener: 8443, nonce: 'a'.repeat(26), version: 'TLS 1.3', ja4: ev.tls!.ja4, alpn: ['h2', 'http/1.1'], family: 'chromium' })
    expect(r.sections.http2).toMatchObject({ akamai: '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p', family: 'chromium', windowUpdate: 15663105 })
    expect(r.sections.verdict).toContain('TLS stack seen: Chromium (BoringSSL)')
    expect(r.summary.score).toBe(100)
  })

  test('curl behind a Chrome User-Agent and hints: JA4, parameters and HTTP/2 fail', () => {
    const r = judge(signals(), obs(CHROME_UA, BRANDS), CURL())
    for (const id of ['ja3', 'ja4', 'tls-parameters', 'http2-fingerprint']) expect(r.byId[id]!.verdict, id).toBe('fail')
    expect(r.byId['tls-parameters']!.observed).toContain('no GREASE')
    expect(r.sections.tls.family).toBe('openssl')
  })

  test('Chromium behind a Firefox User-Agent: the stack is BoringSSL, not NSS', () => {
    const r = judge(signals(), obs(FIREFOX_UA, null), CHROMIUM_156())
    expect(r.byId.ja4!.verdict).toBe('fail')
    expect(r.byId['http2-fingerprint']!.verdict).toBe('fail')
    expect(r.byId['tls-parameters']!.observed).toContain('GREASE values (Firefox sends none)')
  })

  test('curl saying it is curl: a library stack is consistent with the claim', () => {
    const r = judge(signals(), obs('curl/7.88.1', null), CURL())
    expect(r.byId.ja4!.verdict).toBe('pass')
    expect(r.byId['http2-fingerprint']!.verdict).toBe('pass')
    expect(r.byId['claimed-browser']!.verdict).toBe('fail')
  })

  test('a browser that spoke HTTP/1.1 to the listener fails the HTTP/2 check', () => {
    const ev = { ...CHROMIUM_156(), http2: null, http1: { version: 'HTTP/1.1', method: 'GET', path: '/', headers: [], bare_line_feeds: false } }
    expect(judge(signals(), obs(CHROME_UA, BRANDS), ev).byId['http2-fingerprint']!.verdict).toBe('fail')
  })

  test('the registered judge reads the evidence from the observation; odd records are ignored', () => {
    const ev = CHROMIUM_156()
    const o = { ...obs(CHROME_UA, BRANDS), evidence: [{ kind: 'tls', data: ev.tls, observedAt: 'x' }, { kind: 'http2', data: ev.http2, observedAt: 'x' }] }
    expect(tlsEvidenceOf(o)?.http2?.akamai).toBe(ev.http2!.akamai)
    const r = tlsFingerprint.judge(signals(), o)
    expect(r.checks.find((c) => c.id === 'ja4')!.verdict).toBe('pass')
    expect(tlsEvidenceOf({ evidence: [{ kind: 'tls', data: { ja4: 5 }, observedAt: 'x' }] })).toBeNull()
    expect(tlsEvidenceOf({})).toBeNull()
  })

  test('a nonce without evidence says whether the page reached the listener', () => {
    const s = signals({ evidence: ok({ port: 8443, nonce: 'a'.repeat(26), reached: false, ms: 30 }) })
    const r = judge(s, obs(CHROME_UA, BRANDS))
    expect(r.byId.ja4!.verdict).toBe('na')
    expect(r.byId.ja4!.observed).toContain('could not reach port 8443')
  })

  test('an untested handshake says so in the headline and in results.handshake, with the HTTPS URL', () => {
    const o = obs(CHROME_UA, BRANDS)
    o.headers.push(['host', '127.0.0.1:3000'])
    const refused = judge(signals({ evidence: ok({ port: 3443, nonce: 'a'.repeat(26), reached: false, ms: 30 }) }), o)
    expect(refused.sections.handshake).toEqual({
      tested: false,
      reason: expect.stringContaining('does not trust its certificate'),
      httpsUrl: 'https://127.0.0.1:3443/tools/tls-fingerprint',
    })
    expect(refused.sections.verdict).toStartWith('Handshake not tested: the page could not open its connection to the HTTPS listener on port 3443')
    expect(refused.sections.verdict).toContain('open https://127.0.0.1:3443/tools/tls-fingerprint to test it')
    const off = judge(signals(), o)
    expect(off.sections.handshake).toEqual({ tested: false, reason: "the service's HTTPS listener is off (TLS_PORT=off)", httpsUrl: null })
    expect(off.sections.verdict).toStartWith('Handshake not tested')
    // A Host that is no host name gives no link.
    const odd = obs(CHROME_UA, BRANDS)
    odd.headers.push(['host', 'evil.example/"><script>'])
    expect(judge(signals({ evidence: ok({ port: 3443, nonce: 'a'.repeat(26), reached: false, ms: 30 }) }), odd).sections.handshake.httpsUrl).toBeNull()
    const seen = judge(signals({ evidence: ok({ port: 3443, nonce: 'a'.repeat(26), reached: true, ms: 30 }) }), o, CHROMIUM_156())
    expect(seen.sections.handshake).toEqual({ tested: true, reason: null, httpsUrl: null })
    expect(seen.sections.verdict).not.toContain('not tested')
  })

  test('missing signals are na; the registered judge has no evidence', () => {
    const gone = missing('timeout', 'no answer within 3000 ms')
    const r = tlsFingerprint.judge({ navigator: gone, uaData: gone, stack: gone, connection: gone, evidence: gone }, obs(CHROME_UA, BRANDS))
    expect(summarize(r.checks).score).toBe(100)
    expect(r.checks.find((c) => c.id === 'engine-apis')!.verdict).toBe('na')
    expect(r.checks.find((c) => c.id === 'next-hop-protocol')!.verdict).toBe('na')
  })

  describe("fingerprints from a trusted proxy's headers", () => {
    const CHROMIUM_JA4 = 't13d1516h2_8daaf6152771_02713d6af862'
    const CURL_JA4 = 't13d3112h2_e8f1e7e78f70_b26ce05bbdd6'
    const CHROME_AKAMAI = '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p'
    const MAP = { ja4: 'x-ja4', ja3: 'x-ja3', ja3_hash: 'x-ja3-hash', akamai: 'x-http2-fingerprint' }
    /** The observation the HTTP layer builds when the socket peer is a trusted proxy. */
    const proxied = (ua: string, brands: typeof BRANDS | null, headers: Record<string, string>, listener: ServerObservation['evidence'] = []): ServerObservation => ({
      ...obs(ua, brands),
      evidence: [...listener, ...proxyFingerprintEvidence(MAP, new Headers(headers)).map((i) => ({ ...i, observedAt: '2026-11-15T12:00:00+00:00' }))],
    })
    // What the registered judge does: the evidence comes from the observation.
    const viaRegistry = (o: ServerObservation) => judge(signals(), o, tlsEvidenceOf(o))

    test("a Chrome claim with Chromium's JA4 passes; GREASE is not held against it", () => {
      const r = viaRegistry(proxied(CHROME_UA, BRANDS, { 'x-ja4': CHROMIUM_JA4 }))
      expect(r.byId.ja4!.verdict).toBe('pass')
      expect(r.byId.ja4!.observed).toContain('Chromium (BoringSSL)')
      expect(r.byId.ja4!.observed).toContain('GREASE not visible in a proxy header')
      expect(r.byId['transport-tls']!.verdict).toBe('pass')
      expect(r.byId['transport-tls']!.observed).toContain('read by the trusted proxy')
      expect(r.byId['tls-parameters']!.verdict).toBe('pass')
      expect(r.byId['tls-parameters']!.observed).toBe("first ALPN h2 (not visible in the proxy's headers: GREASE)")
      expect(r.byId.ja3!.verdict).toBe('na')
      expect(r.byId['http2-fingerprint']!.verdict).toBe('na')
      expect(r.summary.score).toBe(100)
      expect(r.sections.tls).toMatchObject({ source: 'proxy', ja4: CHROMIUM_JA4, version: 'TLS 1.3', family: 'chromium', alpn: null, ciphers: null, sni: null, listener: null })
      expect(r.sections.http2).toMatchObject({ source: null, akamai: null })
      expect(r.sections.verdict).toContain("TLS stack seen: Chromium (BoringSSL) (from a trusted proxy's headers)")
    })

    test("a Chrome claim with curl's OpenSSL JA4 fails", () => {
      const r = viaRegistry(proxied(CHROME_UA, BRANDS, { 'x-ja4': CURL_JA4 }))
      expect(r.byId.ja4!.verdict).toBe('fail')
      expect(r.byId.ja4!.observed).toContain('an OpenSSL client')
      expect(r.sections.tls.family).toBe('openssl')
    })

    test('a JA3 hash alone neither passes nor fails, and says why', () => {
      const r = viaRegistry(proxied(CHROME_UA, BRANDS, { 'x-ja3-hash': '0149f47eabf9a20d0893e2a44e5a6323' }))
      for (const id of ['ja3', 'ja4', 'tls-parameters', 'http2-fingerprint']) expect(r.byId[id]!.verdict, id).toBe('na')
      expect(r.byId.ja3!.observed).toContain('JA3 0149f47eabf9a20d0893e2a44e5a6323 from the trusted proxy: a hash alone names no stack')
      expect(r.summary.score).toBe(100)
      expect(r.sections.tls).toMatchObject({ source: 'proxy', ja3Hash: '0149f47eabf9a20d0893e2a44e5a6323', ja4: null, family: null })
    })

    test("curl's full JA3 string under a Chrome claim fails ja3; its lists are in the section", () => {
      const curl = CURL()
      const r = viaRegistry(proxied(CHROME_UA, BRANDS, { 'x-ja3': curl.tls!.ja3! }))
      expect(r.byId.ja3!.verdict).toBe('fail')
      expect(r.byId.ja3!.observed).toMatchObject({ ja3: curl.tls!.ja3_hash, ja3n: curl.tls!.ja3n_hash, family: FAMILY_OPENSSL })
      expect(r.byId.ja4!.verdict).toBe('na')
      expect(r.sections.tls).toMatchObject({ ja3: curl.tls!.ja3, curves: [29, 23, 30, 25, 24, 256, 257, 258, 259, 260], family: 'openssl' })
    })

    test('a Chrome 131 claim whose JA3 groups lack a post-quantum share warns; unknown groups are skipped', () => {
      const ua = CHROME_UA.replace('124', '131')
      const b131 = BRANDS.map((b) => ({ ...b, version: b.version === '124' ? '131' : b.version }))
      const chromeJa3 = '771,4865-4866-4867-49195-49199-49196-49200-52393-52392-49171-49172-156-157-47-53,0-23-65281-10-11-35-16-5-13-18-51-45-43-27-17513-21,29-23-24,0'
      expect(viaRegistry(proxied(ua, b131, { 'x-ja3': chromeJa3 })).byId['tls-parameters']!.verdict).toBe('warn')
      const onlyJa4 = viaRegistry(proxied(ua, b131, { 'x-ja4': CHROMIUM_JA4 }))
      expect(onlyJa4.byId['tls-parameters']!.verdict).toBe('pass')
      expect(onlyJa4.byId['tls-parameters']!.observed).toContain('key share groups')
    })

    test("HTTP/2 is judged from the proxy's Akamai value", () => {
      const chrome = viaRegistry(proxied(CHROME_UA, BRANDS, { 'x-ja4': CHROMIUM_JA4, 'x-http2-fingerprint': CHROME_AKAMAI }))
      expect(chrome.byId['http2-fingerprint']!.verdict).toBe('pass')
      expect(chrome.sections.http2).toMatchObject({ source: 'proxy', akamai: CHROME_AKAMAI, windowUpdate: 15663105, pseudoHeaderOrder: [':method', ':authority', ':scheme', ':path'], family: 'chromium' })
      const curl = viaRegistry(proxied(CHROME_UA, BRANDS, { 'x-http2-fingerprint': '3:100;4:33554432;2:0|33488897|0|m,p,s,a' }))
      expect(curl.byId['http2-fingerprint']!.verdict).toBe('fail')
      expect(curl.byId.ja4!.verdict).toBe('na')
    })

    test("the listener's own record wins over a proxy's headers", () => {
      const ev = CHROMIUM_156()
      const listener = [{ kind: 'tls', data: ev.tls, observedAt: 'x' }, { kind: 'http2', data: ev.http2, observedAt: 'x' }]
      const o = proxied(CHROME_UA, BRANDS, { 'x-ja4': CURL_JA4 }, listener)
      expect(tlsEvidenceOf(o)?.source).toBe('listener')
      const r = viaRegistry(o)
      expect(r.byId.ja4!.verdict).toBe('pass')
      expect(r.sections.tls).toMatchObject({ source: 'listener', ja4: ev.tls!.ja4 })
    })

    test('only invalid headers: nothing to judge, the checks stay na', () => {
      const o = proxied(CHROME_UA, BRANDS, { 'x-ja4': 'garbage', 'x-http2-fingerprint': 'garbage' })
      expect(o.evidence).toHaveLength(2)
      expect(tlsEvidenceOf(o)).toBeNull()
      expect(viaRegistry(o).byId.ja4!.verdict).toBe('na')
    })
  })
})

describe('tls-fingerprint report behind a TLS-inspecting proxy (issue 56)', () => {
  const LINUX_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
  const nodeProxy = (): TlsEvidence => {
    const hello = parseClientHello(fixture('tls-node-openssl.hex'))
    if (!hello.ok) throw new Error('fixture')
    const head = { version: 'HTTP/1.1', method: 'GET', path: '/tools/tls-fingerprint', headers: [['host', 'localhost'], ['user-agent', LINUX_CHROME]] as Array<[string, string]>, bare_line_feeds: false }
    return { source: 'listener', tls: tlsRecord(hello.value, { ...NEGOTIATED, alpn: 'http/1.1', offered: ['h2', 'http/1.1'] }), http2: null, http1: head }
  }
  const person = (proof?: ServerObservation['proof']) => ({ ...obs(LINUX_CHROME, null), ...(proof ? { proof } : {}) })
  const s = () => signals({ navigator: ok({ userAgent: LINUX_CHROME, platform: 'Linux x86_64' }), uaData: ok({ brands: [{ brand: 'Not:A-Brand', version: '8' }, { brand: 'Chromium', version: '156' }], mobile: false, platform: 'Linux', high: null, highError: null }) })

  test('tells a proven browser in plain words that its connection is re-encrypted on its way, and does not hold it against them', () => {
    const r = judge(s(), person('valid'), nodeProxy())
    expect(r.byId['tls-interception']!.verdict).toBe('warn')
    expect(Object.values(r.byId).filter((c) => c.verdict === 'fail').map((c) => c.id)).toEqual([])
    expect(r.sections.verdict).toContain(REENCRYPTED_TEXT)
    expect(REENCRYPTED_TEXT).toContain('decrypted and re-encrypted on its way')
    expect(REENCRYPTED_TEXT).toContain('not held against you')
    // No setting, raw value or source path in what the person reads.
    expect(REENCRYPTED_TEXT).not.toMatch(/[A-Z]{3,}_[A-Z]|0x|src\/|\.ts|t13/)
    // What the middlebox costs: the warning alone, against the same person on their own wire.
    expect(judge(s(), person('valid'), CHROMIUM_156()).summary.score - r.summary.score).toBeLessThanOrEqual(10)
  })

  test('without the proof the same wire fails, and the report says nothing of a middlebox; a person on their own wire neither', () => {
    const unproven = judge(s(), person(), nodeProxy())
    expect(unproven.byId['tls-version']!.verdict).toBe('fail')
    expect(unproven.sections.verdict).not.toContain('re-encrypted')
    const own = judge(s(), person('valid'), CHROMIUM_156())
    expect(own.byId['tls-interception']!.verdict).toBe('pass')
    expect(own.sections.verdict).not.toContain('re-encrypted')
  })
})

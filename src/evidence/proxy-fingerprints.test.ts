import { describe, expect, test } from 'bun:test'
import { fixture } from './fixtures/load'
import { parseClientHello } from './tls-client-hello'
import { tlsRecord } from './tls-records'
import { MAX_VALUE_LENGTH, parseProxyHeaderMap, proxyFingerprintEvidence, type ProxyEvidenceItem, type ProxyHeaderMap, type ProxyHttp2Data, type ProxyTlsData } from './proxy-fingerprints'

// What the listener computes from captured hellos: a proxy passing the same hello's JA3/JA4
// must give the same derived values.
const record = (name: string) => {
  const h = parseClientHello(fixture(name))
  if (!h.ok) throw new Error(h.detail)
  return tlsRecord(h.value, { protocol: null, alpn: null, cipher: null })
}
const CHROMIUM = record('tls-chromium-sni.hex')
const CURL = record('tls-curl-sni.hex')

const MAP: ProxyHeaderMap = { ja4: 'x-ja4', ja4_r: 'x-ja4-r', ja3: 'x-ja3', ja3_hash: 'x-ja3-hash', ja3n_hash: 'x-ja3n-hash', akamai: 'x-http2-fingerprint' }
const run = (headers: Record<string, string>, map: ProxyHeaderMap = MAP) => proxyFingerprintEvidence(map, new Headers(headers))
const tlsOf = (items: ProxyEvidenceItem[]) => items.find((i) => i.kind === 'tls')?.data as ProxyTlsData | undefined
const h2Of = (items: ProxyEvidenceItem[]) => items.find((i) => i.kind === 'http2')?.data as ProxyHttp2Data | undefined

describe('parseProxyHeaderMap', () => {
  test('reads field=header pairs, lower-casing the names', () => {
    expect(parseProxyHeaderMap('ja4=X-JA4, ja3=X-JA3 ,akamai=X-HTTP2-Fingerprint')).toEqual({ ok: true, map: { ja4: 'x-ja4', ja3: 'x-ja3', akamai: 'x-http2-fingerprint' } })
  })

  test('refuses unknown fields, bad header names, duplicates and empty entries', () => {
    for (const bad of ['ja5=X-JA5', 'ja4=X JA4', 'ja4=', 'ja4', 'ja4=X-A,ja4=X-B', 'ja4=X-A,ja3=x-a', 'ja4=X-A,', `ja4=${'x'.repeat(65)}`, 'ja4=X:JA4']) {
      const r = parseProxyHeaderMap(bad)
      expect(r.ok, bad).toBe(false)
    }
    expect(parseProxyHeaderMap('ja5=X')).toEqual({ ok: false, error: "unknown field 'ja5' (fields: ja4, ja4_r, ja3, ja3_hash, ja3n_hash, akamai)" })
  })
})

describe('proxyFingerprintEvidence', () => {
  test("Chromium's JA4: version, first ALPN and cipher hash; GREASE and extensions unknown, not absent", () => {
    const items = run({ 'x-ja4': 't13d1516h2_8daaf6152771_02713d6af862' })
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({ kind: 'tls', source: 'proxy' })
    expect(tlsOf(items)).toMatchObject({
      headers: { ja4: 'x-ja4' },
      ja4: 't13d1516h2_8daaf6152771_02713d6af862',
      version: '13',
      transport: 't',
      ja4_alpn: 'h2',
      cipher_hash: '8daaf6152771',
      grease: null,
      extensions: null,
      ciphers: null,
      alps: null,
      ignored: [],
    })
  })

  test('a full JA3 string gives the lists, ALPS, and the same hashes and JA4 cipher hash as the listener', () => {
    const t = tlsOf(run({ 'x-ja3': CHROMIUM.ja3 }))!
    expect(t.ciphers).toEqual(CHROMIUM.ciphers.filter((c) => (c & 0x0f0f) !== 0x0a0a))
    expect(t.extensions).toContain(17613)
    expect(t.alps).toBe(17613)
    expect(t.groups).toEqual([4588, 29, 23, 24])
    expect(t.point_formats).toEqual([0])
    expect(t.legacy_version).toBe(771)
    expect(t.ja3_hash).toBe(CHROMIUM.ja3_hash)
    expect(t.ja3n_hash).toBe(CHROMIUM.ja3n_hash)
    expect(t.cipher_hash).toBe(CHROMIUM.ja4.split('_')[1]!)
    expect(t.grease).toBeNull()
    expect(t.ja4).toBeNull()
    expect(tlsOf(run({ 'x-ja3': CURL.ja3 }))!.cipher_hash).toBe('e8f1e7e78f70')
  })

  test('JA4_r gives the sorted lists and the JA4 it hashes to', () => {
    const t = tlsOf(run({ 'x-ja4-r': CHROMIUM.ja4_r }))!
    expect(t.ja4).toBe(CHROMIUM.ja4)
    expect(t.cipher_hash).toBe('8daaf6152771')
    expect(t.ciphers).toEqual([...t.ciphers!].sort((a, b) => a - b))
    expect(t.ciphers).toHaveLength(15)
    expect(t.extensions).toContain(0x44cd)
    expect(t.alps).toBe(17613)
    expect(t.signature_algorithms?.[0]).toBe(0x0904)
    expect(tlsOf(run({ 'x-ja4-r': CURL.ja4_r }))!.ja4).toBe(CURL.ja4)
  })

  test('a JA3 hash alone is kept as it is, lower-cased, and shows nothing else', () => {
    const t = tlsOf(run({ 'x-ja3-hash': CHROMIUM.ja3_hash.toUpperCase() }))!
    expect(t).toMatchObject({ ja3_hash: CHROMIUM.ja3_hash, ja4: null, ja3: null, cipher_hash: null, ciphers: null, version: null, headers: { ja3_hash: 'x-ja3-hash' } })
  })

  test('the Akamai HTTP/2 fingerprint and its parts; comma-separated SETTINGS are normalised', () => {
    const h = h2Of(run({ 'x-http2-fingerprint': '1:65536,2:0,4:6291456,6:262144|15663105|0|m,a,s,p' }))!
    expect(h).toMatchObject({
      headers: { akamai: 'x-http2-fingerprint' },
      akamai: '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p',
      settings: [[1, 65536], [2, 0], [4, 6291456], [6, 262144]],
      window_update: 15663105,
      pseudo_header_order: [':method', ':authority', ':scheme', ':path'],
      ignored: [],
    })
    expect(h.akamai_hash).toMatch(/^[0-9a-f]{32}$/)
    expect(h2Of(run({ 'x-http2-fingerprint': '3:100;4:33554432;2:0|00|3:0:0:201,5:0:0:101|m,p,s,a' }))!.window_update).toBeNull()
  })

  test('invalid values are left out and noted with the header they came from', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['x-ja4', 't13d1516h2_8daaf6152771', /not a JA4/],
      ['x-ja4', 'T13D1516H2_8DAAF6152771_02713D6AF862', /not a JA4/],
      ['x-ja4', 't14d1516h2_8daaf6152771_02713d6af862', /not a JA4/],
      ['x-ja3', '771,4865-4866,0-23', /not a JA3/],
      ['x-ja3', '771,4865-99999,0-23,29,0', /out of range/],
      ['x-ja3', '771,4865--4866,0,29,0', /not a JA3/],
      ['x-ja3-hash', 'abc', /not a JA3 hash/],
      ['x-ja4-r', 't13d0216h2_1302,1301_0005', /out of order/],
      ['x-ja4-r', 't13d0316h2_1301,1302_0005', /says 3 ciphers but lists 2/],
      ['x-http2-fingerprint', '1:65536|15663105|0|m,m,s,p', /appears twice/],
      ['x-http2-fingerprint', '1:65536|15663105|0', /not an Akamai/],
      ['x-http2-fingerprint', '1:65536|4294967295|0|m,a,s,p', /out of range/],
    ]
    for (const [name, value, reason] of cases) {
      const items = run({ [name]: value })
      expect(items, `${name}: ${value}`).toHaveLength(1)
      const data = name === 'x-http2-fingerprint' ? h2Of(items)! : tlsOf(items)!
      expect(data.ignored).toHaveLength(1)
      expect(data.ignored[0]!.header).toBe(name)
      expect(data.ignored[0]!.reason).toMatch(reason)
      if (name === 'x-http2-fingerprint') expect((data as ProxyHttp2Data).akamai).toBeNull()
      else expect((data as ProxyTlsData).ja4 ?? (data as ProxyTlsData).ja3 ?? (data as ProxyTlsData).ja3_hash).toBeNull()
    }
  })

  test("a header that arrives twice (a client's own, then the proxy's appended) is refused, not half-believed", () => {
    const h = new Headers()
    h.append('x-ja4', 't13d1516h2_8daaf6152771_02713d6af862')
    h.append('x-ja4', 't13d3112h2_e8f1e7e78f70_b26ce05bbdd6')
    h.append('x-ja3', CHROMIUM.ja3)
    h.append('x-ja3', CURL.ja3)
    const t = tlsOf(proxyFingerprintEvidence(MAP, h))!
    expect(t.ja4).toBeNull()
    expect(t.ja3).toBeNull()
    expect(t.ignored.map((i) => i.field)).toEqual(['ja4', 'ja3'])
  })

  test('an oversized value is not parsed at all', () => {
    const huge = `771,${Array.from({ length: 2000 }, () => '4865').join('-')},0,29,0`
    expect(huge.length).toBeGreaterThan(MAX_VALUE_LENGTH.ja3)
    const t = tlsOf(run({ 'x-ja3': huge }))!
    expect(t.ja3).toBeNull()
    expect(t.ignored).toEqual([{ field: 'ja3', header: 'x-ja3', reason: `longer than 4096 characters (${huge.length})` }])
  })

  test('mixed: the valid ones are kept, the invalid noted; JA4_r that does not hash to the JA4 is refused', () => {
    const items = run({ 'x-ja4': CHROMIUM.ja4, 'x-ja3': 'not,a,ja3', 'x-ja4-r': CURL.ja4_r, 'x-http2-fingerprint': '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p' })
    const t = tlsOf(items)!
    expect(t.ja4).toBe(CHROMIUM.ja4)
    expect(t.ja4_r).toBeNull()
    expect(t.ignored.map((i) => i.field).sort()).toEqual(['ja3', 'ja4_r'])
    expect(t.ignored.find((i) => i.field === 'ja4_r')!.reason).toContain('does not hash to the JA4')
    expect(t.headers).toEqual({ ja4: 'x-ja4', ja4_r: 'x-ja4-r', ja3: 'x-ja3' })
    expect(h2Of(items)!.akamai).toStartWith('1:65536')
  })

  test('absent, empty and unset-variable values file nothing; unmapped headers are not read', () => {
    expect(run({})).toEqual([])
    expect(run({ 'x-ja4': '', 'x-ja3': '-' })).toEqual([])
    expect(run({ 'x-ja4': CHROMIUM.ja4 }, { ja3: 'x-ja3' })).toEqual([])
  })

  test('GREASE kept by a non-standard JA3 is seen (and left out of the lists)', () => {
    const t = tlsOf(run({ 'x-ja3': '771,2570-4865-4866,2570-0-43,2570-29,0' }))!
    expect(t.grease).toBe(true)
    expect(t.ciphers).toEqual([4865, 4866])
    expect(t.extensions).toEqual([0, 43])
    expect(t.groups).toEqual([29])
  })

  test('never throws on arbitrary input', () => {
    // A fixed linear congruential sequence: the same strings on every run.
    let seed = 12345
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    const alphabet = '0123456789abcdef,-_:;|tdhmaspi\u00e9 '
    for (let i = 0; i < 500; i++) {
      const len = next() % 120
      let s = ''
      for (let j = 0; j < len; j++) s += alphabet[next() % alphabet.length]
      expect(() => run({ 'x-ja4': s, 'x-ja4-r': s, 'x-ja3': s, 'x-ja3-hash': s, 'x-ja3n-hash': s, 'x-http2-fingerprint': s })).not.toThrow()
    }
  })
})

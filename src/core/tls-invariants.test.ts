import { describe, expect, test } from 'bun:test'
import navigationsFile from '../evidence/fixtures/navigations.json'
import { fixture } from '../evidence/fixtures/load'
import { readClientHello } from '../evidence/tls-client-hello'
import { tlsRecord } from '../evidence/tls-records'
import { HTTP2_INVARIANTS, http2Broken, http2Shape } from './http2-invariants'
import { chromiumSignatureShape, HELLO_INVARIANTS, helloBroken, ORDER_INVARIANTS, orderBroken, type HelloShape } from './tls-invariants'
import { isGreaseValue } from './tls-versions'

interface Navigation {
  engine: 'chromium' | 'firefox' | 'webkit'
  step: string
  records: Array<{ kind: string; data: Record<string, unknown> }>
}
const NAVIGATIONS = (navigationsFile as { navigations: Navigation[] }).navigations
const hellosOf = (n: Navigation) => n.records.filter((r) => r.kind === 'tls').map((r) => r.data as unknown as HelloShape)
const helloOf = (engine: Navigation['engine']) => NAVIGATIONS.filter((n) => n.engine === engine).flatMap(hellosOf)
const akamaisOf = (engine: Navigation['engine']) => NAVIGATIONS.filter((n) => n.engine === engine).flatMap((n) => n.records.filter((r) => r.kind === 'http2').map((r) => String(r.data.akamai)))

const hexHello = (name: string): HelloShape => {
  const p = readClientHello(fixture(name))
  if (p.status !== 'complete') throw new Error(`${name} is not a whole hello`)
  return tlsRecord(p.hello, { protocol: 'TLSv1.3', alpn: 'h2', cipher: null })
}
const ids = (list: ReadonlyArray<{ id: string }>) => list.map((b) => b.id)
const VERSIONS = [null, 110, 149, 156, 170]

describe('family invariants', () => {
  test('every invariant names its source', () => {
    for (const i of [...HELLO_INVARIANTS, ...HTTP2_INVARIANTS, ...ORDER_INVARIANTS]) expect(i.source.length).toBeGreaterThan(20)
  })

  test('every captured Chromium 156 hello holds BoringSSL\'s invariants whatever version is claimed (149, 170: no row)', () => {
    const hellos = helloOf('chromium')
    expect(hellos.length).toBeGreaterThan(10)
    for (const major of VERSIONS) for (const h of hellos) expect(helloBroken('chromium', h, major)).toEqual([])
    for (const major of VERSIONS) for (const a of akamaisOf('chromium')) expect(http2Broken('chromium', http2Shape(a), major)).toEqual([])
  })

  test("every captured Firefox ESR 153 hello holds NSS's invariants whatever version is claimed", () => {
    const hellos = helloOf('firefox')
    expect(hellos.length).toBeGreaterThan(5)
    for (const major of VERSIONS) for (const h of hellos) expect(helloBroken('firefox', h, major)).toEqual([])
    for (const major of VERSIONS) for (const a of akamaisOf('firefox')) expect(http2Broken('firefox', http2Shape(a), major)).toEqual([])
  })

  test("each page load's hellos: Chromium's permuted, Firefox's in one order; one hello alone is not judged", () => {
    for (const n of NAVIGATIONS.filter((x) => x.engine !== 'webkit')) {
      const hellos = hellosOf(n)
      const family = n.engine === 'chromium' ? 'chromium' : 'firefox'
      const r = orderBroken(family, hellos, 156)
      expect({ step: n.step, engine: n.engine, broken: r.broken, judged: r.judged }).toEqual({ step: n.step, engine: n.engine, broken: [], judged: hellos.length >= 2 })
    }
    // The same order on two connections is not Chrome since 110 (a fixed hello replayed, a library that does not permute).
    const one = helloOf('chromium')[0]!
    expect(ids(orderBroken('chromium', [one, { extensions: [...one.extensions] }], 156).broken)).toEqual(['extension-permutation'])
    expect(orderBroken('chromium', [one, { extensions: [...one.extensions] }], 109).broken).toEqual([])
    // Firefox in two orders only warns: NSS can permute (a preference).
    const ff = helloOf('firefox')[0]!
    expect(orderBroken('firefox', [ff, { extensions: [...ff.extensions].reverse() }], 153).broken).toEqual([expect.objectContaining({ id: 'fixed-extension-order', severity: 'warn' })])
  })

  test("a wreq-style hello copying Chrome holds Chromium's invariants when it claims 149: that class is the page proof's to stop", () => {
    expect(helloBroken('chromium', hexHello('tls-wreq-chrome149.hex'), 149)).toEqual([])
  })

  test("Node's OpenSSL hello (a TLS-inspecting proxy's stack) is not Chromium's for any version", () => {
    const node = hexHello('tls-node-openssl.hex')
    for (const major of VERSIONS) {
      const broken = helloBroken('chromium', node, major)
      expect(ids(broken)).toEqual(['grease-cipher', 'grease-extensions', 'grease-groups', 'grease-versions', 'grease-key-share', 'alps', 'signature-shape'])
      expect(broken.find((b) => b.id === 'signature-shape')?.detail).toContain('EdDSA (0x0807, 0x0808)')
    }
    expect(ids(helloBroken('firefox', node, 153))).toEqual(['record-size-limit', 'delegated-credentials', 'signature-sha1-last'])
  })

  test("Chrome's cipher suites and extensions without GREASE are not Chromium's", () => {
    const chrome = helloOf('chromium')[0]!
    const strip = (l: readonly number[] | null | undefined) => (l ?? []).filter((v) => !isGreaseValue(v))
    const bare: HelloShape = { ciphers: strip(chrome.ciphers), extensions: strip(chrome.extensions), groups: strip(chrome.groups), versions: strip(chrome.versions), key_shares: strip(chrome.key_shares), signature_algorithms: strip(chrome.signature_algorithms) }
    expect(ids(helloBroken('chromium', bare, 149))).toEqual(['grease-cipher', 'grease-extensions', 'grease-groups', 'grease-versions', 'grease-key-share'])
    // GREASE among the cipher suites only (a library's half copy): the extensions still tell.
    expect(ids(helloBroken('chromium', { ...bare, ciphers: chrome.ciphers }, 149))).toEqual(['grease-extensions', 'grease-groups', 'grease-versions', 'grease-key-share'])
  })

  test("Firefox's hello claimed as Chrome is not Chromium's, and Chromium's claimed as Firefox is not NSS's", () => {
    expect(ids(helloBroken('chromium', helloOf('firefox')[0]!, 156))).toEqual(['grease-cipher', 'grease-extensions', 'grease-groups', 'grease-versions', 'grease-key-share', 'alps', 'signature-shape'])
    expect(ids(helloBroken('firefox', helloOf('chromium')[0]!, 153))).toEqual(['no-grease', 'record-size-limit', 'delegated-credentials', 'signature-sha1-last'])
  })

  test('ALPS is not asked of a connection that offers no h2 (HTTP/2 switched off)', () => {
    const chrome = helloOf('chromium')[0]!
    const noAlps = { ...chrome, extensions: chrome.extensions.filter((e) => e !== 0x44cd) }
    expect(ids(helloBroken('chromium', noAlps, 156))).toEqual(['alps'])
    expect(helloBroken('chromium', { ...noAlps, alpn: ['http/1.1'] }, 156)).toEqual([])
  })

  test("Chromium's signature-algorithm shape: before 123 a trailing rsa_pkcs1_sha1 is Chrome's own, after it not", () => {
    const chrome109 = [0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601, 0x0201]
    expect(chromiumSignatureShape(chrome109, 109)).toEqual([])
    expect(chromiumSignatureShape(chrome109, 130)).toEqual(['SHA-1 (0x0201)'])
    expect(chromiumSignatureShape([0x0403, 0x0401, 0x0804], 156)).toEqual(['0x0401 before 0x0804 (Chromium puts RSA-PSS first)'])
    expect(chromiumSignatureShape([0x0804, 0x0403], 156)).toEqual(['0x0804 first instead of ecdsa_secp256r1_sha256 (0x0403)'])
  })

  test("HTTP/2: Chrome's pseudo-header order over other SETTINGS is not Chromium's; a newer setting after Chrome's own is", () => {
    expect(ids(http2Broken('chromium', http2Shape('3:100;4:10485760;2:0|1048510465|0|m,a,s,p'), 149))).toEqual(['settings', 'window-update'])
    expect(ids(http2Broken('chromium', http2Shape('1:65536;3:1000;4:6291456;6:262144|15663105|0|m,a,s,p'), 100))).toEqual([])
    expect(ids(http2Broken('chromium', http2Shape('1:65536;2:0;4:6291456;6:262144;9:1|15663105|0|m,a,s,p'), 170))).toEqual([])
    expect(ids(http2Broken('chromium', http2Shape('1:65536;2:0;4:131072;5:16384|12517377|0|m,p,a,s'), 156))).toEqual(['settings', 'window-update', 'pseudo-order'])
    expect(ids(http2Broken('firefox', http2Shape('1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p'), 153))).toEqual(['settings', 'window-update', 'pseudo-order'])
    // Safari's published values (not captured here) hold Apple's.
    for (const a of ['2:0;4:4194304;3:100|10485760|0|m,s,p,a', '2:0;3:100;4:2097152;9:1|10420225|0|m,s,a,p', '4:4194304;3:100|10485760|0|m,s,p,a']) expect(http2Broken('safari', http2Shape(a), 18)).toEqual([])
  })
})

import { describe, expect, test } from 'bun:test'
import { fixture } from '../evidence/fixtures/load'
import { parseClientHello } from '../evidence/tls-client-hello'
import { readH2ClientStart } from '../evidence/http2'
import { http2Record, tlsRecord } from '../evidence/tls-records'
import { AKAMAI_FINGERPRINTS, compareFamily, familyVerdict, http2Family, tlsFamily } from './tls-families'

const record = (name: string) => {
  const h = parseClientHello(fixture(name))
  if (!h.ok) throw new Error(h.detail)
  return tlsRecord(h.value, { protocol: null, alpn: null, cipher: null })
}

describe('TLS stack families', () => {
  test('captured Chromium 156 hellos (with and without SNI) are BoringSSL', () => {
    for (const f of ['tls-chromium-ip.hex', 'tls-chromium-sni.hex', 'tls-chromium-sni-2.hex']) expect(tlsFamily(record(f)).family).toBe('chromium')
  })

  test('captured curl (OpenSSL 3.0) is an OpenSSL client', () => {
    expect(tlsFamily(record('tls-curl-ip.hex')).family).toBe('openssl')
    expect(tlsFamily(record('tls-curl-sni.hex')).family).toBe('openssl')
  })

  test("Chrome's cipher list without GREASE or ALPS is not Chrome (a library copying it)", () => {
    const r = { ...record('tls-chromium-ip.hex'), grease: false }
    expect(tlsFamily(r).family).toBe('unknown')
    const noAlps = record('tls-chromium-ip.hex')
    expect(tlsFamily({ ...noAlps, alps: null, extensions: noAlps.extensions.filter((e) => e !== 17513 && e !== 17613) }).family).toBe('unknown')
  })

  test("Chrome's cipher list with ALPS but a GREASE cipher only, and OpenSSL's signature algorithms, is not Chromium (issue 56: a library passed as BoringSSL)", () => {
    const chrome = record('tls-chromium-ip.hex')
    const grease = (v: number) => (v & 0x0f0f) === 0x0a0a && v >> 8 === (v & 0xff)
    const strip = (l: number[]) => l.filter((v) => !grease(v))
    const openssl = [0x0403, 0x0503, 0x0603, 0x0807, 0x0808, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601]
    const copy = { ...chrome, extensions: strip(chrome.extensions), groups: strip(chrome.groups), versions: strip(chrome.versions), key_shares: strip(chrome.key_shares), signature_algorithms: openssl }
    expect(copy.grease).toBe(true)
    const guess = tlsFamily(copy)
    expect(guess.family).toBe('unknown')
    expect(guess.reasons.join('; ')).toContain("not BoringSSL's")
    expect(tlsFamily({ ...chrome, signature_algorithms: openssl }).family).toBe('unknown')
    expect(tlsFamily(chrome).family).toBe('chromium')
  })

  test('a proxy header shows no GREASE: unknown GREASE and ALPS do not contradict the cipher hash', () => {
    const chromium = tlsFamily({ ja4: 't13d1516h2_8daaf6152771_02713d6af862', grease: null, extensions: null, alps: null, record_size_limit: null })
    expect(chromium?.family).toBe('chromium')
    expect(chromium?.reasons).toContain('GREASE not visible in a proxy header (JA3 and JA4 leave it out)')
    expect(chromium?.reasons).toContain('extension list not visible (ALPS, record_size_limit unknown)')
    expect(tlsFamily({ ja4: 't13d3112h2_e8f1e7e78f70_b26ce05bbdd6', grease: null, extensions: null, alps: null, record_size_limit: null })?.family).toBe('openssl')
    // From a JA3 string: the cipher hash without a JA4, and an extension list that does show ALPS.
    expect(tlsFamily({ ja4: null, cipher_hash: '8daaf6152771', grease: null, extensions: [0, 17613, 43], alps: null, record_size_limit: null })?.family).toBe('chromium')
    // …or shows it missing: Chrome's ciphers without ALPS are a library copying them.
    expect(tlsFamily({ ja4: null, cipher_hash: '8daaf6152771', grease: null, extensions: [0, 43], alps: null, record_size_limit: null })?.family).toBe('unknown')
    // record_size_limit in the list with GREASE unknown still points at NSS.
    expect(tlsFamily({ ja4: null, cipher_hash: null, grease: null, extensions: [0, 28, 43], alps: null, record_size_limit: null })?.family).toBe('firefox')
  })

  test('nothing to read a stack from (a JA3 hash alone) gives no family rather than a guess', () => {
    expect(tlsFamily({ ja4: null, grease: null, extensions: null, alps: null, record_size_limit: null })).toBeNull()
  })

  test('Firefox is recognised by its cipher hash, or by record_size_limit without GREASE', () => {
    expect(tlsFamily({ ja4: 't13d1715h2_5b57614c22b0_3d5424432f57', grease: false, extensions: [], alps: null, record_size_limit: 16385 }).family).toBe('firefox')
    expect(tlsFamily({ ja4: 't13d1717h2_000000000000_000000000000', grease: false, extensions: [], alps: null, record_size_limit: 16385 }).family).toBe('firefox')
    expect(tlsFamily({ ja4: 't13d2014h2_a09f3c656075_14788d8d241b', grease: true, extensions: [], alps: null, record_size_limit: null }).family).toBe('safari')
  })

  test('HTTP/2: exact Akamai values, then pseudo-header order', () => {
    for (const k of AKAMAI_FINGERPRINTS) expect(http2Family(k.text).family).toBe(k.family)
    expect(http2Family('1:65536;2:0;4:6291456;6:262144;9:1|15663105|0|m,a,s,p').family).toBe('chromium')
    // Firefox's pseudo-header order over SETTINGS and a window that are not Firefox's: not Firefox (issue 56).
    expect(http2Family('1:65536;2:0;4:131072;5:16384|12517377|0|m,p,a,s').family).toBe('firefox')
    expect(http2Family('1:1|1|0|m,p,a,s').family).toBe('unknown')
    expect(http2Family('1:1|1|0|p,m').family).toBe('unknown')
  })

  test('comparing with the claimed engine', () => {
    expect(compareFamily('chromium', { engine: 'blink' })).toBe('match')
    expect(compareFamily('openssl', { engine: 'blink' })).toBe('mismatch')
    expect(compareFamily('firefox', { engine: 'blink' })).toBe('mismatch')
    expect(compareFamily('unknown', { engine: 'blink' })).toBe('unknown')
    expect(compareFamily('safari', { engine: 'webkit', os: 'mac' })).toBe('match')
  })

  test('captured WebKitGTK 2.50 (GNOME Web\'s engine) speaks GnuTLS and libsoup, which fit WebKit off Apple systems only', () => {
    const hello = tlsFamily(record('tls-webkitgtk-ip.hex'))
    expect(hello.family).toBe('gnutls')
    expect(hello.reasons).toContain('TLS_AES_128_CCM_SHA256 offered (GnuTLS)')
    // Without the cipher hash in the table, the CCM suite alone tells GnuTLS from NSS (both send record_size_limit).
    expect(tlsFamily({ ...record('tls-webkitgtk-ip.hex'), ja4: 't13d2913h2_000000000000_000000000000' }).family).toBe('gnutls')
    const start = readH2ClientStart(fixture('h2-webkitgtk.hex'))
    if (start.status !== 'complete') throw new Error('h2-webkitgtk.hex is not a complete h2 start')
    expect(http2Family(http2Record(start.start).akamai).family).toBe('libsoup')
    for (const family of ['gnutls', 'libsoup'] as const) {
      expect(compareFamily(family, { engine: 'webkit', os: 'linux' })).toBe('match')
      expect(compareFamily(family, { engine: 'webkit' })).toBe('match')
      // Safari on a Mac or an iPhone uses Apple's stack; GnuTLS there is a Linux WebKit posing as Safari.
      expect(compareFamily(family, { engine: 'webkit', os: 'mac' })).toBe('mismatch')
      expect(compareFamily(family, { engine: 'webkit', os: 'ios' })).toBe('mismatch')
      expect(compareFamily(family, { engine: 'blink', os: 'linux' })).toBe('mismatch')
      expect(familyVerdict(family, { family: 'tool', engine: 'unknown' })).toBe('pass')
    }
    // An OpenSSL library wearing a WebKitGTK user agent is still caught.
    expect(compareFamily('openssl', { engine: 'webkit', os: 'linux' })).toBe('mismatch')
    // GREASE never comes from GnuTLS: CCM with GREASE is a library copying, not GnuTLS.
    expect(tlsFamily({ ...record('tls-webkitgtk-ip.hex'), grease: true }).family).toBe('unknown')
  })
})

describe('familyVerdict', () => {
  test('browser claims need their stack; tool claims any library stack', () => {
    expect(familyVerdict('chromium', { family: 'chrome', engine: 'blink' })).toBe('pass')
    expect(familyVerdict('openssl', { family: 'chrome', engine: 'blink' })).toBe('fail')
    expect(familyVerdict('unknown', { family: 'chrome', engine: 'blink' })).toBe('warn')
    expect(familyVerdict('openssl', { family: 'tool', engine: 'unknown' })).toBe('pass')
    expect(familyVerdict('chromium', { family: 'tool', engine: 'unknown' })).toBe('fail')
  })
})

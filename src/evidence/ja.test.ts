import { describe, expect, test } from 'bun:test'
import { fixture } from './fixtures/load'
import { ja3, ja3n, ja4, ja4Alpn, ja4Version, tlsFingerprints } from './ja'
import { parseClientHello, type ClientHello } from './tls-client-hello'

function hello(name: string): ClientHello {
  const r = parseClientHello(fixture(name))
  if (!r.ok) throw new Error(r.detail)
  return r.value
}

const hexList = (s: string) => s.split(',').map((h) => parseInt(h, 16))
const decList = (s: string) => (s === '' ? [] : s.split('-').map(Number))

/** A hello reduced to what the fingerprints read. */
function synthetic(o: { ciphers: number[]; extensions: number[]; sigs?: number[]; alpn?: string[] | null; versions?: number[] | null; groups?: number[]; points?: number[]; version?: number }) {
  return {
    version: o.version ?? 0x0303,
    cipherSuites: o.ciphers,
    extensions: o.extensions.map((type) => ({ type, data: '', length: 0 })),
    signatureAlgorithms: o.sigs ?? null,
    alpn: o.alpn === undefined ? ['h2'] : o.alpn,
    supportedVersions: o.versions === undefined ? [0x0304, 0x0303] : o.versions,
    supportedGroups: o.groups ?? null,
    ecPointFormats: o.points ?? null,
  }
}

describe('JA4 against the published vectors', () => {
  // The worked example of FoxIO's JA4 specification (technical_details/JA4.md).
  const spec = synthetic({
    ciphers: hexList('1301,1302,1303,c02b,c02f,c02c,c030,cca9,cca8,c013,c014,009c,009d,002f,0035'),
    extensions: hexList('001b,0000,0033,0010,4469,0017,002d,000d,0005,0023,0012,002b,ff01,000b,000a,0015'),
    sigs: hexList('0403,0804,0401,0503,0805,0501,0806,0601'),
  })

  test('the specification example gives its JA4, JA4_r, JA4_o and JA4_ro', () => {
    expect(ja4(spec)).toEqual({
      ja4: 't13d1516h2_8daaf6152771_e5627efa2ab1',
      ja4_r:
        't13d1516h2_002f,0035,009c,009d,1301,1302,1303,c013,c014,c02b,c02c,c02f,c030,cca8,cca9_0005,000a,000b,000d,0012,0015,0017,001b,0023,002b,002d,0033,4469,ff01_0403,0804,0401,0503,0805,0501,0806,0601',
      ja4_o: 't13d1516h2_acb858a92679_18f69afefd3d',
      ja4_ro:
        't13d1516h2_1301,1302,1303,c02b,c02f,c02c,c030,cca9,cca8,c013,c014,009c,009d,002f,0035_001b,0000,0033,0010,4469,0017,002d,000d,0005,0023,0012,002b,ff01,000b,000a,0015_0403,0804,0401,0503,0805,0501,0806,0601',
    })
  })

  test('without signature algorithms the extension list is hashed without an underscore', () => {
    expect(ja4({ ...spec, signatureAlgorithms: null }).ja4).toBe('t13d1516h2_8daaf6152771_6d807ffa2a79')
  })

  test('GREASE anywhere changes nothing', () => {
    const greased = { ...spec, cipherSuites: [0x0a0a, ...spec.cipherSuites], extensions: [{ type: 0xfafa, data: '', length: 0 }, ...spec.extensions], signatureAlgorithms: [0x1a1a, ...spec.signatureAlgorithms!], supportedVersions: [0xdada, 0x0304] }
    expect(ja4(greased)).toEqual(ja4(spec))
  })

  // A Chrome 143 hello as browserleaks.com reported it (JA3 text, JA4_ro and every hash).
  const browserleaks = synthetic({
    ciphers: decList('4865-4866-4867-49195-49199-49196-49200-52393-52392-49171-49172-156-157-47-53'),
    extensions: decList('45-51-16-65037-23-17613-0-11-10-43-65281-35-18-5-13-27'),
    sigs: hexList('0403,0804,0401,0503,0805,0501,0806,0601'),
    groups: [4588, 29, 23, 24],
    points: [0],
    version: 771,
  })

  test('a published Chrome 143 hello gives the published JA3, JA3N and JA4 values', () => {
    const fp = tlsFingerprints(browserleaks)
    expect(fp.ja3).toEqual({ text: '771,4865-4866-4867-49195-49199-49196-49200-52393-52392-49171-49172-156-157-47-53,45-51-16-65037-23-17613-0-11-10-43-65281-35-18-5-13-27,4588-29-23-24,0', hash: '98487aa16281980e7d1120d399efb6a4' })
    expect(fp.ja3n).toEqual({ text: '771,4865-4866-4867-49195-49199-49196-49200-52393-52392-49171-49172-156-157-47-53,0-5-10-11-13-16-18-23-27-35-43-45-51-17613-65037-65281,4588-29-23-24,0', hash: '8e19337e7524d2573be54efb2b0784c9' })
    expect(fp.ja4.ja4).toBe('t13d1516h2_8daaf6152771_d8a2da3f94cd')
    expect(fp.ja4.ja4_o).toBe('t13d1516h2_acb858a92679_f96a17c57971')
  })
})

describe('fingerprints of the captured hellos', () => {
  // FoxIO's own Rust tests expect this JA4 for a recent Chrome hello (snapshot of sigalg-grease.pcapng),
  // which adds ML-DSA and GREASE signature algorithms and extension 0xca34 to the older shape.
  test('Chromium 156 has the JA4 FoxIO publishes for current Chrome', () => {
    expect(ja4(hello('tls-chromium-sni.hex')).ja4).toBe('t13d1517h2_8daaf6152771_cb7bf5808d99')
  })

  test('Chromium to an IP literal: "i" and one extension fewer, same hashes', () => {
    expect(ja4(hello('tls-chromium-ip.hex')).ja4).toBe('t13i1516h2_8daaf6152771_cb7bf5808d99')
  })

  test("Chromium's shuffled extensions change JA3 and JA4_o between connections but not JA3N or JA4", () => {
    const a = hello('tls-chromium-sni.hex')
    const b = hello('tls-chromium-sni-2.hex')
    expect(ja3(a).hash).not.toBe(ja3(b).hash)
    expect(ja4(a).ja4_o).not.toBe(ja4(b).ja4_o)
    expect(ja3n(a)).toEqual(ja3n(b))
    expect(ja3n(a).hash).toBe('bd4930bd9b000ee684830e44bab76fdf')
    expect(ja4(a).ja4).toBe(ja4(b).ja4)
  })

  test('curl 7.88 with OpenSSL 3.0 has its published JA3 and JA4', () => {
    const h = hello('tls-curl-sni.hex')
    expect(ja3(h).hash).toBe('0149f47eabf9a20d0893e2a44e5a6323')
    expect(ja3n(h).hash).toBe('22441e3edb4a151c17462a438c7a10a5')
    expect(ja4(h).ja4).toBe('t13d3112h2_e8f1e7e78f70_b26ce05bbdd6')
    expect(ja4(hello('tls-curl-ip.hex')).ja4).toBe('t13i3111h2_e8f1e7e78f70_b26ce05bbdd6')
  })

  test('JA3 keeps the legacy version and lists point formats', () => {
    expect(ja3(hello('tls-curl-sni.hex')).text).toMatch(/^771,4866-4867-4865-.*,29-23-30-25-24-256-257-258-259-260,0-1-2$/)
  })
})

describe('JA4 parts', () => {
  test('ALPN: first and last characters, hex for non-alphanumeric ends, 00 when absent', () => {
    const bytes = (...b: number[]) => String.fromCharCode(...b)
    expect(ja4Alpn(['h2', 'http/1.1'])).toBe('h2')
    expect(ja4Alpn(['http/1.1'])).toBe('h1')
    expect(ja4Alpn(null)).toBe('00')
    expect(ja4Alpn([])).toBe('00')
    expect(ja4Alpn([''])).toBe('00')
    expect(ja4Alpn(['x'])).toBe('xx')
    // The specification's examples.
    expect(ja4Alpn([bytes(0xab)])).toBe('ab')
    expect(ja4Alpn([bytes(0xab, 0xcd)])).toBe('ad')
    expect(ja4Alpn([bytes(0x30, 0xab)])).toBe('3b')
    expect(ja4Alpn([bytes(0x30, 0x31, 0xab, 0xcd)])).toBe('3d')
    expect(ja4Alpn([bytes(0x30, 0xab, 0xcd, 0x31)])).toBe('01')
  })

  test('version: the highest supported_versions entry, else legacy_version, else 00', () => {
    expect(ja4Version({ version: 0x0303, supportedVersions: [0x0a0a, 0x0304, 0x0303] })).toBe('13')
    expect(ja4Version({ version: 0x0303, supportedVersions: [0x0302, 0x0304] })).toBe('13')
    expect(ja4Version({ version: 0x0303, supportedVersions: null })).toBe('12')
    expect(ja4Version({ version: 0x0301, supportedVersions: [0x2a2a] })).toBe('10')
    expect(ja4Version({ version: 0x0305, supportedVersions: null })).toBe('00')
    expect(ja4Version({ version: 0xfefd, supportedVersions: [0xfefd, 0xfefc] })).toBe('d3')
  })

  test('counts stop at 99 and empty lists hash to twelve zeros', () => {
    const many = synthetic({ ciphers: Array.from({ length: 120 }, (_, i) => i + 1), extensions: [], alpn: null, versions: null })
    expect(ja4(many).ja4).toMatch(/^t12i990000_[0-9a-f]{12}_000000000000$/)
    expect(ja4(synthetic({ ciphers: [], extensions: [0, 16], alpn: null })).ja4).toBe('t13d000200_000000000000_000000000000')
    expect(ja4(synthetic({ ciphers: [0x1301], extensions: [43] }), 'q').ja4).toMatch(/^q13i0101h2_/)
  })
})

import { describe, expect, test } from 'bun:test'
import { fixture } from './fixtures/load'
import { createHpackDecoder, decodeHeaderBlock } from './hpack'
import { parseH2ClientStart } from './http2'
import { parseHttp1Head } from './http1'
import { parseClientHello } from './tls-client-hello'
import { evidenceNonce, h2Response, h2ServerPreface, hpackEncode, http1Record, http1Response, http2Record, rttRecord, tlsRecord } from './tls-records'

describe('evidence records', () => {
  test('tls: Chromium 156 keeps GREASE and ALPS, and its JA4 is t13', () => {
    const h = parseClientHello(fixture('tls-chromium-ip.hex'))
    if (!h.ok) throw new Error(h.detail)
    const r = tlsRecord(h.value, { protocol: 'TLSv1.3', alpn: 'h2', cipher: null })
    expect(r.ja4).toBe('t13i1516h2_8daaf6152771_cb7bf5808d99')
    expect(r).toMatchObject({ version: '13', grease: true, sni: null, alpn: ['h2', 'http/1.1'], alps: 17613 })
    expect(r.ja4_r).toStartWith('t13i1516h2_002f,')
    expect(JSON.parse(JSON.stringify(r))).toEqual(r)
  })

  test('http2 and http1 records', () => {
    const s = parseH2ClientStart(fixture('h2-curl.hex'))
    if (!s.ok) throw new Error(s.detail)
    expect(http2Record(s.value)).toMatchObject({ akamai: '3:100;4:33554432;2:0|33488897|0|m,p,s,a', path: '/path?q=1', window_update: 33488897 })
    const h = parseHttp1Head(fixture('http1-chromium.hex'))
    if (!h.ok) throw new Error(h.detail)
    const r = http1Record(h.value)
    expect(r.version).toBe('HTTP/1.1')
    expect(r.headers[0]![0]).toBe('Host')
  })

  test('credentials are redacted before an http1 record is stored: names and order stay', () => {
    const key = `ab_${'x'.repeat(32)}`
    const r = http1Record({
      version: 'HTTP/1.1',
      method: 'GET',
      target: `/tools/bot-detector?apikey=${key}`,
      headers: [
        { name: 'Host', value: 'a' },
        { name: 'Cookie', value: 'ab_session=secret' },
        { name: 'Proxy-Authorization', value: 'Basic dTpw' },
      ],
      bareLineFeeds: false,
    } as Parameters<typeof http1Record>[0])
    expect(r.headers.map((h) => h[0])).toEqual(['Host', 'Cookie', 'Proxy-Authorization'])
    expect(JSON.stringify(r)).not.toContain('secret')
    expect(JSON.stringify(r)).not.toContain('dTpw')
    expect(r.path).not.toContain(key)
  })

  test('rtt: microseconds become milliseconds, the PING round trip is the fastest answer', () => {
    expect(rttRecord(48, [0.41234, 0.2, 0.3], 'h2')).toEqual({ tcp_rtt_ms: 0.048, h2_ping_rtt_ms: 0.2, ping_samples: [0.412, 0.2, 0.3], transport: 'h2' })
    expect(rttRecord(null, [], 'h2')).toEqual({ tcp_rtt_ms: null, h2_ping_rtt_ms: null, ping_samples: [], transport: 'h2' })
    expect(rttRecord(120_000, [Number.NaN, -1], 'http/1.1')).toEqual({ tcp_rtt_ms: 120, h2_ping_rtt_ms: null, ping_samples: [], transport: 'http/1.1' })
  })

  test('evidenceNonce takes /evidence/<nonce> only', () => {
    const n = 'abcdefghijklmnopqrstuvwxyz'
    expect(evidenceNonce(`/evidence/${n}`)).toBe(n)
    expect(evidenceNonce(`/evidence/${n}?x=1`)).toBe(n)
    expect(evidenceNonce(`/evidence/${n}x`)).toBeNull()
    expect(evidenceNonce(`/evidence/${n.toUpperCase()}`)).toBeNull()
    expect(evidenceNonce(null)).toBeNull()
  })

  test('the HPACK block decodes back to the fields, long values included', () => {
    const long = 'x'.repeat(300)
    const block = hpackEncode(200, [['Content-Type', 'application/json'], ['x-long', long]])
    const d = decodeHeaderBlock(createHpackDecoder(), block)
    expect(d.ok && d.value).toEqual([{ name: ':status', value: '200' }, { name: 'content-type', value: 'application/json' }, { name: 'x-long', value: long }])
    const d404 = decodeHeaderBlock(createHpackDecoder(), hpackEncode(404, []))
    expect(d404.ok && d404.value).toEqual([{ name: ':status', value: '404' }])
  })

  test('h2 frames: preface is SETTINGS + ACK; the response is HEADERS, DATA with END_STREAM, GOAWAY', () => {
    expect(Array.from(h2ServerPreface())).toEqual([0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0])
    // MAX_CONCURRENT_STREAMS 100 and MAX_HEADER_LIST_SIZE 16384 (RFC 9113 §6.5.2), then the ACK.
    expect(Array.from(h2ServerPreface([[3, 100], [6, 16384]]))).toEqual([0, 0, 12, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 100, 0, 6, 0, 0, 0x40, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0])
    const bytes = h2Response(1, 200, [], '{}')
    const frames: Array<[number, number, number, number]> = []
    for (let p = 0; p < bytes.length; ) {
      const len = (bytes[p]! << 16) | (bytes[p + 1]! << 8) | bytes[p + 2]!
      frames.push([bytes[p + 3]!, bytes[p + 4]!, (bytes[p + 5]! << 24) | (bytes[p + 6]! << 16) | (bytes[p + 7]! << 8) | bytes[p + 8]!, len])
      p += 9 + len
    }
    expect(frames.map(([t, f, s]) => [t, f, s])).toEqual([[1, 4, 1], [0, 1, 1], [7, 0, 0]])
    expect(frames[1]![3]).toBe(2)
  })

  test('http1Response sets the length and closes', () => {
    expect(new TextDecoder().decode(http1Response(404, 'Not Found', [['a', 'b']], 'hi'))).toBe('HTTP/1.1 404 Not Found\r\na: b\r\ncontent-length: 2\r\nconnection: close\r\n\r\nhi')
  })
})

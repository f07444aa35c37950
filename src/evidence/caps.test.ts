import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { boundEvidenceData, capEvidence, EVIDENCE_CAPS, EVIDENCE_KINDS, jsonBytes, MAX_EVIDENCE_BYTES } from './caps'
import { fixture } from './fixtures/load'
import { readClientHello } from './tls-client-hello'
import { http1Record, http2Record, tlsRecord } from './tls-records'
import { readH2ClientStart } from './http2'
import { readHttp1Head } from './http1'

describe('boundEvidenceData', () => {
  test("real records fit their kind's size untouched", () => {
    const negotiated = { protocol: 'TLSv1.3', alpn: 'h2', cipher: 'TLS_AES_128_GCM_SHA256' }
    for (const f of ['tls-chromium-sni.hex', 'tls-curl-sni.hex']) {
      const r = readClientHello(fixture(f))
      if (r.status !== 'complete') throw new Error(f)
      const record = tlsRecord(r.hello, negotiated)
      expect(boundEvidenceData(record, EVIDENCE_CAPS.tls.itemBytes)).toEqual({ data: record, truncated: false })
    }
    const h2 = readH2ClientStart(fixture('h2-chromium.hex'))
    if (h2.status !== 'complete') throw new Error('h2')
    const rtt = { tcp_rtt_ms: 0.031, h2_ping_rtt_ms: 0.112, ping_samples: [0.112, 0.13, 0.129], transport: 'h2' }
    const h2record = { ...http2Record(h2.start), rtt }
    expect(boundEvidenceData(h2record, EVIDENCE_CAPS.http2.itemBytes)?.truncated).toBe(false)
    const h1 = readHttp1Head(fixture('http1-chromium.hex'))
    if (h1.status !== 'complete') throw new Error('h1')
    expect(boundEvidenceData({ ...http1Record(h1.head), rtt }, EVIDENCE_CAPS.http1.itemBytes)?.truncated).toBe(false)
  })

  test('an oversized record is cut to fit and marked; strings never lose half a surrogate pair', () => {
    const headers = Array.from({ length: 200 }, (_, i) => [`X-H${i}`, '€'.repeat(300) + '😀'.repeat(300)])
    const r = boundEvidenceData({ version: 'HTTP/1.1', headers }, EVIDENCE_CAPS.http1.itemBytes)!
    expect(r.truncated).toBe(true)
    expect(jsonBytes(r.data)).toBeLessThanOrEqual(EVIDENCE_CAPS.http1.itemBytes)
    const data = r.data as { version: string; headers: string[][]; truncated: boolean }
    expect(data.version).toBe('HTTP/1.1')
    expect(data.truncated).toBe(true)
    expect(data.headers.length).toBeGreaterThan(0)
    for (const [, v] of data.headers) expect(v).toBe(Buffer.from(v!, 'utf8').toString('utf8'))
  })

  test('NUL becomes U+FFFD (jsonb refuses it)', () => {
    expect(boundEvidenceData({ ua: 'a\u0000b' }, 100)).toEqual({ data: { ua: 'a\uFFFDb' }, truncated: false })
  })

  test('what cannot be made to fit is refused', () => {
    expect(boundEvidenceData({ a: 'x'.repeat(40) }, 10)).toBeNull()
  })

  test('any JSON value comes out within the size, or not at all', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 64, max: 4096 }), (value, max) => {
        const r = boundEvidenceData(value, max)
        if (r) expect(jsonBytes(r.data)).toBeLessThanOrEqual(max)
      }),
      { numRuns: 500 },
    )
  })
})

describe('capEvidence (the read side)', () => {
  test('keeps the first items of each kind up to its cap and counts the rest, with those counted when filing', () => {
    const items = [
      ...Array.from({ length: 70 }, (_, i) => ({ kind: 'dns', data: { i }, observedAt: '' })),
      { kind: 'tls', data: { ja3: 'x'.repeat(EVIDENCE_CAPS.tls.itemBytes) }, observedAt: '' },
      { kind: 'tls', data: { ja4: 't13' }, observedAt: '' },
    ]
    const r = capEvidence(items, { dns: 5, turn: 2, bogus: -1 })
    expect(r.items.filter((e) => e.kind === 'dns').map((e) => (e.data as { i: number }).i)).toEqual(Array.from({ length: EVIDENCE_CAPS.dns.items }, (_, i) => i))
    expect(r.items.filter((e) => e.kind === 'tls')).toEqual([items[71]!])
    expect(r.dropped).toEqual({ dns: 5 + 70 - EVIDENCE_CAPS.dns.items, turn: 2, tls: 1 })
  })

  test('the caps add up to the documented 108 KiB', () => {
    expect(MAX_EVIDENCE_BYTES).toBe(EVIDENCE_KINDS.reduce((s, k) => s + EVIDENCE_CAPS[k].items * EVIDENCE_CAPS[k].itemBytes, 0))
    expect(MAX_EVIDENCE_BYTES).toBe(108 * 1024)
  })
})

import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { concatBytes } from './bytes'
import { fixture } from './fixtures/load'
import { parseHttp1Head, readHttp1Head, type Http1RequestHead } from './http1'

const text = (s: string) => new TextEncoder().encode(s)

function head(bytes: Uint8Array): Http1RequestHead {
  const r = parseHttp1Head(bytes)
  if (!r.ok) throw new Error(r.detail)
  return r.value
}

describe('captured request heads', () => {
  test('Chromium: Host first, title-case names in its fixed order', () => {
    const h = head(fixture('http1-chromium.hex'))
    expect([h.method, h.target, h.version]).toEqual(['GET', '/', 'HTTP/1.1'])
    expect(h.headers.map((x) => x.name)).toEqual(['Host', 'Connection', 'Upgrade-Insecure-Requests', 'User-Agent', 'Accept', 'Accept-Encoding', 'Accept-Language'])
    expect(h.headers[0]!.value).toMatch(/^evidence\.test:\d+$/)
    expect(h.bareLineFeeds).toBe(false)
  })

  test("curl: its three headers, then the caller's header in the case it was given", () => {
    const h = head(fixture('http1-curl.hex'))
    expect(h.target).toBe('/a/b?c=d')
    expect(h.headers).toEqual([
      { name: 'Host', value: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
      { name: 'User-Agent', value: 'curl/7.88.1' },
      { name: 'Accept', value: '*/*' },
      { name: 'X-Mixed-Case', value: 'yes' },
    ])
  })

  test('every prefix of a capture needs more bytes; the whole head is complete with its length', () => {
    const bytes = fixture('http1-chromium.hex')
    for (let n = 0; n < bytes.length; n++) expect(readHttp1Head(bytes.subarray(0, n)).status).toBe('need-more')
    const withBody = concatBytes([bytes, text('body')])
    expect(readHttp1Head(withBody)).toMatchObject({ status: 'complete', length: bytes.length })
  })
})

describe('request heads', () => {
  test('repeated headers stay separate and in place; values lose only surrounding whitespace', () => {
    const h = head(text('POST /x HTTP/1.0\r\nhost: a\r\nX-A:  1 2 \r\nx-a:\t3\r\nEmpty:\r\n\r\n'))
    expect(h.version).toBe('HTTP/1.0')
    expect(h.headers).toEqual([
      { name: 'host', value: 'a' },
      { name: 'X-A', value: '1 2' },
      { name: 'x-a', value: '3' },
      { name: 'Empty', value: '' },
    ])
  })

  test('bare line feeds are accepted and reported; leading empty lines are skipped', () => {
    const h = head(text('\r\nGET / HTTP/1.1\nHost: a\n\n'))
    expect(h.bareLineFeeds).toBe(true)
    expect(h.headers).toEqual([{ name: 'Host', value: 'a' }])
  })

  test('non-HTTP bytes are recognised early', () => {
    expect(readHttp1Head(Uint8Array.of(0x16, 0x03, 0x01))).toMatchObject({ status: 'not-http' })
    expect(readHttp1Head(text('GE'))).toEqual({ status: 'need-more' })
    expect(readHttp1Head(text('GET\t/'))).toMatchObject({ status: 'not-http' })
  })

  test('malformed heads are errors with a reason', () => {
    const bad = (s: string) => readHttp1Head(text(s))
    expect(bad('GET /\r\n\r\n')).toMatchObject({ status: 'invalid', error: 'bad-request-line' })
    expect(bad('GET / HTTP/1.1 x\r\n\r\n')).toMatchObject({ status: 'invalid', error: 'bad-request-line' })
    expect(bad('GET / http/1.1\r\n\r\n')).toMatchObject({ status: 'invalid', error: 'bad-request-line' })
    expect(bad('GET / HTTP/1.1\r\nHost : a\r\n\r\n')).toMatchObject({ status: 'invalid', error: 'bad-header' })
    expect(bad('GET / HTTP/1.1\r\nNoColon\r\n\r\n')).toMatchObject({ status: 'invalid', error: 'bad-header' })
    expect(bad('GET / HTTP/1.1\r\nA: 1\r\n folded\r\n\r\n')).toMatchObject({ status: 'invalid', error: 'obs-fold' })
    expect(bad('GET / HTTP/1.1\r\nA: 1\r2\r\n\r\n')).toMatchObject({ status: 'invalid', error: 'bad-header' })
  })

  test('a head longer than the limit is refused instead of buffered forever', () => {
    const long = text(`GET / HTTP/1.1\r\nX: ${'a'.repeat(100)}`)
    expect(readHttp1Head(long, 64)).toMatchObject({ status: 'invalid', error: 'too-large' })
    const many = text(`GET / HTTP/1.1\r\n${'A: 1\r\n'.repeat(201)}\r\n`)
    expect(readHttp1Head(many)).toMatchObject({ status: 'invalid', error: 'too-large' })
  })

  test('random bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (b) => {
        readHttp1Head(b)
        readHttp1Head(concatBytes([text('GET / HTTP/1.1\r\n'), b, text('\r\n\r\n')]))
      }),
      { numRuns: 500 },
    )
  })
})

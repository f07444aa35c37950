import { describe, expect, test } from 'bun:test'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { runChecks } from '../core/judge'
import { acceptEncoding, browserHeadersPresent, secFetch } from './browser-headers'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const BASE: Array<[string, string]> = [['host', 'a'], ['user-agent', CHROME], ['accept', '*/*'], ['accept-language', 'en'], ['accept-encoding', 'gzip, deflate, br, zstd'], ['origin', 'https://a'], ['sec-fetch-site', 'same-origin'], ['sec-fetch-mode', 'cors'], ['sec-fetch-dest', 'empty']]
const page = (secureContext: boolean) => ({ context: { ok: true, value: { secureContext, protocol: secureContext ? 'https:' : 'http:', hostname: 'a' }, ms: 1 } }) as unknown as HttpHeadersSignals
const set = (name: string, value: string | null) => BASE.flatMap(([n, v]): Array<[string, string]> => (n !== name ? [[n, v]] : value === null ? [] : [[n, value]]))
const run = (headers: Array<[string, string]>, secure = true) =>
  Object.fromEntries(runChecks([[browserHeadersPresent, 30], [acceptEncoding, 15], [secFetch, 25]], page(secure), { ip: '192.0.2.1', userAgent: CHROME, headers, receivedAt: 0 }, {}).checks.map((c) => [c.id, c]))

describe('browser-headers-present, accept-encoding, sec-fetch', () => {
  test("Chrome's own fetch passes all three", () => {
    const r = run(BASE)
    expect([r['browser-headers-present']!.verdict, r['accept-encoding']!.verdict, r['sec-fetch']!.verdict]).toEqual(['pass', 'pass', 'pass'])
  })
  test('missing Origin fails, naming it', () => {
    expect(run(set('origin', null))['browser-headers-present']!.observed).toEqual({ missing: ['origin'] })
  })
  test('without zstd warns, without gzip fails; over plain HTTP br and zstd are not expected', () => {
    expect(run(set('accept-encoding', 'gzip, deflate, br'))['accept-encoding']!.verdict).toBe('warn')
    // Judged by the claim against the wire, which it names.
    expect(run(set('accept-encoding', 'gzip, deflate, br'))['accept-encoding']!.expected).toMatch(/^gzip, deflate, br, zstd for chrome \d+, the browser the User-Agent claims, in a secure context$/)
    expect(run(set('accept-encoding', 'br'))['accept-encoding']!.verdict).toBe('fail')
    expect(run(set('accept-encoding', 'gzip, deflate'), false)['accept-encoding']!.verdict).toBe('pass')
  })
  test('other Sec-Fetch values fail in a secure context; none are expected outside one', () => {
    expect(run(set('sec-fetch-site', 'none'))['sec-fetch']!.verdict).toBe('fail')
    expect(run(set('sec-fetch-site', null), false)['sec-fetch']!.verdict).toBe('na')
  })
})

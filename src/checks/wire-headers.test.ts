import { describe, expect, test } from 'bun:test'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { headerCaseHttpVersion, headerOrder, wireHeaderOrder } from './wire-headers'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
// Chromium 156's HTTP/2 HEADERS for the page's fetch to the listener (tests/tls-fingerprint.e2e.ts).
const CHROMIUM = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'accept-language', 'priority']
const sorted: Array<[string, string]> = [...CHROMIUM].sort().map((n) => [n, n === 'user-agent' ? CHROME : 'v'])
const obs = (evidence: ServerObservation['evidence'] = []): ServerObservation => ({ ip: '192.0.2.1', userAgent: CHROME, headers: sorted, receivedAt: 0, evidence })
const run = (o: ServerObservation) => Object.fromEntries(runChecks([[headerOrder, 25], [headerCaseHttpVersion, 15]], {} as HttpHeadersSignals, o, {}).checks.map((c) => [c.id, c]))
const h2 = (names: string[]) => [{ kind: 'http2', data: { header_order: names }, observedAt: 'x' }]

describe('header-order and header-case-http-version', () => {
  test("without the listener's record the sorted listing says nothing: both na", () => {
    const r = run(obs())
    expect([r['header-order']!.verdict, r['header-case-http-version']!.verdict]).toEqual(['na', 'na'])
    expect(wireHeaderOrder(obs())).toBeNull()
  })
  test("Chromium's wire order over HTTP/2 passes; Playwright's early Accept-Language fails", () => {
    expect(run(obs(h2(CHROMIUM)))['header-order']!.verdict).toBe('pass')
    expect(run(obs(h2(CHROMIUM)))['header-case-http-version']!.verdict).toBe('pass')
    const driven = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'accept-language', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'priority']
    expect(run(obs(h2(driven)))['header-order']!.observed).toMatchObject({ broken: ['accept-encoding after accept-language'] })
  })
  test('a browser on HTTP/1.1 with lower-case names fails', () => {
    const r = run(obs([{ kind: 'http1', data: { version: 'HTTP/1.1', headers: [['host', 'x'], ['user-agent', CHROME]] }, observedAt: 'x' }]))
    expect(r['header-case-http-version']!.verdict).toBe('fail')
    expect(String(r['header-case-http-version']!.observed)).toContain('lower-case names host, user-agent')
  })
})

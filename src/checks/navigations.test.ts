// The wire checks on what real people's browsers sent over real TLS (issue 44): every page of
// src/evidence/fixtures/navigations.json (Chromium, Firefox ESR and GNOME Web browsing the tool
// pages over HTTPS with a certificate their engine trusts — a first visit with Chromium's
// Critical-CH restart, a page typed after another on the warm connection, a reload, a page on a
// new connection that resumes the TLS session with a PSK, the side connection of a page loaded
// over plain HTTP, and HTTP/1.1 over TLS where h2 is not offered; tests/matrix/capture-navigations.ts
// captured them) is judged by every check that reads the listener's records, and none fails.
// The same checks still fail what automation and libraries send.

import { describe, expect, test } from 'bun:test'
import navigationsFile from '../evidence/fixtures/navigations.json'
import type { ServerObservation } from '../core/tools/observation'
import { ja3, ja4, tlsParameters } from './client-hello'
import { transportTls } from './connection-protocol'
import type { CheckDefinition } from './define'
import { headerOrderWire } from './header-order-wire'
import { http2FingerprintFamily, tlsFingerprintFamily } from './tls-match'
import { headerCaseHttpVersion, headerOrder } from './wire-headers'
import { tlsVersion } from './tls-version'
import { fixture } from '../evidence/fixtures/load'
import { readClientHello } from '../evidence/tls-client-hello'
import { tlsRecord } from '../evidence/tls-records'

interface Navigation {
  engine: 'chromium' | 'firefox' | 'webkit'
  browser: string
  step: string
  tool: string
  rendered: boolean
  records: Array<{ kind: string; data: Record<string, unknown> }>
}

const NAVIGATIONS = (navigationsFile as { navigations: Navigation[] }).navigations
const WIRE_CHECKS: CheckDefinition[] = [headerOrderWire, headerOrder, headerCaseHttpVersion, tlsFingerprintFamily, http2FingerprintFamily, ja4, ja3, tlsParameters, transportTls, tlsVersion]

/** The User-Agent the page's own request carried. */
function userAgentOf(n: Navigation): string {
  const own = n.records.find((r) => r.kind !== 'tls')!.data
  if (typeof own.user_agent === 'string') return own.user_agent
  const headers = (own.headers ?? []) as Array<[string, string]>
  return headers.find(([k]) => k.toLowerCase() === 'user-agent')?.[1] ?? ''
}

function observation(n: Navigation, records = n.records): ServerObservation {
  const userAgent = userAgentOf(n)
  return { ip: '127.0.0.1', userAgent, headers: [['user-agent', userAgent]], receivedAt: 0, nonce: 'valid', evidence: records.map((r) => ({ kind: r.kind, data: r.data, observedAt: '2026-11-28T00:00:00Z', address: '127.0.0.1' })) }
}

function judge(check: CheckDefinition, server: ServerObservation) {
  return check.judge({}, { server, ctx: {}, missing: (...names: string[]) => `missing ${names.join(', ')}`, raw: {} })
}

const label = (n: Navigation) => `${n.engine} ${n.step} ${n.tool}${n.rendered ? '' : ' (not run: restarted)'}`

describe('the wire checks on people browsing over real TLS', () => {
  test('the fixtures hold every case, from each engine', () => {
    for (const engine of ['chromium', 'firefox', 'webkit']) {
      const steps = new Set(NAVIGATIONS.filter((n) => n.engine === engine).map((n) => n.step))
      expect([...steps].sort()).toEqual(['first', 'h1-first', 'h1-typed', 'plain', 'reload', 'resumed', 'typed'])
    }
    // Chromium's first visit: the request without the critical hints, then the one it restarts.
    expect(NAVIGATIONS.filter((n) => n.engine === 'chromium' && n.step === 'first').map((n) => n.rendered)).toEqual([false, true])
    // The page on a new connection resumed the TLS session: its ClientHello offers a PSK (extension 41).
    for (const n of NAVIGATIONS.filter((x) => x.step === 'resumed')) expect((n.records[0]!.data.extensions as number[]).includes(41)).toBe(true)
  })

  for (const n of NAVIGATIONS.filter((x) => x.records.length)) {
    test(`${label(n)}: no wire check fails`, () => {
      const server = observation(n)
      const failed = WIRE_CHECKS.map((c) => ({ id: c.id, ...judge(c, server) })).filter((o) => o.verdict === 'fail')
      expect(failed).toEqual([])
    })
  }

  test("each page's own header order is judged, not skipped: the check can fail these requests", () => {
    for (const n of NAVIGATIONS.filter((x) => x.records.length && x.engine !== 'webkit' && x.step !== 'plain')) {
      expect({ page: label(n), verdict: judge(headerOrderWire, observation(n)).verdict }).toEqual({ page: label(n), verdict: 'pass' })
    }
  })

  test("Chromium's restarted navigation is judged by the restart layout, and only a tool page's carrying the critical hints", () => {
    const restarted = NAVIGATIONS.find((n) => n.engine === 'chromium' && n.step === 'first' && n.rendered)!
    const outcome = judge(headerOrderWire, observation(restarted))
    expect(outcome.verdict).toBe('pass')
    expect(outcome.expected).toContain("restarts for the page's Critical-CH")
    const own = restarted.records[1]!.data as { header_order: string[]; path: string }
    const withOrder = (names: string[], path = own.path) => observation(restarted, [restarted.records[0]!, { kind: 'http2', data: { ...own, header_order: names, path } }])
    // Not a tool page (no Critical-CH there): the usual layout, which this order breaks.
    expect(judge(headerOrderWire, withOrder(own.header_order, '/other')).verdict).toBe('fail')
    // Without the critical hints nothing was restarted.
    expect(judge(headerOrderWire, withOrder(own.header_order.filter((h) => h !== 'sec-ch-dpr'))).verdict).toBe('fail')
    // A hint moved past Sec-Fetch-Site, or Accept-Language moved up: not what Chromium writes.
    const moved = own.header_order.filter((h) => h !== 'sec-ch-ua-model')
    moved.splice(moved.indexOf('sec-fetch-mode'), 0, 'sec-ch-ua-model')
    expect(judge(headerOrderWire, withOrder(moved)).verdict).toBe('fail')
    const early = own.header_order.filter((h) => h !== 'accept-language')
    early.splice(early.indexOf('user-agent') + 1, 0, 'accept-language')
    expect(judge(headerOrderWire, withOrder(early)).verdict).toBe('fail')
  })

  test('HTTP/1.1 over TLS fails a browser only where h2 was offered', () => {
    const h1 = NAVIGATIONS.find((n) => n.engine === 'chromium' && n.step === 'h1-typed')!
    const tls = h1.records[0]!.data as { negotiated: Record<string, unknown> }
    const offeredBoth = observation(h1, [{ kind: 'tls', data: { ...tls, negotiated: { ...tls.negotiated, offered: ['h2', 'http/1.1'] } } }, h1.records[1]!])
    expect(judge(headerCaseHttpVersion, offeredBoth).verdict).toBe('fail')
    expect(judge(http2FingerprintFamily, offeredBoth).verdict).toBe('fail')
    expect(judge(headerCaseHttpVersion, observation(h1)).verdict).toBe('pass')
    expect(judge(http2FingerprintFamily, observation(h1)).verdict).toBe('na')
  })

  test("every hello of Chromium 156 and Firefox 153 is its version's own; WebKit's is not judged", () => {
    for (const n of NAVIGATIONS.filter((x) => x.records.length)) {
      const verdict = judge(tlsVersion, observation(n)).verdict
      expect({ page: label(n), verdict }).toEqual({ page: label(n), verdict: n.engine === 'webkit' ? 'na' : 'pass' })
    }
  })

  test("an impersonating client's hello (wreq chrome_149) under a Chrome 156 User-Agent fails, naming what 156 sends; under its own version it holds Chromium's invariants (the page's proof stops that class)", () => {
    const parsed = readClientHello(fixture('tls-wreq-chrome149.hex'))
    if (parsed.status !== 'complete') throw new Error('the fixture is not a hello')
    const record = tlsRecord(parsed.hello, { protocol: 'TLSv1.3', alpn: 'h2', cipher: null, offered: ['h2', 'http/1.1'] })
    const person = NAVIGATIONS.find((n) => n.engine === 'chromium' && n.step === 'typed')!
    const replayed = observation(person, [{ kind: 'tls', data: record as unknown as Record<string, unknown> }, person.records[1]!])
    const outcome = judge(tlsVersion, replayed)
    expect(outcome.verdict).toBe('fail')
    expect(String(outcome.observed)).toContain('lacks extension 0xca34')
    expect(String(outcome.observed)).toContain('0x0904')
    const ua149 = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/149.0.0.0 Safari/537.36'
    // No row for 149: the family's invariants alone, which a faithful copy of Chrome's hello holds.
    const own = judge(tlsVersion, { ...replayed, userAgent: ua149 })
    expect(own.verdict).toBe('pass')
    expect(String(own.observed)).toContain('no data yet for Chromium 149')
  })

  test("one feature off (a field trial's trust_anchors) only warns; two off fail", () => {
    const person = NAVIGATIONS.find((n) => n.engine === 'chromium' && n.step === 'typed')!
    const hello = person.records[0]!.data as { extensions: number[]; signature_algorithms: number[] }
    const altered = (data: Record<string, unknown>) => observation(person, [{ kind: 'tls', data: { ...person.records[0]!.data, ...data } }, person.records[1]!])
    const withoutTrustAnchors = hello.extensions.filter((e) => e !== 0xca34)
    expect(judge(tlsVersion, altered({ extensions: withoutTrustAnchors })).verdict).toBe('warn')
    expect(judge(tlsVersion, altered({ extensions: withoutTrustAnchors, signature_algorithms: hello.signature_algorithms.filter((a) => a !== 0x0904) })).verdict).toBe('fail')
  })
})

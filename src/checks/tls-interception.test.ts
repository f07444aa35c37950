// A proven browser behind someone else's TLS (issue 56): the wire of a TLS-inspecting proxy
// written in Node (OpenSSL 3.0, JA4 t13d5911h2_a33745022dd6_…) under a person's Chromium 156 or
// Firefox 153 request. With the page's proof valid the person is told (tls-interception warns)
// and the wire checks are na; without it the same wire fails them.

import { describe, expect, test } from 'bun:test'
import navigationsFile from '../evidence/fixtures/navigations.json'
import { fixture } from '../evidence/fixtures/load'
import { readClientHello } from '../evidence/tls-client-hello'
import { tlsRecord } from '../evidence/tls-records'
import type { ServerObservation } from '../core/tools/observation'
import { ja3, ja4, tlsParameters } from './client-hello'
import type { CheckDefinition } from './define'
import { headerOrderWire } from './header-order-wire'
import { tcpSynOs } from './tcp-syn-os'
import { tlsInterception } from './tls-interception'
import { http2FingerprintFamily, tlsFingerprintFamily } from './tls-match'
import { tlsVersion } from './tls-version'
import { headerCaseHttpVersion, headerOrder } from './wire-headers'
import { interception, wireFamily } from './wire-family'

interface Navigation {
  engine: 'chromium' | 'firefox' | 'webkit'
  step: string
  rendered: boolean
  records: Array<{ kind: string; data: Record<string, unknown> }>
}
const NAVIGATIONS = (navigationsFile as { navigations: Navigation[] }).navigations
const page = (engine: Navigation['engine'], step = 'typed') => NAVIGATIONS.find((n) => n.engine === engine && n.step === step && n.records.length)!

const NODE_HELLO = (() => {
  const p = readClientHello(fixture('tls-node-openssl.hex'))
  if (p.status !== 'complete') throw new Error('the fixture is not a hello')
  return tlsRecord(p.hello, { protocol: 'TLSv1.3', alpn: 'http/1.1', cipher: null, offered: ['h2', 'http/1.1'] }) as unknown as Record<string, unknown>
})()

const CHROME_156 = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
const CHROME_149 = CHROME_156.replace('156', '149')
const FIREFOX_153 = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0'
const GNOME_WEB = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/60.5 Safari/605.1.15'

/** What a Node proxy forwards: HTTP/1.1 with the browser's header names, Node's own case and order (the listener offered h2). */
const proxiedHead = (ua: string) => ({ kind: 'http1', data: { version: 'HTTP/1.1', method: 'GET', path: '/tools/tls-fingerprint', headers: [['host', 'localhost'], ['user-agent', ua], ['accept-language', 'en-US'], ['accept', 'text/html'], ['accept-encoding', 'gzip'], ['connection', 'keep-alive']], bare_line_feeds: false } })
/** A Linux kernel's SYN, as a gateway on Linux would send for a browser claiming Windows. */
const LINUX_SYN = { ja4t: '64240_2-4-8-1-3_1460_7', ttl: 64, initialTtl: 64, hops: 0, df: true, window: 64240, options: [2, 4, 8, 1, 3], mss: 1460, windowScale: 7, timestamps: true, sack: true, ipVersion: 4, proxy: false }

function observation(ua: string, records: Array<{ kind: string; data: unknown }>, proof?: ServerObservation['proof']): ServerObservation {
  return { ip: '127.0.0.1', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, nonce: 'valid', evidence: records.map((r) => ({ kind: r.kind, data: r.data, observedAt: '2026-12-01T00:00:00Z' })), ...(proof ? { proof } : {}) }
}
const behindProxy = (ua: string, proof?: ServerObservation['proof']) => observation(ua, [{ kind: 'tls', data: NODE_HELLO }, proxiedHead(ua)], proof)

function judge(check: CheckDefinition, server: ServerObservation) {
  return check.judge({}, { server, ctx: {}, missing: (...names: string[]) => `missing ${names.join(', ')}`, raw: {} })
}
const WIRE: CheckDefinition[] = [tlsFingerprintFamily, http2FingerprintFamily, tlsVersion, ja4, ja3, tlsParameters, headerOrderWire, headerOrder, headerCaseHttpVersion]
const verdicts = (server: ServerObservation, checks = WIRE) => Object.fromEntries(checks.map((c) => [c.id, judge(c, server).verdict]))

describe('tls-interception: a proven browser behind a TLS-inspecting proxy', () => {
  test('Node/OpenSSL on the wire under Chrome 156 or 149 without a valid proof: the family checks fail, this one is na', () => {
    for (const ua of [CHROME_156, CHROME_149]) {
      for (const proof of [undefined, 'missing', 'wrong', 'no-nonce'] as const) {
        const server = behindProxy(ua, proof)
        expect(judge(tlsInterception, server).verdict).toBe('na')
        const v = verdicts(server, [tlsFingerprintFamily, tlsVersion, ja4, ja3, tlsParameters])
        expect(v).toEqual({ 'tls-fingerprint': 'fail', 'tls-version': 'fail', ja4: 'fail', ja3: 'fail', 'tls-parameters': 'fail' })
      }
    }
    expect(String(judge(tlsVersion, behindProxy(CHROME_149)).observed)).toContain("not Chromium's stack for any version")
  })

  test('with a valid proof it warns, in plain words, and the wire checks are na: the person is not charged twice', () => {
    for (const ua of [CHROME_156, CHROME_149, FIREFOX_153]) {
      const server = behindProxy(ua, 'valid')
      const outcome = judge(tlsInterception, server)
      expect(outcome.verdict).toBe('warn')
      expect(String(outcome.observed)).toContain('proved it ran in a browser')
      const wire = WIRE.map((c) => ({ id: c.id, ...judge(c, server) }))
      expect(wire.filter((o) => o.verdict === 'fail' || o.verdict === 'warn')).toEqual([])
      for (const id of ['tls-fingerprint', 'http2-fingerprint', 'tls-version', 'ja4', 'ja3', 'tls-parameters']) {
        const o = wire.find((x) => x.id === id)!
        expect({ id, verdict: o.verdict, said: String(o.observed).includes('re-encrypted on its way') }).toEqual({ id, verdict: 'na', said: true })
      }
    }
    expect(tlsInterception.found).toBe('the connection is decrypted and re-encrypted on its way (by a proxy, security software or a gateway)')
  })

  test("the gateway's own SYN under a Windows claim is the middlebox's, not held against the person", () => {
    const windows = CHROME_156.replace('X11; Linux x86_64', 'Windows NT 10.0; Win64; x64')
    const withSyn = (proof?: ServerObservation['proof']) => observation(windows, [{ kind: 'tls', data: { ...NODE_HELLO, syn: LINUX_SYN } }, proxiedHead(windows)], proof)
    expect(judge(tcpSynOs, withSyn()).verdict).toBe('warn')
    expect(judge(tcpSynOs, withSyn('valid')).verdict).toBe('na')
  })

  test('where the wire is the claimed family\'s, nothing changes: people pass with or without a proof', () => {
    for (const n of NAVIGATIONS.filter((x) => x.records.length && x.engine !== 'webkit')) {
      const ua = n.engine === 'chromium' ? CHROME_156 : FIREFOX_153
      for (const proof of [undefined, 'valid'] as const) {
        const server = observation(ua, n.records, proof)
        expect(interception(server)).toBeNull()
        expect({ step: n.step, engine: n.engine, verdict: judge(tlsInterception, server).verdict }).toEqual({ step: n.step, engine: n.engine, verdict: 'pass' })
      }
    }
  })

  test('GNOME Web (WebKitGTK: GnuTLS and libsoup) names no family with invariants: not judged here, and passes its own stack', () => {
    for (const n of NAVIGATIONS.filter((x) => x.records.length && x.engine === 'webkit')) {
      const server = observation(GNOME_WEB, n.records, 'valid')
      expect(wireFamily(server)).toBeNull()
      expect(judge(tlsInterception, server).verdict).toBe('na')
      expect(judge(tlsFingerprintFamily, server).verdict).toBe('pass')
    }
  })

  test("a page load's two hellos in the same order are not Chrome's since 110: the side connection is compared with the page's", () => {
    const person = page('chromium')
    const [tls1, h2] = person.records
    const fixed = observation(CHROME_156, [tls1!, h2!, { kind: 'tls', data: { ...tls1!.data } }])
    expect(judge(tlsFingerprintFamily, fixed).verdict).toBe('fail')
    expect(String(judge(tlsVersion, fixed).observed)).toContain('the extension order permuted between connections')
    // One hello alone (a page over plain HTTP reaches the listener once): not judged, and said.
    expect(String(judge(tlsVersion, observation(CHROME_156, [tls1!, h2!])).observed)).toContain('extension order between connections not judged (1 hello')
  })

  test('HTTP/2 SETTINGS with Chrome\'s pseudo-header order but other ids fail under a Chrome claim', () => {
    const person = page('chromium')
    const h2 = person.records[1]!
    const server = observation(CHROME_149, [person.records[0]!, { kind: 'http2', data: { ...h2.data, akamai: '3:100;4:10485760;2:0|1048510465|0|m,a,s,p', settings: [[3, 100], [4, 10485760], [2, 0]], window_update: 1048510465 } }])
    const outcome = judge(http2FingerprintFamily, server)
    expect(outcome.verdict).toBe('fail')
    expect(String(outcome.observed)).toContain('SETTINGS ids 1, 2, 4, 6')
  })

  test("Firefox's captured hello under a Chrome claim fails the family checks", () => {
    const ff = page('firefox')
    const server = observation(CHROME_149, ff.records)
    expect(verdicts(server, [tlsFingerprintFamily, tlsVersion, http2FingerprintFamily])).toEqual({ 'tls-fingerprint': 'fail', 'tls-version': 'fail', 'http2-fingerprint': 'fail' })
  })
})

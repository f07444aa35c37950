import { describe, expect, test } from 'bun:test'
import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { fixture } from '../evidence/fixtures/load'
import { parseH2ClientStart } from '../evidence/http2'
import { parseClientHello } from '../evidence/tls-client-hello'
import { http2Record, tlsRecord } from '../evidence/tls-records'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { ja3, ja4, tlsParameters } from './client-hello'
import { transportTls } from './connection-protocol'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const GNOME_WEB_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/60.5 Safari/605.1.15'
const SAFARI_MAC_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15'

/** The listener's records of a captured ClientHello and HTTP/2 start, as filed under the page's nonce. */
function filed(tls: string, h2: string): NonNullable<ServerObservation['evidence']> {
  const hello = parseClientHello(fixture(tls))
  const start = parseH2ClientStart(fixture(h2))
  if (!hello.ok || !start.ok) throw new Error('fixture')
  return [{ kind: 'tls', data: tlsRecord(hello.value, { protocol: 'TLSv1.3', alpn: 'h2', cipher: 'TLS_AES_128_GCM_SHA256' }), observedAt: 'x' }, { kind: 'http2', data: http2Record(start.value), observedAt: 'x' }]
}
const probe = (reached: boolean) => ({ evidence: { ok: true, value: { port: 8443, nonce: 'a'.repeat(26), reached, ms: 1 }, ms: 1 } }) as unknown as TlsFingerprintSignals
const run = (ua: string, evidence: ServerObservation['evidence'], s = probe(true)) =>
  Object.fromEntries(runChecks([[transportTls, 0], [ja4, 50], [ja3, 40], [tlsParameters, 30]], s, { ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, evidence }, {}).checks.map((c) => [c.id, c]))

describe('ja4, ja3, tls-parameters, transport-tls', () => {
  test("Chromium's ClientHello under a Chrome claim passes all", () => {
    const r = run(CHROME_UA, filed('tls-chromium-ip.hex', 'h2-chromium.hex'))
    for (const id of ['transport-tls', 'ja4', 'ja3', 'tls-parameters']) expect(r[id]!.verdict, id).toBe('pass')
  })
  test("curl's ClientHello under a Chrome claim fails; under curl's own claim it passes", () => {
    const curl = filed('tls-curl-ip.hex', 'h2-curl.hex')
    const r = run(CHROME_UA, curl)
    for (const id of ['ja4', 'ja3', 'tls-parameters']) expect(r[id]!.verdict, id).toBe('fail')
    expect(r['tls-parameters']!.observed).toContain('no GREASE')
    expect(run('curl/7.88.1', curl).ja4!.verdict).toBe('pass')
  })
  test("GNOME Web's WebKitGTK handshake (GnuTLS, no GREASE) passes under its own claim, and not as Safari on a Mac", () => {
    const webkitgtk = filed('tls-webkitgtk-ip.hex', 'h2-webkitgtk.hex')
    const r = run(GNOME_WEB_UA, webkitgtk)
    for (const id of ['transport-tls', 'ja4', 'ja3', 'tls-parameters']) expect(r[id]!.verdict, id).toBe('pass')
    expect(r['tls-parameters']!.expected).toContain('GREASE not judged')
    const mac = run(SAFARI_MAC_UA, webkitgtk)
    for (const id of ['ja4', 'ja3', 'tls-parameters']) expect(mac[id]!.verdict, id).toBe('fail')
    expect(mac['tls-parameters']!.observed).toContain("no GREASE (Safari's stack always sends it)")
  })
  test('GREASE under a Firefox claim fails the parameters', () => {
    expect(run(FIREFOX_UA, filed('tls-chromium-ip.hex', 'h2-chromium.hex'))['tls-parameters']!.observed).toContain('GREASE values (Firefox sends none)')
  })
  test("without a record they are na and say what the page's probe saw", () => {
    const r = run(CHROME_UA, [], probe(false))
    expect(r.ja4).toMatchObject({ verdict: 'na', observed: expect.stringContaining('could not reach port 8443') })
    expect(r['transport-tls']).toMatchObject({ verdict: 'na', expected: expect.stringContaining('TLS_PORT') })
  })
})

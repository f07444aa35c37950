import { describe, expect, test } from 'bun:test'
import { fixture } from '../../evidence/fixtures/load'
import { parseClientHello } from '../../evidence/tls-client-hello'
import { tlsRecord } from '../../evidence/tls-records'
import { ja4Fields, tlsHello } from './tls-hello'

/** A ClientHello the listener captured, as its record stores it. */
function captured(name: string) {
  const hello = parseClientHello(fixture(name))
  if (!hello.ok) throw new Error(name)
  return tlsRecord(hello.value, { protocol: 'TLSv1.3', alpn: 'h2', cipher: 'TLS_AES_128_GCM_SHA256' })
}

describe('the TLS hello’s parts', () => {
  test('Chromium to an IP address: JA4 a_b_c, part a field by field, GREASE present, ALPN h2 then http/1.1', () => {
    const rec = captured('tls-chromium-ip.hex')
    const t = tlsHello(rec.ja4, rec.grease, rec.alpn)!
    const [a, b, c] = rec.ja4.split('_') as [string, string, string]
    expect(t.parts.map((p) => [p.part, p.text])).toEqual([['a', a], ['b', b], ['c', c]])
    expect(a).toMatch(/^t13i\d{4}h2$/)
    expect(t.fields.map((f) => f.text)).toEqual(['t', '13', 'i', a!.slice(4, 6), a!.slice(6, 8), 'h2'])
    expect(t.fields.map((f) => f.means)).toEqual([
      'over TCP',
      'highest version offered: TLS 1.3',
      'no host name sent (an IP address)',
      `${Number(a!.slice(4, 6))} cipher suites`,
      `${Number(a!.slice(6, 8))} extensions`,
      'first application protocol: HTTP/2',
    ])
    expect(t.grease).toBe(true)
    expect(t.alpn).toEqual(['h2', 'http/1.1'])
    expect(t.says).toStartWith(`JA4 ${rec.ja4}. Part a, ${a}: over TCP, highest version offered: TLS 1.3, no host name sent (an IP address), `)
    expect(t.says).toContain('GREASE values present')
    expect(t.says).toEndWith('ALPN offered: h2, http/1.1.')
  })

  test('curl with a host name: SNI sent, no GREASE', () => {
    const rec = captured('tls-curl-sni.hex')
    const t = tlsHello(rec.ja4, rec.grease, rec.alpn)!
    expect(t.fields[2]).toEqual({ text: 'd', means: 'a host name was sent (SNI)' })
    expect(t.grease).toBe(false)
    expect(t.says).toContain('No GREASE values.')
  })

  test('what a proxy shows (no GREASE, no ALPN list) and what is not JA4', () => {
    const t = tlsHello('t13d1516h2_8daaf6152771_02713d6af862', null, null)!
    expect(t.says).toEndWith('GREASE not visible. No ALPN list seen.')
    expect(tlsHello('not-a-ja4', true, [])).toBeNull()
    expect(ja4Fields('x13d1516h2')).toEqual([])
    expect(ja4Fields('q13d0310h3')[0]).toEqual({ text: 'q', means: 'over QUIC' })
    expect(ja4Fields('t12d150000')[5]).toEqual({ text: '00', means: 'no application protocol (ALPN) offered' })
  })
})

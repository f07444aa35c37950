import { describe, expect, test } from 'bun:test'
import { NO_ZONE_MESSAGE } from '../../../common/dns-zone'
import { summarize, type Check } from '../scoring'
import type { ServerObservation } from './observation'
import type { VpnDetectorSignals } from '../../../common/signals/vpn-detector'
import { vpnDetector } from './vpn-detector'
import { fakeLookup, NETWORKS } from '../../../tests/support/fake-ipdb'
import type { JudgeContext } from '../../checks/define'
import { ok, missing } from '../../../tests/support/signals'


const MDNS = ['candidate:1 1 udp 2113937151 84ce2050-4a6f-4292-ac6b-10002bbebe5b.local 48666 typ host generation 0']
const ice = (lines: string[]) => ok({ candidates: lines, sdp: lines.map((l) => `a=${l}`).join('\r\n'), gathering: 'complete' as const, gatheringMs: 150, errors: [] })
const zone = (timeZone: string, languages: string[]) => ok({ timeZone, locale: languages[0] ?? 'en-US', calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h23', language: languages[0] ?? '', languages })
const rtt = (samples: number[]) => ok({ samples, medianMs: [...samples].sort((a, b) => a - b)[samples.length >> 1]!, minMs: Math.min(...samples), protocol: 'http/1.1' })

// navigator.languages as probes/signals/languages.ts reports it: the same list the zone probe reads.
/** What the page's DNS lookups report on a service without a DNS zone. */
const NO_ZONE = { ok: false as const, error: { kind: 'unsupported' as const, message: NO_ZONE_MESSAGE }, ms: 0 }
const languagesOf = (z: VpnDetectorSignals['zone']): VpnDetectorSignals['languages'] => (z.ok ? ok({ language: z.value.language, languages: z.value.languages }) : z)

function signals(over: Partial<VpnDetectorSignals> = {}): VpnDetectorSignals {
  const z = over.zone ?? zone('Europe/Berlin', ['de-DE', 'de', 'en'])
  return { ice: ice(MDNS), zone: z, languages: languagesOf(z), rtt: rtt([21, 22, 20, 23, 22]), lookups: NO_ZONE, ...over }
}

function obs(ip: string, acceptLanguage: string | null, extra: Array<[string, string]> = []): ServerObservation {
  const headers: Array<[string, string]> = [['accept', '*/*'], ['host', 'antibot.example'], ...extra]
  if (acceptLanguage !== null) headers.push(['accept-language', acceptLanguage])
  return { ip, userAgent: 'Mozilla/5.0', headers, receivedAt: Date.UTC(2026, 5, 1) }
}

const CTX: JudgeContext = { lookupIp: fakeLookup({ '79.200.1.1': NETWORKS.telekom, '2a02:8109::5': NETWORKS.telekom, '185.65.134.1': NETWORKS.mullvad, '3.120.0.9': NETWORKS.aws, '104.28.0.1': NETWORKS.cloudflare, '45.0.0.1': NETWORKS.smallHost }) }

function judge(s: VpnDetectorSignals, o: ServerObservation, ctx?: JudgeContext) {
  const { checks, sections } = vpnDetector.judge(s, o, ctx)
  const sec = sections as { vpn: Record<string, unknown>; verdict: string }
  return { byId: Object.fromEntries(checks.map((c) => [c.id, c])) as Record<string, Check>, vpn: sec.vpn, verdict: sec.verdict, summary: summarize(checks) }
}

describe('vpn-detector judge', () => {
  test('a German desktop browser on a German line shows no sign of a VPN', () => {
    const r = judge(signals(), obs('81.2.69.23', 'de-DE,de;q=0.9,en;q=0.8'))
    for (const id of ['http-address', 'webrtc-vs-http', 'proxy-headers', 'accept-language-vs-languages', 'zone-vs-accept-language', 'utc-zone', 'in-page-rtt']) expect(r.byId[id]!.verdict).toBe('pass')
    for (const id of ['rtt-vs-tcp-handshake', 'zone-vs-ip-country', 'datacenter-asn', 'resolver-network']) expect(r.byId[id]!.verdict).toBe('na')
    expect(r.summary.score).toBe(100)
    expect(r.verdict).toStartWith('No sign of a VPN or proxy')
  })

  test('headless Chromium in a UTC container on loopback only gets the UTC warning', () => {
    const r = judge(signals({ zone: zone('UTC', ['en-US']), rtt: rtt([1.2, 1, 1.1, 0.9, 1]) }), obs('127.0.0.1', 'en-US'))
    expect(r.byId['http-address']!.verdict).toBe('na')
    expect(r.byId['utc-zone']!.verdict).toBe('warn')
    expect(r.byId['zone-vs-accept-language']!.verdict).toBe('na')
    expect(r.summary.score).toBe(95)
    expect(r.verdict).toContain('weak hints: a UTC time zone')
  })

  test('a WebRTC address outside the tunnel is a VPN leak', () => {
    const leak = ['candidate:1 1 udp 2122260223 81.2.69.160 54400 typ host generation 0']
    const r = judge(signals({ ice: ice(leak) }), obs('185.220.101.4', 'de-DE,de;q=0.9,en;q=0.8'))
    expect(r.byId['webrtc-vs-http']!.verdict).toBe('fail')
    expect(r.vpn.webrtcPublic).toEqual(['81.2.69.160'])
    expect(r.summary.score).toBe(40)
    expect(r.verdict).toStartWith('VPN or proxy detected: WebRTC reveals another public address')
  })

  test('a proxy that rewrites Accept-Language and announces itself is found', () => {
    const r = judge(signals(), obs('81.2.69.200', 'en-US,en;q=0.9', [['via', '1.1 proxy.example'], ['x-forwarded-for', '10.1.2.3']]))
    expect(r.byId['proxy-headers']!.verdict).toBe('fail')
    expect(r.byId['accept-language-vs-languages']!.verdict).toBe('fail')
    // The rewritten header names the US, where Europe/Berlin is not.
    expect(r.byId['zone-vs-accept-language']!.verdict).toBe('warn')
    expect(r.summary.score).toBe(40)
  })

  test('a zone outside the languages\' regions and a long round trip only warn', () => {
    const r = judge(signals({ zone: zone('Asia/Tokyo', ['de-DE', 'de', 'en']), rtt: rtt([480, 510, 620, 450, 505]) }), obs('81.2.69.23', 'de-DE,de;q=0.9,en;q=0.8'))
    expect(r.byId['zone-vs-accept-language']!.verdict).toBe('warn')
    expect(r.byId['in-page-rtt']!.verdict).toBe('warn')
    expect(r.summary.score).toBe(90)
  })

  test('the resolvers that looked up the page\'s names are judged against the address: the ISP\'s at home behind a VPN exit is the DNS leak', () => {
    const lookups = ok({ nonce: 'abcdefghijklmnopqrstuvwx27', zone: 'dns.antibot.example', names: [{ name: 'abcdefghijklmnopqrstuvwx27-1.dns.antibot.example', ms: 40, via: 'img' as const, outcome: 'error' as const }] })
    const asked = (resolver: string): ServerObservation => ({
      ...obs('185.65.134.1', 'de-DE,de;q=0.9,en;q=0.8'),
      nonce: 'valid',
      evidence: [{ kind: 'dns', data: { name: 'abcdefghijklmnopqrstuvwx27-1.dns.antibot.example', qtype: 'A', resolver, ecs: null }, observedAt: '2026-06-01T00:00:00.000Z' }],
    })
    expect(judge(signals({ lookups }), asked('79.200.1.1'), CTX).byId['resolver-network']).toMatchObject({ verdict: 'fail', source: 'server' })
    expect(judge(signals({ lookups }), asked('185.65.134.1'), CTX).byId['resolver-network']!.verdict).toBe('pass')
    expect(judge(signals(), obs('185.65.134.1', null), CTX).byId['resolver-network']!.expected).toContain('DNS_ZONE')
  })

  test('missing signals are na, never failures', () => {
    const gone = missing('timeout', 'no answer within 3000 ms')
    const r = judge({ ice: missing('unsupported', 'no RTCPeerConnection'), zone: gone, languages: gone, rtt: gone, lookups: gone }, obs('81.2.69.23', null))
    for (const id of ['webrtc-vs-http', 'accept-language-vs-languages', 'utc-zone', 'zone-vs-accept-language', 'in-page-rtt']) expect(r.byId[id]!.verdict).toBe('na')
    expect(r.summary.score).toBe(100)
  })

  test('with the IP database: a German browser on a German line passes the country and network checks', () => {
    const r = judge(signals(), obs('79.200.1.1', 'de-DE,de;q=0.9,en;q=0.8'), CTX)
    for (const id of ['zone-vs-ip-country', 'languages-vs-ip-country', 'datacenter-asn']) expect(r.byId[id]!.verdict).toBe('pass')
    expect(r.vpn.lookup).toMatchObject({ status: 'found', country: 'DE', asn: 3320 })
    expect(r.summary.score).toBe(100)
  })

  test('a Berlin browser behind a US cloud address is detected twice', () => {
    const r = judge(signals(), obs('3.120.0.9', 'de-DE,de;q=0.9,en;q=0.8'), CTX)
    expect(r.byId['zone-vs-ip-country']).toMatchObject({ verdict: 'fail', observed: 'Europe/Berlin; IP in US' })
    expect(r.byId['languages-vs-ip-country']!.verdict).toBe('pass') // English is among them, and the US's
    expect(r.byId['datacenter-asn']).toMatchObject({ verdict: 'fail', observed: 'US, AS16509 Amazon.com, Inc. (cloud: Amazon AWS)' })
    expect(r.verdict).toContain('the address belongs to a server, VPN or Tor network')
    expect(r.verdict).toContain('the time zone is not one of the IP country')
  })

  test('a VPN operator\'s exit in a country of the same offsets fails only the network check', () => {
    const r = judge(signals(), obs('185.65.134.1', 'de-DE,de;q=0.9,en;q=0.8'), CTX)
    expect(r.byId['zone-vs-ip-country']!.verdict).toBe('pass') // Stockholm keeps Berlin's offsets
    expect(r.byId['datacenter-asn']).toMatchObject({ verdict: 'fail', observed: 'SE, AS39351 31173 Services AB (vpn: Mullvad (31173 Services))' })
    expect(r.vpn.lookup).toMatchObject({ vpn: true, network: 'vpn' })
  })

  test('English-only languages fit any country; a CDN relay and a name-guessed host only warn', () => {
    const en = judge(signals({ zone: zone('America/Los_Angeles', ['en-US', 'en']) }), obs('104.28.0.1', 'en-US,en;q=0.9'), CTX)
    expect(en.byId['zone-vs-ip-country']!.verdict).toBe('pass')
    expect(en.byId['languages-vs-ip-country']!.verdict).toBe('pass')
    expect(en.byId['datacenter-asn']!.verdict).toBe('warn')
    expect(judge(signals(), obs('45.0.0.1', 'de-DE,de;q=0.9,en;q=0.8'), CTX).byId['datacenter-asn']!.verdict).toBe('warn')
  })

  test('a WebRTC IPv6 address of the HTTP address\'s AS is the same network', () => {
    const v6 = ['candidate:1 1 udp 2122262783 2a02:8109::5 54400 typ host generation 0']
    expect(judge(signals({ ice: ice(v6) }), obs('79.200.1.1', 'de-DE,de;q=0.9,en;q=0.8'), CTX).byId['webrtc-vs-http']!.verdict).toBe('pass')
    expect(judge(signals({ ice: ice(v6) }), obs('79.200.1.1', 'de-DE,de;q=0.9,en;q=0.8')).byId['webrtc-vs-http']!.verdict).toBe('fail')
  })

  test('a UTC zone is not compared with the IP country', () => {
    const r = judge(signals({ zone: zone('UTC', ['en-US']) }), obs('3.120.0.9', 'en-US'), CTX)
    expect(r.byId['zone-vs-ip-country']!.verdict).toBe('na')
    expect(r.byId['datacenter-asn']!.verdict).toBe('fail')
  })

  describe('TCP-handshake RTT against the end-to-end RTT (the TLS listener\'s record)', () => {
    const withRtt = (o: ServerObservation, rtt: Record<string, unknown>): ServerObservation => ({
      ...o,
      nonce: 'valid',
      evidence: [
        { kind: 'tls', data: { ja4: 't13d1516h2_8daaf6152771_02713d6af862' }, observedAt: '2026-06-01T00:00:00+00:00' },
        { kind: 'http2', data: { akamai: '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p', rtt: { transport: 'h2', ...rtt } }, observedAt: '2026-06-01T00:00:00+00:00' },
      ],
    })

    test('no evidence (no TLS_PORT): na with the reason, and no numbers in the section', () => {
      const r = judge({ ...signals(), tlsEvidence: missing('unsupported', 'no TLS evidence listener on this service (TLS_PORT is not set)') }, obs('81.2.69.23', 'de-DE,de;q=0.9,en;q=0.8'))
      expect(r.byId['rtt-vs-tcp-handshake']).toMatchObject({ verdict: 'na', observed: 'in-page median 22 ms over 5 requests' })
      expect(r.byId['rtt-vs-tcp-handshake']!.expected).toContain('TLS_PORT')
      expect(r.vpn).toMatchObject({ tcpRttMs: null, h2PingRttMs: null })
      expect(r.verdict).toEndWith('Not tested here: the TCP-handshake RTT (it needs the TLS listener, TLS_PORT) and the DNS resolver location (see dns-leak).')
    })

    test('close round trips pass, and both are in the section', () => {
      const o = withRtt(obs('81.2.69.23', 'de-DE,de;q=0.9,en;q=0.8'), { tcp_rtt_ms: 18.2, h2_ping_rtt_ms: 21.5, ping_samples: [24, 21.5, 22] })
      const r = judge({ ...signals(), tlsEvidence: ok({ port: 8443, nonce: 'a'.repeat(26), reached: true, ms: 90 }) }, o)
      expect(r.byId['rtt-vs-tcp-handshake']).toMatchObject({ verdict: 'pass', source: 'server', observed: 'TCP handshake 18.2 ms (kernel, TLS listener); HTTP/2 PING 21.5 ms (fastest of 3, same connection); gap 3.3 ms' })
      expect(r.vpn).toMatchObject({ tcpRttMs: 18.2, h2PingRttMs: 21.5, pageRttMs: 22 })
      expect(r.summary.score).toBe(100)
      expect(r.verdict).toEndWith('Not tested here: the DNS resolver location (see dns-leak).')
    })

    test('a SOCKS/CONNECT proxy far from the browser: the PING takes far longer than the handshake, a fail', () => {
      const o = withRtt(obs('81.2.69.23', 'de-DE,de;q=0.9,en;q=0.8'), { tcp_rtt_ms: 9, h2_ping_rtt_ms: 310, ping_samples: [330, 310, 318] })
      const r = judge(signals(), o)
      expect(r.byId['rtt-vs-tcp-handshake']!.verdict).toBe('fail')
      expect(r.summary.score).toBe(70)
      expect(r.verdict).toStartWith('VPN or proxy detected: the browser\'s round trip is far longer than the TCP handshake\'s')
    })

    test('a client that answered no PING is judged on the page\'s median, at most a warning', () => {
      const o = withRtt(obs('81.2.69.23', 'de-DE,de;q=0.9,en;q=0.8'), { tcp_rtt_ms: 9, h2_ping_rtt_ms: null, ping_samples: [] })
      const r = judge(signals({ rtt: rtt([300, 310, 305, 320, 299]) }), o)
      expect(r.byId['rtt-vs-tcp-handshake']!.verdict).toBe('warn')
      expect(String(r.byId['rtt-vs-tcp-handshake']!.observed)).toContain('in-page median 305 ms')
      expect(r.verdict).toContain('an end-to-end round trip longer than the TCP handshake\'s')
    })

    test('the page could not reach the listener: na, saying so', () => {
      const r = judge({ ...signals(), tlsEvidence: ok({ port: 8443, nonce: 'a'.repeat(26), reached: false, ms: 12 }) }, obs('81.2.69.23', 'de-DE,de;q=0.9,en;q=0.8'))
      expect(r.byId['rtt-vs-tcp-handshake']!.verdict).toBe('na')
      expect(r.byId['rtt-vs-tcp-handshake']!.expected).toContain('the page could not reach it')
    })
  })
})

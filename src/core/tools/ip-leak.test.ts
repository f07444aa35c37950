import { describe, expect, test } from 'bun:test'
import { summarize, type Check } from '../scoring'
import type { IpLeakSignals } from '../../../common/signals/ip-leak'
import { ipLeak } from './ip-leak'
import type { ServerObservation } from './observation'
import { fakeLookup, NETWORKS } from '../../../tests/support/fake-ipdb'
import { ok, missing } from '../../../tests/support/signals'


const MDNS = [
  'candidate:526347473 1 udp 2113937151 84ce2050-4a6f-4292-ac6b-10002bbebe5b.local 48666 typ host generation 0 ufrag Aw30 network-cost 999',
  'candidate:16238037 1 udp 2113942271 65f4566e-9cfa-4ba8-adac-98a29603c8be.local 36154 typ host generation 0 ufrag Aw30 network-cost 999',
]
const sdpOf = (lines: string[]) => ['c=IN IP4 0.0.0.0', ...lines.map((l) => `a=${l.replace(/ ufrag \S+/, '')}`)].join('\r\n')
const ice = (lines: string[]) => ok({ candidates: lines, sdp: sdpOf(lines), gathering: 'complete' as const, gatheringMs: 150, errors: [] })

const reach = (url: string, reachable: boolean) => ({ url, reachable, ms: 3, error: reachable ? null : 'Failed to fetch' })
const NOT_LOOPBACK = missing('unsupported', 'IPv4-only and IPv6-only requests need two host names of the service (issue 7)')

function obs(ip: string, extra: Array<[string, string]> = []): ServerObservation {
  return { ip, userAgent: 'Mozilla/5.0', headers: [['accept', '*/*'], ['host', 'antibot.example'], ...extra], receivedAt: 0 }
}

const CTX = { lookupIp: fakeLookup({ '81.2.69.23': NETWORKS.aaisp, '81.2.69.160': NETWORKS.aaisp, '3.120.0.9': NETWORKS.aws, '2a02:8109::5': NETWORKS.telekom, '79.200.1.1': NETWORKS.telekom, '104.28.0.1': NETWORKS.cloudflare }) }

function judge(s: IpLeakSignals, o: ServerObservation, ctx?: { lookupIp: typeof CTX.lookupIp }) {
  const { checks, sections } = ipLeak.judge(s, o, ctx)
  const sec = sections as { ip: Record<string, unknown>; verdict: string }
  return { checks, byId: Object.fromEntries(checks.map((c) => [c.id, c])) as Record<string, Check>, ip: sec.ip, verdict: sec.verdict, summary: summarize(checks) }
}

describe('ip-leak judge', () => {
  test('headless Chromium on loopback: nothing leaks, address checks do not apply', () => {
    const r = judge({ ice: ice(MDNS), families: ok({ ipv4: reach('http://127.0.0.1:3000/healthz', true), ipv6: reach('http://[::1]:3000/healthz', false) }) }, obs('127.0.0.1'))
    expect(r.byId['http-address']!.verdict).toBe('na')
    expect(r.byId['webrtc-local-address']!.verdict).toBe('pass')
    expect(r.byId['webrtc-vs-http']!.verdict).toBe('pass')
    expect(r.byId['ipv4-request']!.verdict).toBe('pass')
    expect(r.byId['ipv6-request']!.verdict).toBe('na')
    expect(r.byId['datacenter-asn']!.verdict).toBe('na')
    expect(r.summary.score).toBe(100)
    expect(r.ip).toMatchObject({ scope: 'loopback', family: 4, families: { ipv4: true, ipv6: false } })
    expect(r.verdict).toStartWith('No address leak found: the service saw 127.0.0.1 (loopback, IPv4)')
    expect(r.verdict).toContain('Not tested yet: the addresses of IPv4-only and IPv6-only requests')
    expect(r.byId['ip-country']!.expected).toContain('loopback')
  })

  test('a normal desktop browser over the Internet passes, with the dual-stack checks na', () => {
    const r = judge({ ice: ice(MDNS), families: NOT_LOOPBACK }, obs('81.2.69.23'))
    expect(r.byId['http-address']).toMatchObject({ verdict: 'pass', observed: '81.2.69.23 (public, IPv4)' })
    expect(r.byId['ipv4-request']!.verdict).toBe('na')
    expect(r.byId['ipv4-request']!.expected).toContain('issue 7')
    expect(r.summary.score).toBe(100)
  })

  test('WebRTC revealing a public address other than the HTTP one fails', () => {
    const leak = ['candidate:1 1 udp 2122260223 81.2.69.160 54400 typ host generation 0', 'candidate:2 1 udp 2122194687 192.168.1.20 54401 typ host generation 0']
    const r = judge({ ice: ice(leak), families: NOT_LOOPBACK }, obs('185.220.101.4'))
    expect(r.byId['webrtc-vs-http']!.verdict).toBe('fail')
    expect(r.byId['webrtc-vs-http']!.observed).toEqual({ webrtc: ['81.2.69.160'], http: '185.220.101.4' })
    expect(r.byId['webrtc-local-address']!.verdict).toBe('warn')
    expect(r.summary.score).toBe(30)
    expect(r.verdict).toStartWith('WebRTC leaks a public address')
  })

  test('an IPv6 address in the HTTP address\'s /64 is the same network', () => {
    const v6 = ['candidate:1 1 udp 2122262783 2a02:1234:5678:9abc::99 54400 typ host generation 0']
    const r = judge({ ice: ice(v6), families: NOT_LOOPBACK }, obs('2a02:1234:5678:9abc:1111:2222:3333:4444'))
    expect(r.byId['webrtc-vs-http']!.verdict).toBe('pass')
  })

  test('a transparent proxy that forwards the real public address fails twice', () => {
    const r = judge({ ice: ice(MDNS), families: NOT_LOOPBACK }, obs('81.2.69.200', [['via', '1.1 squid'], ['x-forwarded-for', '81.2.69.7']]))
    expect(r.byId['proxy-headers']!.verdict).toBe('fail')
    expect(r.byId['forwarded-address-leak']!.verdict).toBe('fail')
    expect(r.summary.score).toBe(40)
  })

  test('a private address in X-Forwarded-For only warns', () => {
    const r = judge({ ice: ice(MDNS), families: NOT_LOOPBACK }, obs('81.2.69.200', [['x-forwarded-for', '10.0.0.7']]))
    expect(r.byId['forwarded-address-leak']!.verdict).toBe('warn')
  })

  test("the service's own trusted proxy is not counted", () => {
    const r = judge({ ice: ice(MDNS), families: NOT_LOOPBACK }, obs('81.2.69.7', [['x-forwarded-for', '81.2.69.7'], ['x-forwarded-proto', 'https']]))
    expect(r.byId['proxy-headers']!.verdict).toBe('pass')
    expect(r.byId['forwarded-address-leak']!.verdict).toBe('pass')
  })

  test('missing signals are na, never failures', () => {
    const r = judge({ ice: missing('unsupported', 'no RTCPeerConnection'), families: missing('timeout', 'no answer within 3000 ms') }, obs('81.2.69.7'))
    for (const id of ['webrtc-local-address', 'webrtc-vs-http', 'ipv4-request', 'ipv6-request']) expect(r.byId[id]!.verdict).toBe('na')
    expect(r.summary.score).toBe(100)
    expect(r.ip.webrtc).toBeNull()
  })

  test('without the IP database the country and datacenter checks say it is missing', () => {
    const r = judge({ ice: ice(MDNS), families: NOT_LOOPBACK }, obs('81.2.69.23'))
    expect(r.byId['datacenter-asn']!.verdict).toBe('na')
    expect(r.byId['datacenter-asn']!.expected).toContain('offline IP database')
    expect(r.ip.lookup).toMatchObject({ status: 'no-database', country: null })
  })

  test('with the database: a home line passes with its country and AS', () => {
    const r = judge({ ice: ice(MDNS), families: NOT_LOOPBACK }, obs('81.2.69.23'), CTX)
    expect(r.byId['ip-country']).toMatchObject({ verdict: 'pass', observed: 'GB, AS20712 Andrews & Arnold Ltd' })
    expect(r.byId['datacenter-asn']!.verdict).toBe('pass')
    expect(r.ip.lookup).toMatchObject({ status: 'found', country: 'GB', asn: 20712, organization: 'Andrews & Arnold Ltd', datacenter: false, vpn: false, tor: false })
    expect(r.verdict).toContain('The address is in GB, AS20712 Andrews & Arnold Ltd.')
    expect(r.summary.score).toBe(100)
  })

  test('a cloud address fails the datacenter check; a CDN relay only warns', () => {
    const aws = judge({ ice: ice(MDNS), families: NOT_LOOPBACK }, obs('3.120.0.9'), CTX)
    expect(aws.byId['datacenter-asn']).toMatchObject({ verdict: 'fail', observed: 'US, AS16509 Amazon.com, Inc. (cloud: Amazon AWS)' })
    expect(aws.ip.lookup).toMatchObject({ datacenter: true, network: 'cloud', provider: 'Amazon AWS' })
    expect(judge({ ice: ice(MDNS), families: NOT_LOOPBACK }, obs('104.28.0.1'), CTX).byId['datacenter-asn']!.verdict).toBe('warn')
  })

  test('a WebRTC address of another AS fails with both networks named; one of the same AS passes', () => {
    const leak = ['candidate:1 1 udp 2122260223 79.200.1.1 54400 typ host generation 0']
    const r = judge({ ice: ice(leak), families: NOT_LOOPBACK }, obs('3.120.0.9'), CTX)
    expect(r.byId['webrtc-vs-http']!.observed).toEqual({ webrtc: ['79.200.1.1 (DE, AS3320 Deutsche Telekom AG)'], http: '3.120.0.9 (US, AS16509 Amazon.com, Inc. (cloud: Amazon AWS))' })
    const sameAs = ['candidate:1 1 udp 2122262783 2a02:8109::5 54400 typ host generation 0']
    const r2 = judge({ ice: ice(sameAs), families: NOT_LOOPBACK }, obs('79.200.1.1'), CTX)
    expect(r2.byId['webrtc-vs-http']!.verdict).toBe('pass')
    expect((r2.ip.webrtc as { public: unknown[] }).public).toEqual([{ address: '2a02:8109::5', sameAsHttp: true, network: 'DE, AS3320 Deutsche Telekom AG', country: 'DE', asn: 3320 }])
  })
})

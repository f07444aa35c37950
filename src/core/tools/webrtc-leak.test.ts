import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { summarize, type Check } from '../scoring'
import type { ServerObservation } from './observation'
import { judgeWebrtc, webrtcLeak, WebrtcLeakSections, WebrtcLeakSignals, type StunEvidence } from './webrtc-leak'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const server = (ip: string, userAgent = CHROME_UA): ServerObservation => ({ ip, userAgent, headers: [], receivedAt: 0 })
/** A submission with a valid page nonce and what the listener filed under it. */
const withEvidence = (ip: string, evidence: Array<{ kind: string; data: unknown }>): ServerObservation => ({ ...server(ip), nonce: 'valid', evidence: evidence.map((e) => ({ ...e, observedAt: '2026-01-01T00:00:00+00:00' })) })
const SERVICE = ['turn:antibot.example:3478?transport=udp', 'stun:antibot.example:3478']

const MDNS_A = 'candidate:28182174 1 udp 2113937151 1e4744f5-761b-425b-9d6c-2f28d7990e3c.local 49070 typ host generation 0 ufrag bqa7 network-cost 999'
const MDNS_B = 'candidate:115108398 1 udp 2113942271 a2b2d7e3-887d-45d5-b7b8-b24ef825341a.local 37113 typ host generation 0 ufrag bqa7 network-cost 999'
const RAW_V4 = 'candidate:842163049 1 udp 2122260223 192.168.1.23 56143 typ host generation 0 ufrag sXnE network-id 1 network-cost 10'
const RAW_V6 = 'candidate:2999745851 1 udp 2122262783 2a01:e0a:1:2::5 56144 typ host generation 0 ufrag sXnE network-id 2 network-cost 10'
const TCP_V4 = 'candidate:1606712346 1 tcp 1518280447 192.168.1.23 9 typ host tcptype active generation 0 ufrag sXnE network-id 1 network-cost 10'

/** What the page sends: event strings, and the same candidates as SDP lines (without ufrag, as Chrome writes them). */
function ice(events: string[], opts: { sdpExtra?: string[]; sdpOnly?: boolean; gathering?: 'complete' | 'timeout'; servers?: string[] } = {}) {
  const lines = events.map((e) => `a=${e.replace(/ ufrag \S+/, '')}`)
  return {
    ok: true as const,
    ms: 160,
    value: {
      candidates: opts.sdpOnly ? [] : events,
      sdp: ['c=IN IP4 0.0.0.0', ...lines, ...(opts.sdpExtra ?? [])].join('\r\n'),
      gathering: opts.gathering ?? ('complete' as const),
      gatheringMs: 150,
      errors: [],
      ...(opts.servers ? { servers: opts.servers } : {}),
    },
  }
}

const nativeApi = { ok: true as const, ms: 0, value: { peerConnection: true, prefixed: null, dataChannel: true, native: true } }
const devices = (audioinput: number, audiooutput: number, videoinput: number, labelled = 0) => ({ ok: true as const, ms: 3, value: { audioinput, audiooutput, videoinput, other: 0, labelled } })

const byId = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c]))
const verdicts = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c.verdict]))

describe('webrtc-leak judge', () => {
  test('a desktop Chrome with mDNS names passes every client check; the STUN/TURN checks are na', () => {
    const { checks, sections } = judgeWebrtc({ api: nativeApi, ice: ice([MDNS_A, MDNS_B]), mediaDevices: devices(1, 1, 1) }, server('81.2.69.160'))
    expect(verdicts(checks)).toEqual({
      'webrtc-api': 'pass',
      'mdns-host-candidates': 'pass',
      'private-address-exposed': 'pass',
      'public-address-leak': 'pass',
      'candidates-event-sdp': 'pass',
      'media-devices': 'pass',
      'stun-observed-address': 'na',
      'turn-relay-address': 'na',
    })
    const s = summarize(checks)
    expect(s).toEqual({ total: 6, passed: 6, failed: 0, warnings: 0, score: 100 })
    expect(sections.webrtc.mdns).toBe(true)
    expect(sections.webrtc.candidates.every((c) => c.kind === 'mdns' && c.seenIn === 'both')).toBe(true)
    expect(sections.pending.map((p) => p.needs).join(' ')).toContain('STUN_PORT')
    expect(sections.verdict).toContain('Not tested: the STUN/TURN checks')
  })

  test('the STUN/TURN na checks say which listener is missing and carry the HTTP address', () => {
    const { checks } = judgeWebrtc({ api: nativeApi, ice: ice([MDNS_A]), mediaDevices: devices(1, 1, 1) }, server('81.2.69.160'))
    const c = byId(checks)
    expect(c['stun-observed-address']!.expected).toContain("service's STUN/TURN listener (STUN_PORT), which is off")
    expect(c['turn-relay-address']!.expected).toContain('per-page credentials')
    expect(c['stun-observed-address']!.observed).toBe('the page configured no STUN/TURN server (HTTP address 81.2.69.160)')
    expect(c['stun-observed-address']!.source).toBe('server')
  })

  test('headless Chromium on a server: mDNS candidates, no media devices: only a small warning', () => {
    const { checks } = judgeWebrtc({ api: nativeApi, ice: ice([MDNS_A, MDNS_B]), mediaDevices: devices(0, 0, 0) }, server('127.0.0.1', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36'))
    expect(byId(checks)['media-devices']!.verdict).toBe('warn')
    expect(summarize(checks).score).toBe(97)
  })

  test('behind a VPN, a raw public IPv6 host candidate is a leak and raw LAN addresses warn', () => {
    const { checks, sections } = judgeWebrtc({ api: nativeApi, ice: ice([RAW_V4, RAW_V6, TCP_V4]), mediaDevices: devices(1, 1, 0) }, server('185.65.134.77'))
    const c = byId(checks)
    expect(c['public-address-leak']!.verdict).toBe('fail')
    expect(c['public-address-leak']!.observed).toEqual({ leaked: ['2a01:e0a:1:2::5'], httpAddress: '185.65.134.77' })
    expect(c['private-address-exposed']!.verdict).toBe('warn')
    expect(String(c['private-address-exposed']!.observed)).toContain('192.168.1.23 (private)')
    expect(c['mdns-host-candidates']!.verdict).toBe('warn')
    expect(summarize(checks).score).toBe(100 - 60 - 10 - 5)
    expect(sections.verdict).toMatch(/^WebRTC leaks a public address/)
    expect(sections.webrtc.candidates.find((x) => x.transport === 'tcp')?.tcpType).toBe('active')
  })

  test('a public IPv6 host address in the HTTP address’s /64 is the same network, not a leak', () => {
    const { checks } = judgeWebrtc({ api: nativeApi, ice: ice([RAW_V6]), mediaDevices: devices(1, 1, 1) }, server('2a01:e0a:1:2:aaaa:bbbb:cccc:dddd'))
    expect(byId(checks)['public-address-leak']!.verdict).toBe('pass')
  })

  test('a public address equal to the HTTP address passes', () => {
    const srflx = 'candidate:1853887674 1 udp 1677729535 81.2.69.160 47523 typ srflx raddr 0.0.0.0 rport 0 generation 0 ufrag sXnE network-cost 999'
    const { checks } = judgeWebrtc({ api: nativeApi, ice: ice([MDNS_A, srflx]), mediaDevices: devices(1, 1, 1) }, server('::ffff:81.2.69.160'))
    const c = byId(checks)
    expect(c['public-address-leak']!.verdict).toBe('pass')
    expect(c['private-address-exposed']!.verdict).toBe('pass') // raddr 0.0.0.0 is the mDNS placeholder
  })

  test('an extension that filters events but not the SDP: the address still leaks through the SDP', () => {
    const { checks } = judgeWebrtc({ api: nativeApi, ice: ice([RAW_V4], { sdpOnly: true }), mediaDevices: devices(1, 1, 1) }, server('81.2.69.160'))
    const c = byId(checks)
    expect(c['candidates-event-sdp']!.verdict).toBe('warn')
    expect(c['candidates-event-sdp']!.observed).toEqual({ onlyInEvents: [], onlyInSdp: ['udp 192.168.1.23 56143 host'] })
    expect(c['private-address-exposed']!.verdict).toBe('warn')
  })

  test('the default address of the c= line counts as exposed too', () => {
    const { checks } = judgeWebrtc({ api: nativeApi, ice: ice([MDNS_A], { sdpExtra: ['c=IN IP4 10.8.0.2'] }), mediaDevices: devices(1, 1, 1) }, server('81.2.69.160'))
    expect(byId(checks)['private-address-exposed']!.verdict).toBe('warn')
  })

  test('no candidates at all: nothing exposed, mDNS and agreement checks are na', () => {
    const { checks, sections } = judgeWebrtc({ api: nativeApi, ice: ice([]), mediaDevices: devices(1, 1, 1) }, server('81.2.69.160'))
    const v = verdicts(checks)
    expect(v['mdns-host-candidates']).toBe('na')
    expect(v['candidates-event-sdp']).toBe('na')
    expect(v['public-address-leak']).toBe('pass')
    expect(sections.webrtc.mdns).toBeNull()
  })

  test('WebRTC switched off: the API warns and the leak checks do not apply', () => {
    const { checks, sections } = judgeWebrtc(
      {
        api: { ok: true, ms: 0, value: { peerConnection: false, prefixed: null, dataChannel: false, native: false } },
        ice: { ok: false, ms: 0, error: { kind: 'unsupported', message: 'no RTCPeerConnection' } },
        mediaDevices: devices(1, 1, 0),
      },
      server('81.2.69.160', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'),
    )
    const c = byId(checks)
    expect(c['webrtc-api']!.verdict).toBe('warn')
    expect(c['public-address-leak']!.verdict).toBe('na')
    expect(c['public-address-leak']!.expected).toContain('unsupported: no RTCPeerConnection')
    expect(summarize(checks)).toEqual({ total: 2, passed: 1, failed: 0, warnings: 1, score: 95 })
    expect(sections.verdict).toMatch(/^WebRTC did not run/)
  })

  test('a RTCPeerConnection replaced by a script warns', () => {
    const { checks } = judgeWebrtc({ api: { ...nativeApi, value: { ...nativeApi.value, native: false } }, ice: ice([MDNS_A]), mediaDevices: devices(1, 1, 1) }, server('81.2.69.160'))
    expect(byId(checks)['webrtc-api']!.verdict).toBe('warn')
  })

  test('raw addresses with visible device labels mention the granted permission', () => {
    const { checks } = judgeWebrtc({ api: nativeApi, ice: ice([RAW_V4]), mediaDevices: devices(1, 1, 1, 3) }, server('81.2.69.160'))
    expect(String(byId(checks)['mdns-host-candidates']!.observed)).toContain('permission was granted')
  })

  test('missing signals make their checks na, never a silent pass', () => {
    const err = { ok: false as const, ms: 3000, error: { kind: 'timeout' as const, message: 'no answer within 3000 ms' } }
    const { checks } = judgeWebrtc({ api: err, ice: err, mediaDevices: err }, server('81.2.69.160'))
    expect(checks.every((c) => c.verdict === 'na')).toBe(true)
    expect(summarize(checks).total).toBe(0)
  })

  test('a gathering the page stopped waiting for is reported as such', () => {
    const { checks, sections } = judgeWebrtc({ api: nativeApi, ice: ice([], { gathering: 'timeout' }), mediaDevices: devices(1, 1, 1) }, server('81.2.69.160'))
    expect(String(byId(checks)['public-address-leak']!.observed)).toContain('stopped by the page')
    expect(sections.webrtc.gathering).toEqual({ state: 'timeout', ms: 150 })
  })
})

describe('webrtc-leak with STUN/TURN evidence (issue 7)', () => {
  const SRFLX = 'candidate:3375429244 1 udp 1677729535 93.184.216.34 50000 typ srflx raddr 0.0.0.0 rport 0 generation 0 ufrag 6xz9 network-cost 999'
  const page = (srflx: string[] = []) => ({ api: nativeApi, ice: ice([MDNS_A, ...srflx], { servers: SERVICE }), mediaDevices: devices(1, 1, 1) })
  const judged = (ip: string, evidence: Array<{ kind: string; data: unknown }>, srflx: string[] = []) => byId(webrtcLeak.judge(page(srflx), withEvidence(ip, evidence)).checks)
  const turn = (address: string, port = 50000) => ({ kind: 'turn', data: { address, port, family: 'IPv4', transport: 'udp', requestedTransport: 17, realm: 'antibot', software: null } })
  const stun = (address: string, port = 50000) => ({ kind: 'stun', data: { address, port, family: 'IPv4', transport: 'udp' } })

  test('the tool reads turn and stun evidence filed under the page nonce: same address as HTTP passes', () => {
    const c = judged('93.184.216.34', [turn('93.184.216.34'), stun('93.184.216.34')], [SRFLX])
    expect(c['turn-relay-address']!.verdict).toBe('pass')
    expect(c['turn-relay-address']!.observed).toEqual({ httpAddress: '93.184.216.34', allocatedFrom: ['93.184.216.34:50000/udp'] })
    expect(c['stun-observed-address']!.verdict).toBe('pass')
    expect(c['stun-observed-address']!.observed).toMatchObject({ seenByService: ['93.184.216.34:50000/udp'], srflxReportedByPage: ['93.184.216.34:50000'] })
  })

  test('a TURN allocation from another public address than HTTP fails both checks, whatever the page reported', () => {
    const c = judged('185.65.134.77', [turn('93.184.216.34')])
    expect(c['turn-relay-address']!.verdict).toBe('fail')
    expect(c['stun-observed-address']!.verdict).toBe('fail')
  })

  test('a srflx candidate the service never saw is a warning: the page reported an address the service did not give it', () => {
    const c = judged('81.2.69.160', [turn('81.2.69.160', 41000)], [SRFLX])
    expect(c['turn-relay-address']!.verdict).toBe('pass')
    expect(c['stun-observed-address']!.verdict).toBe('warn')
    expect(c['stun-observed-address']!.observed).toMatchObject({ srflxNotSeenByService: ['93.184.216.34:50000'] })
  })

  test('a service on the same machine: loopback HTTP and a private UDP source pass with a note', () => {
    const c = judged('127.0.0.1', [turn('172.17.0.2')])
    expect(c['turn-relay-address']!.verdict).toBe('pass')
    expect(c['turn-relay-address']!.observed).toMatchObject({ note: expect.stringContaining('this machine or network') })
  })

  test('a private UDP source next to a public HTTP address warns', () => {
    expect(judged('81.2.69.160', [turn('192.168.1.23')])['turn-relay-address']!.verdict).toBe('warn')
  })

  test('servers configured and a valid nonce, but nothing reached the service: UDP is blocked, nothing leaks', () => {
    const c = judged('81.2.69.160', [])
    expect(c['turn-relay-address']!.verdict).toBe('pass')
    expect(c['stun-observed-address']!.verdict).toBe('pass')
  })

  test('servers configured but no valid nonce: nothing can be tied to the task, so na', () => {
    const c = byId(webrtcLeak.judge(page(), { ...server('81.2.69.160'), nonce: 'used' }).checks)
    expect(c['turn-relay-address']!.verdict).toBe('na')
    expect(c['turn-relay-address']!.expected).toContain("this submission's is used")
  })

  test('evidence of other kinds is not STUN evidence', () => {
    const c = byId(webrtcLeak.judge(page(), withEvidence('81.2.69.160', [{ kind: 'tls', data: { address: '1.2.3.4', port: 1 } }])).checks)
    expect(c['turn-relay-address']!.verdict).toBe('pass')
    expect(c['stun-observed-address']!.observed).toMatchObject({ seenByService: [] })
  })

  const signals = { api: nativeApi, ice: ice([MDNS_A], { servers: SERVICE }), mediaDevices: devices(1, 1, 1) }
  const run = (evidence: StunEvidence) => byId(judgeWebrtc(signals, server('81.2.69.160'), evidence).checks)

  test('a binding from another address than HTTP is a server-observed leak', () => {
    const c = run({ bindings: [{ address: '93.184.216.34', port: 50000, transport: 'udp' }], allocations: [] })
    expect(c['stun-observed-address']!.verdict).toBe('fail')
    expect(c['turn-relay-address']!.verdict).toBe('pass')
  })

  test('bindings and allocations from the HTTP address pass; no binding at all passes too', () => {
    const c = run({ bindings: [{ address: '81.2.69.160', port: 50000, transport: 'udp' }], allocations: [{ address: '81.2.69.160', port: 50001, transport: 'tcp' }] })
    expect(c['stun-observed-address']!.verdict).toBe('pass')
    expect(c['turn-relay-address']!.verdict).toBe('pass')
    expect(run({ bindings: [], allocations: [] })['stun-observed-address']!.verdict).toBe('pass')
  })

  test('with evidence nothing is pending', () => {
    const { sections } = judgeWebrtc(signals, server('81.2.69.160'), { bindings: [], allocations: [] })
    expect(sections.pending).toEqual([])
    expect(sections.verdict).not.toContain('Not tested')
  })
})

describe('webrtc-leak schemas', () => {
  const signalsCheck = TypeCompiler.Compile(WebrtcLeakSignals)
  const sectionsCheck = TypeCompiler.Compile(WebrtcLeakSections)

  test('the judge’s sections match the published schema', () => {
    const { sections } = webrtcLeak.judge({ api: nativeApi, ice: ice([RAW_V4, MDNS_A]), mediaDevices: devices(1, 1, 1) }, server('81.2.69.160'))
    expect([...sectionsCheck.Errors(sections)]).toEqual([])
  })

  test('more than 100 candidates, or over-long ones, are refused', () => {
    const many = ice(Array.from({ length: 101 }, () => MDNS_A))
    expect(signalsCheck.Check({ api: nativeApi, ice: many, mediaDevices: devices(1, 1, 1) })).toBe(false)
    const long = ice(['candidate:' + 'x'.repeat(2000)])
    expect(signalsCheck.Check({ api: nativeApi, ice: long, mediaDevices: devices(1, 1, 1) })).toBe(false)
  })
})

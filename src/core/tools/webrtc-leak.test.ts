import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { WebrtcLeakSignals } from '../../../common/signals/webrtc-leak'
import { summarize } from '../scoring'
import { server, MDNS_A, MDNS_B, RAW_V4, RAW_V6, TCP_V4, ice, nativeApi, devices, judgeWebrtc, byId, verdicts } from './webrtc-leak.fixture'
import { webrtcLeak, WebrtcLeakSections } from './webrtc-leak'

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
    const long = ice([`candidate:${'x'.repeat(2000)}`])
    expect(signalsCheck.Check({ api: nativeApi, ice: long, mediaDevices: devices(1, 1, 1) })).toBe(false)
  })
})

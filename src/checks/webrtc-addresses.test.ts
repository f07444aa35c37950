import { describe, expect, test } from 'bun:test'
import type { WebrtcLeakSignals } from '../../common/signals/webrtc-leak'
import { runChecks } from '../core/judge'
import { MDNS_A, MDNS_B, RAW_V4, RAW_V6, TCP_V4, devices, ice, nativeApi, server } from '../core/tools/webrtc-leak.fixture'
import { candidatesEventSdp, mdnsHostCandidates, privateAddressExposed, publicAddressLeak } from './webrtc-addresses'

const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
const FF_HOST = 'candidate:0 1 UDP 2122252543 5f0d2a1c-7c3e-4b8e-9f61-2d5a7c4e9b10.local 51234 typ host'
const FF_SRFLX = 'candidate:2 1 UDP 1686052863 81.2.69.160 51234 typ srflx raddr 0.0.0.0 rport 0'
const SRFLX_HOME = 'candidate:1853887674 1 udp 1677729535 81.2.69.160 47523 typ srflx raddr 0.0.0.0 rport 0 generation 0 ufrag sXnE network-cost 999'
const RELAY = 'candidate:4 1 udp 41885439 81.2.69.200 60001 typ relay raddr 0.0.0.0 rport 0 generation 0 ufrag sXnE network-cost 999'

const run = (s: Partial<WebrtcLeakSignals>, ip: string, ua?: string) => {
  const { checks } = runChecks([[mdnsHostCandidates, 10], [privateAddressExposed, 20], [publicAddressLeak, 60], [candidatesEventSdp, 10]], s as WebrtcLeakSignals, server(ip, ua), {})
  const byId = Object.fromEntries(checks.map((c) => [c.id, c]))
  return { mdns: byId['mdns-host-candidates']!, priv: byId['private-address-exposed']!, pub: byId['public-address-leak']!, sdp: byId['candidates-event-sdp']! }
}
const verdicts = (r: ReturnType<typeof run>) => [r.mdns.verdict, r.priv.verdict, r.pub.verdict, r.sdp.verdict]

describe('webrtc-addresses', () => {
  test("a person's Chrome at home: mDNS names and its own public address pass every check", () => {
    const r = run({ api: nativeApi, ice: ice([MDNS_A, MDNS_B, SRFLX_HOME]), mediaDevices: devices(1, 1, 1) }, '81.2.69.160')
    expect(verdicts(r)).toEqual(['pass', 'pass', 'pass', 'pass'])
    expect(r.mdns.observed).toBe('2 host candidate(s), all <uuid>.local names')
    expect(r.pub.observed).toBe('only the HTTP address (81.2.69.160)')
    expect(r.sdp.observed).toBe('3 candidate(s) in both')
  })

  test("a person's Firefox (capital UDP, empty end-of-candidates) passes every check", () => {
    const lines = [FF_HOST, FF_SRFLX]
    const ff = { ok: true as const, ms: 90, value: { candidates: [...lines, ''], sdp: lines.map((l) => `a=${l}`).join('\r\n'), gathering: 'complete' as const, gatheringMs: 85, errors: [] } }
    const r = run({ api: nativeApi, ice: ff, mediaDevices: devices(1, 1, 1) }, '81.2.69.160', FIREFOX_UA)
    expect(verdicts(r)).toEqual(['pass', 'pass', 'pass', 'pass'])
  })

  test('behind a VPN: the raw public IPv6 host address is a leak, the LAN address warns, and nothing is hidden', () => {
    const r = run({ api: nativeApi, ice: ice([RAW_V4, RAW_V6, TCP_V4]), mediaDevices: devices(1, 1, 0) }, '185.65.134.77')
    expect(r.pub).toMatchObject({ verdict: 'fail', points: 60, observed: { leaked: ['2a01:e0a:1:2::5'], httpAddress: '185.65.134.77' } })
    expect(r.priv).toMatchObject({ verdict: 'warn', points: 10, observed: '192.168.1.23 (private)' })
    expect(r.mdns).toMatchObject({ verdict: 'warn', observed: 'raw host address(es): 192.168.1.23, 2a01:e0a:1:2::5' })
    expect(r.sdp.verdict).toBe('pass')
  })

  test('a srflx address other than the HTTP one fails, naming both', () => {
    const r = run({ ice: ice([MDNS_A, SRFLX_HOME]) }, '185.65.134.77')
    expect(r.pub).toMatchObject({ verdict: 'fail', observed: { leaked: ['81.2.69.160'], httpAddress: '185.65.134.77' } })
  })

  test("an IPv6 host address in the HTTP address's /64, or the HTTP address written IPv4-mapped, is not a leak", () => {
    expect(run({ ice: ice([RAW_V6]) }, '2a01:e0a:1:2:aaaa:bbbb:cccc:dddd').pub.verdict).toBe('pass')
    expect(run({ ice: ice([SRFLX_HOME]) }, '::ffff:81.2.69.160').pub).toMatchObject({ verdict: 'pass', expected: 'no public address other than 81.2.69.160' })
  })

  test('raw addresses with visible device labels say the permission was granted', () => {
    const r = run({ ice: ice([RAW_V4]), mediaDevices: devices(1, 1, 1, 3) }, '81.2.69.160')
    expect(String(r.mdns.observed)).toContain('camera or microphone permission was granted')
    expect(String(r.priv.observed)).toContain('camera or microphone permission was granted')
  })

  test('an extension that filters the events but leaves the SDP: the agreement check warns and the address still counts', () => {
    const r = run({ ice: ice([RAW_V4], { sdpOnly: true }) }, '81.2.69.160')
    expect(r.sdp).toMatchObject({ verdict: 'warn', observed: { onlyInEvents: [], onlyInSdp: ['udp 192.168.1.23 56143 host'] } })
    expect(r.priv.verdict).toBe('warn')
  })

  test('only relay candidates (a proxy-only policy): no host candidate to hide, and nothing to compare is na', () => {
    const r = run({ ice: ice([RELAY]) }, '81.2.69.200')
    expect(r.mdns).toMatchObject({ verdict: 'na', expected: expect.stringContaining('no host candidate was gathered'), observed: '1 candidate(s), gathering completed after 150 ms' })
    expect(r.pub.verdict).toBe('pass')
    const none = run({ ice: ice([]) }, '81.2.69.160')
    expect(none.sdp).toMatchObject({ verdict: 'na', expected: 'no candidates in either view, nothing to compare' })
    expect(none.pub).toMatchObject({ verdict: 'pass', observed: 'no public address in 0 candidate(s), gathering completed after 150 ms' })
  })

  test('every check is na with the reason when ICE gathering did not run', () => {
    const r = run({ api: nativeApi, ice: { ok: false, ms: 0, error: { kind: 'unsupported', message: 'no RTCPeerConnection' } } }, '81.2.69.160', FIREFOX_UA)
    expect(verdicts(r)).toEqual(['na', 'na', 'na', 'na'])
    expect(r.pub.expected).toBe('ICE gathering did not run (unsupported: no RTCPeerConnection): nothing can leak through it')
    expect(run({}, '81.2.69.160').priv.expected).toBe('ICE gathering did not run (not collected): nothing can leak through it')
  })
})

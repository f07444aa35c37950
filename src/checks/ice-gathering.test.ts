import { describe, expect, test } from 'bun:test'
import { MDNS_A, MDNS_B, RAW_V4, RAW_V6, devices, ice } from '../core/tools/webrtc-leak.fixture'
import { gathered, gatheringText, hostsHidden, iceDidNotRun, permissionNote, srflxOf } from './ice-gathering'

// Firefox writes UDP/TCP in capitals, no generation/ufrag pairs, and ends gathering with an empty candidate.
const FF_HOST = 'candidate:0 1 UDP 2122252543 5f0d2a1c-7c3e-4b8e-9f61-2d5a7c4e9b10.local 51234 typ host'
const FF_TCP = 'candidate:1 1 TCP 2105524479 5f0d2a1c-7c3e-4b8e-9f61-2d5a7c4e9b10.local 9 typ host tcptype active'
const FF_SRFLX = 'candidate:2 1 UDP 1686052863 81.2.69.160 51234 typ srflx raddr 0.0.0.0 rport 0'
const firefox = (events: string[]) => ({ candidates: [...events, ''], sdp: ['c=IN IP4 81.2.69.160', ...events.map((e) => `a=${e}`), 'a=end-of-candidates'].join('\r\n'), gathering: 'complete' as const, gatheringMs: 85, errors: [] })
const RELAY = 'candidate:4 1 udp 41885439 81.2.69.200 60001 typ relay raddr 81.2.69.160 rport 51234 generation 0 ufrag sXnE network-cost 999'

describe('gathered', () => {
  test("a person's Chrome: mDNS host names seen in events and SDP, and no IP address (0.0.0.0 is dropped)", () => {
    const g = gathered(ice([MDNS_A, MDNS_B]).value)
    expect(g.merged.map((m) => [m.candidate.kind, m.inEvents, m.inSdp])).toEqual([
      ['mdns', true, true],
      ['mdns', true, true],
    ])
    expect([...g.addresses]).toEqual([])
    expect(hostsHidden(g.merged)).toBe(true)
  })

  test("a person's Firefox: capitalised transports merge with the SDP lines, the empty end marker is skipped", () => {
    const g = gathered(firefox([FF_HOST, FF_TCP, FF_SRFLX]))
    expect(g.merged).toHaveLength(3)
    expect(g.merged.every((m) => m.inEvents && m.inSdp)).toBe(true)
    expect(hostsHidden(g.merged)).toBe(true)
    expect(srflxOf(g.merged)).toEqual(['81.2.69.160:51234'])
    expect([...g.addresses]).toEqual([['81.2.69.160', 'public']])
  })

  test('raw host addresses (protection off, or behind a VPN) are listed with their scope', () => {
    const g = gathered(ice([RAW_V4, RAW_V6]).value)
    expect(hostsHidden(g.merged)).toBe(false)
    expect(Object.fromEntries(g.addresses)).toEqual({ '192.168.1.23': 'private', '2a01:e0a:1:2::5': 'public' })
  })

  test('an extension that filters the events but not the SDP: the candidate is marked SDP-only', () => {
    const g = gathered(ice([RAW_V4], { sdpOnly: true }).value)
    expect(g.merged.map((m) => [m.candidate.address, m.inEvents, m.inSdp])).toEqual([['192.168.1.23', false, true]])
    expect(g.addresses.get('192.168.1.23')).toBe('private')
  })

  test("related addresses and the c= line's default address count; unparsable lines do not", () => {
    const g = gathered({ ...ice([MDNS_A, RELAY], { sdpExtra: ['c=IN IP4 10.8.0.2'] }).value, candidates: [MDNS_A, RELAY, 'candidate:garbage'] })
    expect(Object.fromEntries(g.addresses)).toEqual({ '81.2.69.200': 'public', '81.2.69.160': 'public', '10.8.0.2': 'private' })
    expect(g.merged).toHaveLength(2)
  })

  test('without host candidates nothing can be hidden: hostsHidden is null', () => {
    expect(hostsHidden(gathered(ice([RELAY]).value).merged)).toBeNull()
    expect(hostsHidden([])).toBeNull()
  })
})

describe('texts', () => {
  test('gatheringText says how many candidates and how gathering ended', () => {
    const done = ice([MDNS_A]).value
    expect(gatheringText(done, gathered(done).merged)).toBe('1 candidate(s), gathering completed after 150 ms')
    const stopped = ice([], { gathering: 'timeout' }).value
    expect(gatheringText({ ...stopped, gatheringMs: 3000.4 }, [])).toBe('0 candidate(s), gathering stopped by the page after 3000 ms')
  })

  test('permissionNote only when device labels show a granted permission', () => {
    expect(permissionNote(devices(1, 1, 1, 2).value)).toContain('camera or microphone permission was granted')
    expect(permissionNote(devices(1, 1, 1).value)).toBe('')
    expect(permissionNote(undefined)).toBe('')
  })

  test('iceDidNotRun carries the reason', () => {
    expect(iceDidNotRun('unsupported: no RTCPeerConnection')).toBe('ICE gathering did not run (unsupported: no RTCPeerConnection): nothing can leak through it')
  })
})

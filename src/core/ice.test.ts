import { describe, expect, test } from 'bun:test'
import { candidateKey, parseCandidate, parseSdp } from './ice'

// Candidate strings in the forms Chrome, Firefox and Safari produce (addresses changed to
// documentation or well-known ranges where they were personal).
const CHROME_MDNS = 'candidate:28182174 1 udp 2113937151 1e4744f5-761b-425b-9d6c-2f28d7990e3c.local 49070 typ host generation 0 ufrag bqa7 network-cost 999'
const CHROME_HOST_V4 = 'candidate:842163049 1 udp 2122260223 192.168.1.23 56143 typ host generation 0 ufrag sXnE network-id 1 network-cost 10'
const CHROME_HOST_V6 = 'candidate:2999745851 1 udp 2122262783 2A01:0E0A:0001:0002:0000:0000:0000:0005 56144 typ host generation 0 ufrag sXnE network-id 2 network-cost 10'
const CHROME_SRFLX = 'candidate:1853887674 1 udp 1677729535 81.2.69.160 47523 typ srflx raddr 192.168.1.23 rport 56143 generation 0 ufrag sXnE network-id 1 network-cost 10'
const CHROME_SRFLX_MDNS = 'candidate:3098461543 1 udp 1677729535 81.2.69.160 51612 typ srflx raddr 0.0.0.0 rport 0 generation 0 ufrag sXnE network-cost 999'
const CHROME_RELAY = 'candidate:2157334355 1 udp 41885439 198.51.100.7 50000 typ relay raddr 81.2.69.160 rport 47523 generation 0 ufrag sXnE network-id 1 network-cost 10'
const CHROME_TCP = 'candidate:1606712346 1 tcp 1518280447 192.168.1.23 9 typ host tcptype active generation 0 ufrag sXnE network-id 1 network-cost 10'
const FIREFOX_HOST = 'candidate:0 1 UDP 2122252543 10.0.0.12 63571 typ host'
const FIREFOX_MDNS = 'candidate:0 1 UDP 2122187007 0b1e43f5-3f8c-4a3e-9bb0-6a3d5c7e2f10.local 52133 typ host'
const FIREFOX_SRFLX = 'candidate:1 1 UDP 1686052863 81.2.69.160 63571 typ srflx raddr 10.0.0.12 rport 63571'
const FIREFOX_TCP = 'candidate:2 1 TCP 2105524479 10.0.0.12 9 typ host tcptype active'
const FIREFOX_RELAY = 'candidate:5 1 UDP 92217343 198.51.100.7 60870 typ relay raddr 198.51.100.7 rport 60870'

describe('parseCandidate', () => {
  test('a Chrome mDNS host candidate has a .local name and no address', () => {
    const c = parseCandidate(CHROME_MDNS)!
    expect(c).toMatchObject({ foundation: '28182174', component: 1, transport: 'udp', priority: 2113937151, port: 49070, type: 'host', kind: 'mdns' })
    expect(c.address).toBe('1e4744f5-761b-425b-9d6c-2f28d7990e3c.local')
    expect(c.extensions).toEqual({ generation: '0', 'network-cost': '999' })
  })

  test('a raw IPv4 host candidate is classified private', () => {
    expect(parseCandidate(CHROME_HOST_V4)).toMatchObject({ address: '192.168.1.23', kind: 'private', type: 'host', relatedAddress: null })
  })

  test('a raw IPv6 host candidate is normalised and classified public', () => {
    expect(parseCandidate(CHROME_HOST_V6)).toMatchObject({ address: '2a01:e0a:1:2::5', kind: 'public', port: 56144 })
  })

  test('a srflx candidate carries its related (local) address and port', () => {
    expect(parseCandidate(CHROME_SRFLX)).toMatchObject({ type: 'srflx', address: '81.2.69.160', kind: 'public', relatedAddress: '192.168.1.23', relatedKind: 'private', relatedPort: 56143 })
  })

  test('with mDNS on, Chrome hides the related address of srflx as 0.0.0.0:0', () => {
    expect(parseCandidate(CHROME_SRFLX_MDNS)).toMatchObject({ relatedAddress: '0.0.0.0', relatedKind: 'unspecified', relatedPort: 0 })
  })

  test('a relay candidate is parsed with the srflx address as related address', () => {
    expect(parseCandidate(CHROME_RELAY)).toMatchObject({ type: 'relay', address: '198.51.100.7', kind: 'documentation', relatedAddress: '81.2.69.160' })
  })

  test('TCP candidates keep their tcptype; port 9 is the discard port of active candidates', () => {
    expect(parseCandidate(CHROME_TCP)).toMatchObject({ transport: 'tcp', port: 9, tcpType: 'active' })
    expect(parseCandidate(FIREFOX_TCP)).toMatchObject({ transport: 'tcp', tcpType: 'active', address: '10.0.0.12' })
  })

  test('Firefox upper-case transports are lower-cased; its candidates have no extensions', () => {
    expect(parseCandidate(FIREFOX_HOST)).toMatchObject({ transport: 'udp', kind: 'private', extensions: {} })
    expect(parseCandidate(FIREFOX_MDNS)).toMatchObject({ kind: 'mdns' })
    expect(parseCandidate(FIREFOX_SRFLX)).toMatchObject({ type: 'srflx', relatedAddress: '10.0.0.12', relatedPort: 63571 })
    expect(parseCandidate(FIREFOX_RELAY)).toMatchObject({ type: 'relay', relatedAddress: '198.51.100.7' })
  })

  test('the a= prefix of SDP lines is accepted', () => {
    expect(parseCandidate(`a=${CHROME_MDNS}`)?.kind).toBe('mdns')
  })

  test('a TURN server given by name is a hostname, not an address', () => {
    expect(parseCandidate('candidate:9 1 udp 41885439 relay.example.net 3478 typ relay raddr 81.2.69.160 rport 1')?.kind).toBe('hostname')
  })

  test('malformed candidates are rejected', () => {
    expect(parseCandidate('')).toBeNull()
    expect(parseCandidate('candidate:')).toBeNull()
    expect(parseCandidate('candidate:1 1 udp 1 10.0.0.1 70000 typ host')).toBeNull()
    expect(parseCandidate('candidate:1 1 udp x 10.0.0.1 5000 typ host')).toBeNull()
    expect(parseCandidate('candidate:1 1 udp 1 10.0.0.1 5000 type host')).toBeNull()
    expect(parseCandidate('a=ice-ufrag:abcd')).toBeNull()
  })

  test('the same candidate from an event and from the SDP has the same key', () => {
    const fromEvent = parseCandidate(CHROME_SRFLX)!
    const fromSdp = parseCandidate(`a=${CHROME_SRFLX.replace(' ufrag sXnE', '')}`)!
    expect(candidateKey(fromEvent)).toBe(candidateKey(fromSdp))
  })
})

describe('parseSdp', () => {
  // A Chrome offer for a data channel after gathering (trimmed of nothing but personal data).
  const CHROME_OFFER = [
    'v=0',
    'o=- 6803739841901708617 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 81.2.69.160',
    `a=${CHROME_MDNS.replace(' ufrag bqa7', '')}`,
    `a=${CHROME_SRFLX_MDNS.replace(' ufrag sXnE', '')}`,
    'a=candidate:garbage',
    'a=end-of-candidates',
    'a=ice-ufrag:bqa7',
    'a=ice-pwd:sMYBLXNrUfa/N/jdSOQPuCtx',
    'a=mid:0',
    '',
  ].join('\r\n')

  test('reads candidates, the default connection address and end-of-candidates', () => {
    const s = parseSdp(CHROME_OFFER)
    expect(s.candidates.map((c) => c.type)).toEqual(['host', 'srflx'])
    expect(s.connectionAddresses).toEqual(['81.2.69.160'])
    expect(s.unparsed).toEqual(['a=candidate:garbage'])
    expect(s.endOfCandidates).toBe(true)
  })

  test('0.0.0.0 placeholders and rtcp lines are collected once', () => {
    const s = parseSdp('c=IN IP4 0.0.0.0\na=rtcp:9 IN IP4 0.0.0.0\nc=IN IP6 ::\n')
    expect(s.connectionAddresses).toEqual(['0.0.0.0', '::'])
    expect(s.endOfCandidates).toBe(false)
  })

  test('an empty SDP has nothing', () => {
    expect(parseSdp('')).toEqual({ candidates: [], unparsed: [], connectionAddresses: [], endOfCandidates: false })
  })
})

import { describe, expect, test } from 'bun:test'
import { describeAddress, localAddresses, publicAddresses, webrtcAddresses } from './network-evidence'

const host = (addr: string, port = 5000) => `candidate:1 1 udp 2122260223 ${addr} ${port} typ host generation 0`

describe('webrtcAddresses', () => {
  test('counts mDNS hosts and merges the event and SDP views', () => {
    const line = host('84ce2050-4a6f-4292-ac6b-10002bbebe5b.local')
    const r = webrtcAddresses({ candidates: [line], sdp: `c=IN IP4 0.0.0.0\r\na=${line}`, gathering: 'complete', gatheringMs: 100, errors: [] })
    expect(r).toEqual({ addresses: [{ address: '84ce2050-4a6f-4292-ac6b-10002bbebe5b.local', kind: 'mdns', types: ['host'] }], candidates: 1, hosts: 1, mdnsHosts: 1 })
  })
  test('keeps related addresses of srflx candidates and SDP connection addresses', () => {
    const srflx = 'candidate:2 1 udp 1686052607 81.2.69.160 6000 typ srflx raddr 192.168.1.20 rport 5000 generation 0'
    const r = webrtcAddresses({ candidates: [srflx], sdp: 'c=IN IP4 81.2.69.160', gathering: 'complete', gatheringMs: 100, errors: [] })
    expect(localAddresses(r)).toEqual(['192.168.1.20 (private)'])
    expect(publicAddresses(r, '81.2.69.160')).toEqual({ same: ['81.2.69.160'], other: [] })
    expect(publicAddresses(r, '185.220.101.4')).toEqual({ same: [], other: ['81.2.69.160'] })
  })
  test('ignores lines that are not candidates', () => {
    expect(webrtcAddresses({ candidates: ['', 'garbage'], sdp: '', gathering: 'timeout', gatheringMs: 2000, errors: [] }).candidates).toBe(0)
  })
})

describe('describeAddress', () => {
  test('names scope and family', () => {
    expect(describeAddress('::ffff:127.0.0.1').text).toBe('127.0.0.1 (loopback, IPv4)')
    expect(describeAddress('2a00:1450::1')).toMatchObject({ scope: 'public', family: 6 })
    expect(describeAddress('unknown')).toMatchObject({ scope: null, family: null })
  })
})

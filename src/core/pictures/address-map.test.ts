import { expect, test } from 'bun:test'
import { dnsLeakMap, ipLeakMap, webrtcLeakMap } from './address-map'

const lookup = { country: 'DE', asn: 3320, organization: 'Deutsche Telekom AG', network: null }

test('ip-leak: the HTTP address placed, proxy headers and WebRTC addresses, a public one outside its network marked as the leak', () => {
  const groups = ipLeakMap({
    ip: {
      address: '81.2.69.160',
      scope: 'public',
      lookup,
      proxy: { forwarded: [{ header: 'x-forwarded-for', address: '10.0.0.7', scope: 'private' }] },
      webrtc: {
        addresses: [
          { address: '192.168.1.20', kind: 'private', types: ['host'] },
          { address: '203.0.113.9', kind: 'public', types: ['srflx'] },
          { address: '81.2.69.161', kind: 'public', types: ['srflx'] },
        ],
        public: [
          { address: '203.0.113.9', sameAsHttp: false, network: 'US, AS64500 Example VPN' },
          { address: '81.2.69.161', sameAsHttp: true, network: 'DE, AS3320 Deutsche Telekom AG' },
        ],
      },
    },
  })
  expect(groups.map((g) => g.seenBy)).toEqual(['http', 'proxy', 'webrtc'])
  expect(groups[0]!.addresses[0]).toMatchObject({ address: '81.2.69.160', place: 'DE, AS3320 Deutsche Telekom AG', mark: null })
  expect(groups[1]!.addresses[0]).toMatchObject({ address: '10.0.0.7', mark: 'local' })
  expect(groups[2]!.addresses.map((a) => [a.address, a.mark, a.place])).toEqual([
    ['192.168.1.20', 'local', null],
    ['203.0.113.9', 'leak', 'US, AS64500 Example VPN'],
    ['81.2.69.161', null, 'DE, AS3320 Deutsche Telekom AG'],
  ])
})

test('webrtc-leak: what the STUN/TURN listener saw under the page’s valid nonce is its own group, a foreign address the leak', () => {
  const server = {
    nonce: 'valid',
    evidence: [
      { kind: 'stun', observedAt: '', data: { address: '93.184.216.34', port: 50000, transport: 'udp' } },
      { kind: 'turn', observedAt: '', data: { address: '93.184.216.34', port: 50001, transport: 'udp' } },
    ],
  }
  const r = { webrtc: { httpAddress: '81.2.69.160', addresses: [{ address: '81.2.69.160', kind: 'public' }], candidates: [{ address: '81.2.69.160', type: 'srflx' }] }, server }
  const groups = webrtcLeakMap(r)
  expect(groups.map((g) => g.seenBy)).toEqual(['http', 'webrtc', 'stun'])
  expect(groups[1]!.addresses[0]).toMatchObject({ detail: 'public: srflx', mark: null })
  expect(groups[2]!.addresses).toEqual([expect.objectContaining({ address: '93.184.216.34', mark: 'leak', detail: 'STUN binding from port 50000/udp, TURN allocation' })])
  // Evidence without a valid nonce is not this page's.
  expect(webrtcLeakMap({ ...r, server: { ...server, nonce: 'unknown' } }).map((g) => g.seenBy)).toEqual(['http', 'webrtc'])
})

test('dns-leak: each resolver judged as resolver-network judges it: a public resolver passes, another country is the leak', () => {
  const groups = dnsLeakMap({
    dns: {
      clientAddress: '81.2.69.160',
      clientNetwork: { country: 'DE', asn: 3320, org: 'Deutsche Telekom AG' },
      resolvers: [
        { address: '172.253.1.1', provider: 'Google Public DNS', country: 'US', asn: 15169, org: 'Google LLC', queries: 2, types: ['A', 'AAAA'] },
        { address: '198.51.100.53', provider: null, country: 'FR', asn: 64501, org: 'Example ISP', queries: 1, types: ['A'] },
      ],
    },
  })
  expect(groups.map((g) => g.seenBy)).toEqual(['http', 'dns'])
  expect(groups[1]!.addresses.map((a) => [a.address, a.mark])).toEqual([['172.253.1.1', null], ['198.51.100.53', 'leak']])
  expect(groups[1]!.addresses[1]!.why).toBe('other country (FR, HTTP address in DE)')
  expect(groups[1]!.addresses[0]!.detail).toBe('Google Public DNS · A, AAAA · 2 queries')
})

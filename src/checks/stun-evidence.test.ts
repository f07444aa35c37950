import { describe, expect, test } from 'bun:test'
import type { ServerObservation } from '../core/tools/observation'
import { LOCAL_NOTE, fmtSeen, localNote, matchAddress, stunEvidenceOf, turnAgainstHttp, worstMatch, type Seen } from './stun-evidence'

const at = '2026-01-01T00:00:00+00:00'
// What src/listeners/stun.ts files: the source address and port of a Binding or an authenticated Allocate.
const turn = (address: string, port = 50000, transport = 'udp') => ({ kind: 'turn', data: { address, port, family: 'IPv4', transport, requestedTransport: 17, realm: 'antibot', software: null }, observedAt: at })
const stun = (address: string, port = 50000) => ({ kind: 'stun', data: { address, port, family: 'IPv4', transport: 'udp' }, observedAt: at })
const obs = (evidence: ServerObservation['evidence'], nonce: ServerObservation['nonce'] = 'valid') => ({ nonce, evidence })
const seen = (address: string, port = 50000): Seen => ({ address, port, transport: 'udp' })

describe('stunEvidenceOf', () => {
  test("reads a Chrome page's Binding and Allocate sources, IPv4-mapped addresses made plain", () => {
    expect(stunEvidenceOf(obs([turn('::ffff:81.2.69.160', 50000), stun('81.2.69.160', 50001), turn('81.2.69.160', 443, 'tcp')]))).toEqual({
      bindings: [seen('81.2.69.160', 50001)],
      allocations: [seen('81.2.69.160'), { address: '81.2.69.160', port: 443, transport: 'tcp' }],
    })
  })

  test('ignores other kinds and records without an address or port', () => {
    const e = stunEvidenceOf(obs([{ kind: 'tls', data: { address: '1.2.3.4', port: 1 }, observedAt: at }, { kind: 'turn', data: { address: '81.2.69.160' }, observedAt: at }, { kind: 'stun', data: null, observedAt: at }]))
    expect(e).toEqual({ bindings: [], allocations: [] })
  })

  test('nothing can be tied to a submission without a valid nonce', () => {
    expect(stunEvidenceOf(obs([turn('81.2.69.160')], 'used'))).toBeNull()
    expect(stunEvidenceOf(obs([turn('81.2.69.160')], 'missing'))).toBeNull()
    expect(stunEvidenceOf({ nonce: 'valid' })).toBeNull()
  })
})

describe('matchAddress and worstMatch', () => {
  test("a person's browser: the UDP source is the HTTP address, or in its IPv6 /64", () => {
    expect(matchAddress('81.2.69.160', '81.2.69.160')).toBe('same')
    expect(matchAddress('2a01:e0a:1:2::5', '2a01:e0a:1:2:aaaa:bbbb:cccc:dddd')).toBe('same')
    expect(worstMatch([seen('81.2.69.160')], '81.2.69.160')).toBe('pass')
  })

  test('behind a VPN that lets UDP out directly: another public address is a leak and fails', () => {
    expect(matchAddress('81.2.69.160', '185.65.134.77')).toBe('leak')
    expect(matchAddress('2a01:e0a:1:3::5', '2a01:e0a:1:2::5')).toBe('leak')
    expect(worstMatch([seen('185.65.134.77'), seen('81.2.69.160')], '185.65.134.77')).toBe('fail')
  })

  test('a private UDP source next to a public HTTP address warns; next to a local one it passes', () => {
    expect(matchAddress('192.168.1.23', '81.2.69.160')).toBe('local-vs-public')
    expect(worstMatch([seen('192.168.1.23')], '81.2.69.160')).toBe('warn')
    expect(matchAddress('172.17.0.2', '127.0.0.1')).toBe('local')
    expect(worstMatch([seen('172.17.0.2')], '127.0.0.1')).toBe('pass')
    expect(worstMatch([], '81.2.69.160')).toBe('pass')
  })

  test('localNote only for a local source next to a local HTTP address', () => {
    expect(localNote([seen('172.17.0.2')], '127.0.0.1')).toEqual({ note: LOCAL_NOTE })
    expect(localNote([seen('192.168.1.23')], '81.2.69.160')).toEqual({})
    expect(localNote([seen('81.2.69.160')], '81.2.69.160')).toEqual({})
  })
})

describe('turnAgainstHttp', () => {
  test('the TURN allocation from the HTTP address passes, listing what the service saw', () => {
    expect(turnAgainstHttp(stunEvidenceOf(obs([turn('81.2.69.160')])), '::ffff:81.2.69.160')).toEqual({ verdict: 'pass', seen: ['81.2.69.160:50000/udp'] })
  })

  test("a VPN user's home address reaching the TURN listener fails", () => {
    expect(turnAgainstHttp(stunEvidenceOf(obs([turn('81.2.69.160', 41000)])), '185.65.134.77')).toEqual({ verdict: 'fail', seen: ['81.2.69.160:41000/udp'] })
  })

  test('a service on the same machine passes with the note', () => {
    expect(turnAgainstHttp(stunEvidenceOf(obs([turn('172.17.0.2')])), '127.0.0.1')).toEqual({ verdict: 'pass', seen: ['172.17.0.2:50000/udp'], note: LOCAL_NOTE })
  })

  test('null without an allocation: bindings alone, no evidence, or no valid nonce', () => {
    expect(turnAgainstHttp(stunEvidenceOf(obs([stun('81.2.69.160')])), '185.65.134.77')).toBeNull()
    expect(turnAgainstHttp(stunEvidenceOf(obs([])), '185.65.134.77')).toBeNull()
    expect(turnAgainstHttp(null, '185.65.134.77')).toBeNull()
  })

  test('fmtSeen writes address:port/transport', () => {
    expect(fmtSeen({ address: '2a01:e0a:1:2::5', port: 3478, transport: 'tcp' })).toBe('2a01:e0a:1:2::5:3478/tcp')
  })
})

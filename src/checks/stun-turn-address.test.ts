// The STUN/TURN checks through the webrtc-leak tool, with what the listener filed under the page nonce.
import { describe, expect, test } from 'bun:test'
import { server, withEvidence, SERVICE, MDNS_A, ice, nativeApi, devices, judgeWebrtc, byId } from '../core/tools/webrtc-leak.fixture'
import { webrtcLeak } from '../core/tools/webrtc-leak'
import type { StunEvidence } from './stun-evidence'

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


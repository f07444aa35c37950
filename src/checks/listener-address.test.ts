import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { listenerAddress } from './listener-address'

const at = '2026-11-15T12:00:00+00:00'
const run = (server: Partial<ServerObservation>) => runChecks([[listenerAddress, 10]], {}, { ip: '127.0.0.70', userAgent: 'x', headers: [], receivedAt: 0, ...server }, {}).checks[0]!

describe('listener-address', () => {
  test('na without a record of the HTTPS listener', () => {
    expect(run({ evidence: [{ kind: 'dns', data: {}, observedAt: at }] }).verdict).toBe('na')
  })

  test("passes when every record is the submitter's own", () => {
    expect(run({ evidence: [{ kind: 'tls', data: {}, observedAt: at }, { kind: 'http2', data: {}, observedAt: at }] })).toMatchObject({ verdict: 'pass', observed: '2 records from 127.0.0.70' })
  })

  test("warns when another address's records were set aside, saying whose, and that none of the client's own were judged", () => {
    const c = run({ evidence: [], evidenceElsewhere: [{ kind: 'tls', address: '127.0.0.71', observedAt: at }, { kind: 'http1', address: '127.0.0.71', observedAt: at }] })
    expect(c).toMatchObject({ verdict: 'warn', points: 5 })
    expect(c.observed).toEqual({ submitter: '127.0.0.70', setAside: ['tls from 127.0.0.71', 'http1 from 127.0.0.71'], judged: 'none: the handshake checks have no record of this client (127.0.0.71 made the connection)' })
  })

  test('warns beside its own records too (the nonce was used from two places); a proxy header record is not a listener record', () => {
    const c = run({ evidence: [{ kind: 'tls', data: {}, observedAt: at }, { kind: 'tls', data: {}, observedAt: at, source: 'proxy' }], evidenceElsewhere: [{ kind: 'tls', address: null, observedAt: at }] })
    expect(c).toMatchObject({ verdict: 'warn', observed: { setAside: ['tls from an unknown address'], judged: '1 record from 127.0.0.70' } })
  })
})

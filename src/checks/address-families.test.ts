import { describe, expect, test } from 'bun:test'
import type { IpLeakSignals } from '../../common/signals/ip-leak'
import { runChecks } from '../core/judge'
import { ipv4Request, ipv6Request } from './address-families'

const reach = (url: string, reachable: boolean) => ({ url, reachable, ms: 3, error: reachable ? null : 'Failed to fetch' })
const run = (families: IpLeakSignals['families']) => runChecks([[ipv4Request, 0], [ipv6Request, 0]], { families } as IpLeakSignals, { ip: '127.0.0.1', userAgent: 'x', headers: [], receivedAt: 0 }, {}).checks

describe('ipv4-request and ipv6-request', () => {
  test('a family that answered passes; one that did not is not applicable, with the error', () => {
    const [v4, v6] = run({ ok: true, value: { ipv4: reach('http://127.0.0.1:3000/healthz', true), ipv6: reach('http://[::1]:3000/healthz', false) }, ms: 1 })
    expect(v4).toMatchObject({ verdict: 'pass', observed: 'http://127.0.0.1:3000/healthz answered in 3 ms' })
    expect(v6).toMatchObject({ verdict: 'na', observed: 'http://[::1]:3000/healthz: Failed to fetch' })
  })
  test('without the requests both say why', () => {
    expect(run({ ok: false, error: { kind: 'unsupported', message: 'needs two host names (issue 7)' }, ms: 1 }).map((c) => c.expected)).toEqual(['unsupported: needs two host names (issue 7)', 'unsupported: needs two host names (issue 7)'])
  })
})

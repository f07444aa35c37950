import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import { forwardedAddressLeak, proxyHeaders } from './proxy-headers'

const run = (ip: string, headers: Array<[string, string]>) => {
  const [proxy, forwarded] = runChecks([[proxyHeaders, 20], [forwardedAddressLeak, 40]], {}, { ip, userAgent: 'x', headers, receivedAt: 0 }, {}).checks
  return { proxy: proxy!, forwarded: forwarded! }
}

describe('proxy-headers', () => {
  test('passes a request without proxy headers', () => {
    expect(run('81.2.69.7', [['accept', '*/*']]).proxy).toMatchObject({ verdict: 'pass', observed: 'none' })
  })

  test("passes the headers of the service's own trusted proxy", () => {
    const r = run('81.2.69.7', [['x-forwarded-for', '81.2.69.7'], ['x-forwarded-proto', 'https']])
    expect(r.proxy).toMatchObject({ verdict: 'pass', observed: "only the headers of the service's own trusted proxy" })
    expect(r.forwarded.verdict).toBe('pass')
  })

  test('fails proxy headers that arrived with the request, listing them and the addresses they name', () => {
    const r = run('81.2.69.200', [['via', '1.1 squid'], ['x-forwarded-for', '81.2.69.7']])
    expect(r.proxy).toMatchObject({ verdict: 'fail', points: 20, observed: { headers: ['via: 1.1 squid', 'x-forwarded-for: 81.2.69.7'], forwardedAddresses: ['81.2.69.7 (public)'] } })
    expect(r.forwarded).toMatchObject({ verdict: 'fail', observed: '81.2.69.7 (public, x-forwarded-for)' })
  })

  // The one behaviour kept where ip-leak and vpn-detector disagreed: addresses left of the
  // client in the trusted proxy's X-Forwarded-For came from the client's side, so a proxy sits
  // before the service's own (ip-leak used to pass this).
  test("fails a client-side chain in front of the service's own proxy", () => {
    const r = run('81.2.69.23', [['x-forwarded-for', '10.1.1.1, 81.2.69.23']])
    expect(r.proxy).toMatchObject({ verdict: 'fail', observed: { headers: [], forwardedAddresses: ['10.1.1.1 (private)'] } })
    expect(r.forwarded.verdict).toBe('warn')
  })
})

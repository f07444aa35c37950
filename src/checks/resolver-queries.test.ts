import { describe, expect, test } from 'bun:test'
import { server, judgeDns, byId, signals, q, client, networks } from '../core/tools/dns-leak.fixture'

describe('ecs-subnet through the dns-leak tool', () => {
  test('an EDNS Client Subnet of another network fails; the client’s own /24 passes', () => {
    const other = judgeDns(signals, server(client), { queries: [q(1, '172.69.1.2', { ecs: '93.184.216.0/24' })], networks })
    expect(byId(other.checks)['ecs-subnet']!.verdict).toBe('fail')
    expect(other.sections.verdict).toMatch(/^DNS leak/)
    const own = judgeDns(signals, server(client), { queries: [q(1, '172.69.1.2', { ecs: '81.2.69.0/24' })], networks })
    expect(byId(own.checks)['ecs-subnet']!.verdict).toBe('pass')
    const v6 = judgeDns(signals, server(client), { queries: [q(1, '172.69.1.2', { ecs: '2a01:e0a:1::/56' })], networks })
    expect(byId(v6.checks)['ecs-subnet']!.verdict).toBe('warn')
    const optOut = judgeDns(signals, server(client), { queries: [q(1, '172.69.1.2', { ecs: '0.0.0.0/0' })], networks })
    expect(byId(optOut.checks)['ecs-subnet']!.observed).toBe('no EDNS Client Subnet sent')
  })

})

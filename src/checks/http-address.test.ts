import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import { httpAddress } from './http-address'

const run = (ip: string) => runChecks([[httpAddress, 0]], {}, { ip, userAgent: 'x', headers: [], receivedAt: 0 }, {}).checks[0]!

describe('http-address', () => {
  test('passes a public or CGNAT address, described', () => {
    expect(run('81.2.69.23')).toMatchObject({ verdict: 'pass', observed: '81.2.69.23 (public, IPv4)' })
    expect(run('100.64.1.1').verdict).toBe('pass')
  })
  test('is not applicable on loopback or without an address, saying why', () => {
    expect(run('::ffff:127.0.0.1')).toMatchObject({ verdict: 'na', observed: '127.0.0.1 (loopback, IPv4)' })
    expect(run('::ffff:127.0.0.1').expected).toContain('loopback means the service is reached from the same machine')
    expect(run('unknown').expected).toContain('without a socket')
  })
})

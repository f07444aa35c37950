import { describe, expect, test } from 'bun:test'
import { fakeLookup, NETWORKS } from '../../tests/support/fake-ipdb'
import { runChecks } from '../core/judge'
import { datacenterAsn, ipCountry } from './ip-network'

const CTX = { lookupIp: fakeLookup({ '81.2.69.23': NETWORKS.aaisp, '3.120.0.9': NETWORKS.aws, '104.28.0.1': NETWORKS.cloudflare }) }
const run = (ip: string, ctx = CTX) => runChecks([[ipCountry, 0], [datacenterAsn, 30]], {}, { ip, userAgent: 'x', headers: [], receivedAt: 0 }, ctx).checks

describe('ip-country and datacenter-asn', () => {
  test('a home line passes, placed by the database', () => {
    expect(run('81.2.69.23').map((c) => [c.verdict, c.observed])).toEqual([
      ['pass', 'GB, AS20712 Andrews & Arnold Ltd'],
      ['pass', 'AS20712 Andrews & Arnold Ltd: not a known cloud, hosting, CDN, VPN or Tor network'],
    ])
  })
  test('a cloud address fails, a CDN relay warns', () => {
    expect(run('3.120.0.9').map((c) => c.verdict)).toEqual(['pass', 'fail'])
    expect(run('104.28.0.1').map((c) => c.verdict)).toEqual(['pass', 'warn'])
  })
  test('loopback, or no database: not applicable, with the address described', () => {
    expect(run('127.0.0.1')[1]).toMatchObject({ verdict: 'na', observed: '127.0.0.1 (loopback, IPv4)' })
    expect(run('81.2.69.23', {} as typeof CTX)[1]!.expected).toContain('offline IP database')
  })
})

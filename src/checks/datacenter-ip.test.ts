import { describe, expect, test } from 'bun:test'
import { fakeLookup, NETWORKS } from '../../tests/support/fake-ipdb'
import { botDetector } from '../core/tools/bot-detector'
import { humanChrome, chromeServer } from '../core/tools/bot-detector.fixture'

describe('bot-detector datacenter-ip (offline IP database)', () => {
  const ctx = { lookupIp: fakeLookup({ '3.120.0.9': NETWORKS.aws, '79.200.1.1': NETWORKS.telekom, '185.65.134.1': NETWORKS.mullvad, '104.28.0.1': NETWORKS.cloudflare, '45.0.0.1': NETWORKS.smallHost }) }
  const at = (ip: string) => botDetector.judge(humanChrome(), { ...chromeServer(), ip }, ctx).checks.find((c) => c.id === 'datacenter-ip')!

  test('a cloud address fails; a home line passes', () => {
    expect(at('3.120.0.9')).toMatchObject({ verdict: 'fail', observed: 'US, AS16509 Amazon.com, Inc. (cloud: Amazon AWS)', points: 20 })
    expect(at('79.200.1.1').verdict).toBe('pass')
  })

  test('VPN exits and name-guessed hosts warn; CDN relays (WARP, iCloud Private Relay) pass', () => {
    expect(at('185.65.134.1').verdict).toBe('warn')
    expect(at('45.0.0.1').verdict).toBe('warn')
    expect(at('104.28.0.1')).toMatchObject({ verdict: 'pass', observed: 'US, AS13335 Cloudflare, Inc. (cdn: Cloudflare)' })
  })

  test('without the database the check says it is missing', () => {
    const c = botDetector.judge(humanChrome(), { ...chromeServer(), ip: '79.200.1.1' }).checks.find((x) => x.id === 'datacenter-ip')!
    expect(c.verdict).toBe('na')
    expect(c.expected).toContain('offline IP database')
  })
})

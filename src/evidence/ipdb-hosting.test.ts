import { describe, expect, test } from 'bun:test'
import { classifyNetwork, KNOWN_NETWORKS, NETWORK_KINDS } from './ipdb-hosting'

describe('classifyNetwork', () => {
  test('names a listed AS by provider, whatever its organisation name', () => {
    expect(classifyNetwork(16509, 'Amazon.com, Inc.')).toEqual({ source: 'known-asn', kind: 'cloud', label: 'Amazon AWS' })
    expect(classifyNetwork(13335, null)).toEqual({ source: 'known-asn', kind: 'cdn', label: 'Cloudflare' })
    expect(classifyNetwork(39351, '31173 Services AB')?.kind).toBe('vpn')
    expect(classifyNetwork(60729, 'Stiftung Erneuerbare Freiheit')?.kind).toBe('tor')
  })

  test.each([
    ['Bytesized Hosting B.V.', 'hosting'],
    ['Datacenter Luxembourg S.A.', 'datacenter'],
    ['PLTPRO Data Centre Sdn. Bhd.', 'data centre'],
    ['UK Colocation Ltd', 'colocation'],
    ['CLOUD SERVERS AUSTRALIA PTY LTD', 'cloud'],
    ['Broadband Hosting B.V.', 'hosting'],
  ])('flags %p by the word %p, as a heuristic', (org, word) => {
    expect(classifyNetwork(64500, org)).toEqual({ source: 'org-name-heuristic', kind: 'hosting', label: word })
  })

  test.each(['Cloud Telecom SAS', 'Server Fast Telecom', 'Cloud Net Cable and Telecom Inc.'])('does not flag the ISP %p for a weak word', (org) => {
    expect(classifyNetwork(64500, org)).toBeNull()
  })

  test('an ISP, or nothing known, is not hosting', () => {
    expect(classifyNetwork(3320, 'Deutsche Telekom AG')).toBeNull()
    expect(classifyNetwork(7922, 'Comcast Cable Communications, LLC')).toBeNull()
    expect(classifyNetwork(null, null)).toBeNull()
    expect(classifyNetwork(64500, '')).toBeNull()
  })

  test('does not match words inside other words', () => {
    expect(classifyNetwork(64500, 'Ghostnet GmbH')).toBeNull()
    expect(classifyNetwork(64500, 'Observatory Networks')).toBeNull()
  })
})

test('every listed AS has a known kind, a provider and the word to check its name against', () => {
  for (const [asn, n] of KNOWN_NETWORKS) {
    expect(Number.isInteger(asn) && asn > 0).toBe(true)
    expect(NETWORK_KINDS).toContain(n.kind)
    expect(n.provider.length).toBeGreaterThan(0)
    expect(n.orgHas.length).toBeGreaterThan(0)
  }
})

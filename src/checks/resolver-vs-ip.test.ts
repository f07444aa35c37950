import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { resolverVsIp } from './resolver-vs-ip'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
const obs = (ip: string, ua: string, evidence?: ServerObservation['evidence']): ServerObservation => ({ ip, userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, ...(evidence ? { nonce: 'valid' as const, evidence } : {}) })
const dns = (resolver: string) => ({ kind: 'dns', data: { resolver, name: 'abc.dns.antibot.example', type: 'A' }, observedAt: '2026-01-01T00:00:00+00:00' })
const run = (o: ServerObservation) => runChecks([[resolverVsIp, 20]], {}, o, {}).checks[0]!

// The vpn-detector page makes no lookups in the service's DNS zone, so this check never has a
// resolver to compare: it is always na and points at dns-leak, which runs the lookups.
describe('resolver-vs-ip', () => {
  test("is na for a person's Chrome and Firefox, saying it needs the dns-leak tool's lookups", () => {
    for (const ua of [CHROME_UA, FIREFOX_UA]) {
      expect(run(obs('81.2.69.23', ua))).toMatchObject({ id: 'resolver-vs-ip', verdict: 'na', points: 0, source: 'server', observed: null, expected: expect.stringContaining('the dns-leak tool runs them') })
    }
  })

  test('stays na, costing nothing, even next to DNS evidence of a leaking resolver', () => {
    // A resolver in another network than the VPN exit: the dns-leak tool judges this; here it is not read.
    const r = run(obs('185.65.134.77', CHROME_UA, [dns('81.2.69.160')]))
    expect(r).toMatchObject({ verdict: 'na', points: 0 })
    expect(r.expected).toContain("needs DNS lookups by this page through the service's DNS zone")
  })
})

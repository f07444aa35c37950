import { describe, expect, test } from 'bun:test'
import type { DnsLeakSignals } from '../../common/signals/dns-leak'
import { runChecks } from '../core/judge'
import { lookups, noZone as noZoneSignal, server, signals, today } from '../core/tools/dns-leak.fixture'
import { dnsLookupsSent, noZone } from './dns-lookups-sent'

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
const run = (s: Partial<DnsLeakSignals>, ua?: string) => {
  const obs = server('81.2.69.160')
  return runChecks([[dnsLookupsSent, 0]], s as DnsLeakSignals, ua ? { ...obs, userAgent: ua } : obs, {}).checks[0]!
}
const withNames = (outcomes: Array<'load' | 'error' | 'timeout'>) => ({
  ...lookups,
  value: { ...lookups.value, names: lookups.value.names.slice(0, outcomes.length).map((n, i) => ({ ...n, outcome: outcomes[i]! })) },
})

describe('dns-lookups-sent', () => {
  test("passes a person's Chrome that requested every name, informational (no points)", () => {
    expect(run(signals)).toMatchObject({ verdict: 'pass', points: 0, source: 'client', observed: '4 names under probe.example.net requested (4 settled, 0 still pending at the time limit)' })
  })

  test('passes Firefox whose loads were still pending at the time limit, counting them', () => {
    expect(run({ ...signals, lookups: withNames(['error', 'error', 'timeout', 'timeout']) }, FIREFOX)).toMatchObject({ verdict: 'pass', observed: '4 names under probe.example.net requested (2 settled, 2 still pending at the time limit)' })
  })

  test('warns when the page requested no name', () => {
    expect(run({ ...signals, lookups: withNames([]) })).toMatchObject({ verdict: 'warn', observed: '0 names under probe.example.net requested (0 settled, 0 still pending at the time limit)', expected: 'every name requested' })
  })

  test('is not applicable when the service has no DNS zone, saying so', () => {
    expect(run(today)).toMatchObject({ verdict: 'na', observed: 'unsupported: no DNS zone configured (DNS_ZONE)', expected: 'a DNS zone served by the service (DNS_ZONE): without one the page has no names to look up' })
  })

  test('is not applicable when the lookups failed or were not sent', () => {
    const timedOut = { ok: false as const, ms: 3000, error: { kind: 'timeout' as const, message: 'no answer within 3000 ms' } }
    expect(run({ ...signals, lookups: timedOut })).toMatchObject({ verdict: 'na', observed: 'timeout: no answer within 3000 ms', expected: 'lookups made by the page' })
    expect(run({ connection: signals.connection, navigation: signals.navigation })).toMatchObject({ verdict: 'na', observed: 'not collected', expected: 'lookups made by the page' })
  })
})

describe('noZone', () => {
  test('is true only for the no-zone error', () => {
    expect(noZone({ lookups: noZoneSignal })).toBe(true)
    expect(noZone({ lookups })).toBe(false)
    expect(noZone({ lookups: { ok: false, ms: 1, error: { kind: 'unsupported', message: 'no fetch' } } })).toBe(false)
    expect(noZone({})).toBe(false)
  })
})

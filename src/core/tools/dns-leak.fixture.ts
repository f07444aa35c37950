// Sample dns-leak submissions for the tool's tests and its checks' (src/checks/*.test.ts).

import type { Static } from '@sinclair/typebox'
import { NO_ZONE_MESSAGE } from '../../../common/dns-zone'
import type { DnsLeakSignals as Signals } from '../../../common/signals/dns-leak'
import type { DnsEvidence } from '../../checks/dns-evidence'
import type { Check } from '../scoring'
import { dnsLeak, type DnsLeakSections } from './dns-leak'
import type { ServerObservation } from './observation'
import type { JudgeContext } from '../../checks/define'

export const server = (ip: string): ServerObservation => ({ ip, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', headers: [], receivedAt: 0 })
/**
 * The registered judge; `dns` stands for what the DNS listener filed under a valid page nonce
 * (carried as `dns` evidence, as src/http/observe.ts does) and, with `networks`, for the
 * offline IP database's answers (ctx.lookupIp). Without it the observation was never read
 * against the listener.
 */
export function judgeDns(s: Signals, obs: ServerObservation, dns: DnsEvidence | null = null) {
  const networks = dns?.networks
  const lookupIp: JudgeContext['lookupIp'] = (ip) => {
    const n = networks?.[ip]
    return n ? { ok: true, info: { ip, version: ip.includes(':') ? 6 : 4, country: n.country, asn: n.asn, org: n.org, hosting: false, hostingReason: null } } : { ok: false, reason: 'unlisted', scope: 'public' }
  }
  const observed: ServerObservation = dns ? { ...obs, nonce: obs.nonce ?? 'valid', evidence: dns.queries.map((data) => ({ kind: 'dns', data, observedAt: '2025-03-01T12:00:00+00:00' })) } : obs
  const judged = dnsLeak.judge(s, observed, networks ? { lookupIp } : {})
  return { checks: judged.checks, sections: judged.sections as Static<typeof DnsLeakSections> }
}

export const byId = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c]))
export const verdicts = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c.verdict]))

export const noZone = { ok: false as const, ms: 0, error: { kind: 'unsupported' as const, message: NO_ZONE_MESSAGE } }
export const chromeConnection = { ok: true as const, ms: 0, value: { type: null, effectiveType: '4g', rtt: 100, downlink: 1.55, saveData: false } }
export const navigation = { ok: true as const, ms: 0, value: { hostIsIp: false, dnsMs: 12.3, connectMs: 20, tlsMs: 11, protocol: 'h2' } }
export const NONCE = '3f9a0c1b2d4e5f60'
export const lookups = {
  ok: true as const,
  ms: 180,
  value: {
    zone: 'probe.example.net',
    nonce: NONCE,
    names: [1, 2, 3, 4].map((n) => ({ name: `${NONCE}-${n}.probe.example.net`, via: n <= 2 ? ('img' as const) : ('fetch' as const), outcome: 'error' as const, ms: 40 + n })),
  },
}
export const today: Signals = { lookups: noZone, connection: chromeConnection, navigation }

/** A page that made its lookups (the service has a DNS zone). */
export const signals: Signals = { ...today, lookups }
export const q = (n: number, resolver: string, extra: Partial<DnsEvidence['queries'][number]> = {}) => ({ name: `${NONCE}-${n}.probe.example.net`, qtype: 'A', resolver, ecs: null, ...extra })
export const client = '81.2.69.160'
export const networks = {
  [client]: { country: 'GB', asn: 20712, org: 'Andrews & Arnold' },
  '81.2.69.10': { country: 'GB', asn: 20712, org: 'Andrews & Arnold' },
  '93.184.216.34': { country: 'DE', asn: 3320, org: 'Deutsche Telekom' },
  '172.69.1.2': { country: 'GB', asn: 13335, org: 'Cloudflare' },
  '62.3.4.5': { country: 'GB', asn: 5089, org: 'Virgin Media' },
}


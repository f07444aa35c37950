// What the queries themselves say (./dns-evidence.ts): an EDNS Client Subnet that reveals
// the network behind a VPN, and whether the resolver randomises the query-name case.

import type { DnsLeakSignals } from '../../common/signals/dns-leak'
import { cidrContains, parseCidr, parseIp } from '../core/ip'
import { checkOn, na } from './define'
import { LISTENER_MISSING, NO_RESOLVER, resolverEvidence } from './dns-evidence'

const dnsCheck = checkOn<DnsLeakSignals>()

export const ecsSubnet = dnsCheck({
  id: 'ecs-subnet',
  name: 'EDNS Client Subnet does not reveal another network',
  found: 'EDNS Client Subnet reveals another network',
  source: 'server',
  why: 'Resolvers that send EDNS Client Subnet (RFC 7871) pass a prefix of the client\'s address to authoritative servers. A prefix that does not contain the HTTP address reveals the network behind the VPN or proxy. A prefix of the other IP family can be a dual-stack network, so that only warns.',
  ref: 'https://datatracker.ietf.org/doc/html/rfc7871',
  needs: [],
  uses: ['lookups'],
  judge: (_, { raw, server, ctx }) => {
    const r = resolverEvidence(raw, server, ctx, (client) => `needs ${LISTENER_MISSING}: it reads the EDNS Client Subnet option of each query and compares it with the ${client}`)
    if (!r.ok) return r.outcome
    const { evidence: { queries }, clientIp, client } = r
    if (!queries.length) return na(NO_RESOLVER)
    // A /0 prefix is the resolver saying "do not use my subnet" (RFC 7871).
    const subnets = [...new Set(queries.map((q) => q.ecs).filter((e): e is string => !!e && !/\/0$/.test(e)))]
    if (!subnets.length) return { verdict: 'pass', observed: 'no EDNS Client Subnet sent', expected: 'no subnet, or one containing the HTTP address' }
    const clientBytes = parseIp(clientIp)
    if (!clientBytes) return { ...na(`the ${client} cannot be compared`), observed: subnets }
    const rows = subnets.map((e) => {
      const c = parseCidr(e)
      if (!c || c.bytes.length !== clientBytes.length) return { e, v: 'warn' as const }
      return { e, v: cidrContains(c, clientBytes) ? ('pass' as const) : ('fail' as const) }
    })
    const verdict = rows.some((x) => x.v === 'fail') ? 'fail' : rows.some((x) => x.v === 'warn') ? 'warn' : 'pass'
    return { verdict, observed: rows.map((x) => `${x.e}: ${x.v === 'pass' ? 'contains the HTTP address' : x.v === 'fail' ? 'another network' : 'other address family or malformed'}`), expected: `subnets containing ${clientIp}` }
  },
})

export const qname0x20 = dnsCheck({
  id: 'qname-0x20',
  name: 'Resolver randomises query-name case (0x20)',
  found: 'the resolver does not randomise query-name case (0x20)',
  source: 'server',
  why: 'The page asks for lower-case names; a resolver that varies the letter case (draft-vixie-dnsext-dns0x20) makes forged answers harder to inject. Many ISP resolvers do not, so it weighs almost nothing: a note on resolver quality, not a leak.',
  ref: 'https://datatracker.ietf.org/doc/html/draft-vixie-dnsext-dns0x20-00',
  expected: 'randomised letter case',
  needs: [],
  uses: ['lookups'],
  judge: (_, { raw, server, ctx }) => {
    const r = resolverEvidence(raw, server, ctx, () => `needs ${LISTENER_MISSING}: it compares the case of the query names with the lower-case names the page asked for`)
    if (!r.ok) return r.outcome
    const { queries } = r.evidence
    if (!queries.length) return na(NO_RESOLVER)
    const mixed = queries.filter((q) => q.name !== q.name.toLowerCase()).length
    return { verdict: mixed ? 'pass' : 'warn', observed: `${mixed} of ${queries.length} queries with randomised case` }
  },
})

// What the service's authoritative DNS server (src/listeners/dns.ts) filed under a page's
// nonce (evidence kind 'dns', src/evidence/dns-authority.ts), with the offline IP database's
// answers for each resolver and the client, and what the resolver checks say when it is
// missing. The names carry the page nonce, so every query here is this page's, whatever nonce
// the page says it used.

import { signalValue, whyMissing, type SignalResult } from '../../common/signal'
import type { DnsLookups } from '../../common/signals/dns-leak'
import { normalizeIp } from '../core/ip'
import { ipScope } from '../core/ip-scope'
import { evidenceOf, type ServerObservation } from '../core/tools/observation'
import { type JudgeContext, na, type Outcome } from './define'

/**
 * One query as the service's authoritative DNS server logged it: the fields of
 * DnsQueryEvidence (src/evidence/dns-authority.ts) the checks read.
 */
export interface DnsQuery {
  /** The name exactly as received: case preserved, for the 0x20 check. */
  name: string
  qtype: string
  /** Source address of the query: the recursive resolver's egress address. */
  resolver: string
  /** EDNS Client Subnet option (RFC 7871), e.g. `81.2.69.0/24`, or null. */
  ecs: string | null
}

export interface NetworkInfo {
  country: string | null
  asn: number | null
  org: string | null
}

/** What the DNS listener saw for this task's nonce, with offline-database answers when available. */
export interface DnsEvidence {
  queries: DnsQuery[]
  /** Country/ASN by address (resolvers and the client); absent until the IP database exists. */
  networks?: Record<string, NetworkInfo>
}

/** The listener's evidence items that have the shape of a query (stored JSON is not trusted blindly). */
export function dnsQueriesOf(items: unknown[]): DnsQuery[] {
  const out: DnsQuery[] = []
  for (const d of items) {
    if (!d || typeof d !== 'object') continue
    const q = d as Record<string, unknown>
    if (typeof q.name !== 'string' || typeof q.resolver !== 'string' || typeof q.qtype !== 'string') continue
    out.push({ name: q.name, qtype: q.qtype, resolver: q.resolver, ecs: typeof q.ecs === 'string' ? q.ecs : null })
  }
  return out
}

/**
 * The queries filed under this page's nonce, and the offline database's answers for each
 * resolver and the client when it is loaded. null when there is nothing to judge with: no
 * query, and either no lookups made (no zone, so no listener) or an observation that was
 * never read against the listeners (no nonce state at all).
 */
export function dnsEvidenceOf(s: { lookups?: SignalResult<DnsLookups> | undefined }, server: ServerObservation, ctx?: JudgeContext): DnsEvidence | null {
  const queries = dnsQueriesOf(evidenceOf(server, 'dns'))
  if (!queries.length && (!signalValue(s.lookups) || server.nonce === undefined)) return null
  const lookupIp = ctx?.lookupIp
  if (!lookupIp) return { queries }
  const networks: Record<string, NetworkInfo> = {}
  for (const ip of new Set([normalizeIp(server.ip), ...queries.map((q) => normalizeIp(q.resolver))])) {
    const r = lookupIp(ip)
    if (r.ok) networks[ip] = { country: r.info.country, asn: r.info.asn, org: r.info.org }
  }
  return { queries, networks }
}

export const LISTENER_MISSING = "the service's authoritative DNS server for its zone (DNS_ZONE), which logs the resolvers that look up this page's random names"

/** "client address 81.2.69.160 (public)" */
export function clientText(clientIp: string): string {
  const scope = ipScope(clientIp)
  return `client address ${clientIp}${scope ? ` (${scope})` : ''}`
}

/** What each resolver check needs when the listener filed nothing: keyed by check id. */
export type ListenerNeeds = (client: string) => string

/**
 * The evidence a resolver check judges, or its `na` outcome: no evidence (no listener), a
 * submission without a live nonce, or no lookups at all.
 */
export function resolverEvidence(
  raw: { lookups?: SignalResult<DnsLookups> | undefined },
  server: ServerObservation,
  ctx: JudgeContext,
  needs: ListenerNeeds,
): { ok: true; evidence: DnsEvidence; clientIp: string; client: string } | { ok: false; outcome: Outcome } {
  const clientIp = normalizeIp(server.ip)
  const client = clientText(clientIp)
  const evidence = dnsEvidenceOf(raw, server, ctx)
  if (!evidence) return { ok: false, outcome: { ...na(needs(client)), observed: `no DNS evidence yet; ${client}` } }
  const state = server.nonce
  if (!evidence.queries.length && state !== undefined && state !== 'valid' && state !== 'used') {
    return { ok: false, outcome: { ...na('a submission with the page\'s live nonce (<body data-nonce>): the DNS server files the resolvers it sees under it'), observed: `page nonce ${state}` } }
  }
  if (!evidence.queries.length && !signalValue(raw.lookups)) return { ok: false, outcome: na(`the page made no lookups (${whyMissing(raw.lookups)})`) }
  return { ok: true, evidence, clientIp, client }
}

/** The resolver addresses that asked, each once, in order of first query. */
export const resolversOf = (queries: DnsQuery[]): string[] => [...new Set(queries.map((q) => normalizeIp(q.resolver)))]

export const NO_RESOLVER = 'no resolver was seen'

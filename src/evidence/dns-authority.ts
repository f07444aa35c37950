// What the service's authoritative DNS server answers, and what it files under a page nonce
// (issue 7, dns-leak). Pure: bytes in, a response and an observation out; the listener
// (src/listeners/dns.ts) only moves packets and writes the observation.
//
// The zone holds:
// - the apex: SOA and NS (`ns1.<zone>`), so resolvers that check the delegation are answered;
// - `ns1.<zone>`: the configured answer addresses;
// - `<nonce>-<n>.<zone>` for any well-formed page nonce (26 lower-case base32 characters, see
//   src/core/nonce.ts) and a number: A/AAAA with the configured addresses, NODATA for other
//   types (HTTPS/SVCB queries from Chromium's own resolver, for one). Whether the nonce is live
//   is the database's business when the observation is filed; the answer doesn't depend on it,
//   so it never waits for a query to the database.
// Anything else in the zone is NXDOMAIN with the SOA (RFC 2308), names outside it are REFUSED.
//
// Names are matched case-insensitively, and the response repeats the question exactly as sent
// (buildResponse), because resolvers that randomise case (0x20) drop answers whose question
// differs. The observation keeps the name as received.
//
// Amplification (issue 13): a UDP query's source can be forged, so no UDP answer is more than
// MAX_UDP_GROWTH bytes longer than its query. The largest answers are a negative one with the
// zone's SOA (RFC 2308 §3 requires it: +51 bytes) and an AAAA (+28); ANY gets one synthesized
// HINFO "RFC8482" (RFC 8482 §4.2, +21) instead of every RRset, and EDNS adds nothing the query
// did not carry (the OPT record only when the query had one, no padding, no server cookie,
// Client Subnet echoed at the query's own length). Anything larger goes out truncated (TC),
// which costs no more than the query, and the resolver retries over TCP.

import { buildDnsMessage, buildResponse, DNS_CLASS_IN, DNS_RCODE, DNS_TYPE, mixedCase, parseDnsMessage, type DnsMessage, type DnsRecordInput } from './dns'

export interface ZoneConfig {
  /** Lower case, no trailing dot. */
  zone: string
  /** Addresses A/AAAA queries for the zone's names get; null = NODATA (no address given out). */
  answerIpv4: string | null
  answerIpv6: string | null
}

/** One query as filed under its page nonce (evidence kind 'dns'). */
export interface DnsQueryEvidence {
  /** The query name exactly as received (case kept, no trailing dot). */
  name: string
  /** The `<n>` of `<nonce>-<n>`. */
  label: number
  /** Type mnemonic (A, AAAA, HTTPS…) or TYPE<n>. */
  qtype: string
  /** The query's source address and port: the recursive resolver's egress. */
  resolver: string
  resolverPort: number
  transport: 'udp' | 'tcp'
  /** Whether the name's letters are in mixed case (0x20 randomisation); null when it can't tell. */
  mixedCase: boolean | null
  /** Recursion Desired flag: set by stub resolvers, usually clear from recursive ones. */
  rd: boolean
  /** The EDNS OPT record, null without one. */
  edns: { udpPayloadSize: number; version: number; dnssecOk: boolean; options: number[]; cookie: boolean } | null
  /** EDNS Client Subnet (RFC 7871) as `<network>/<source prefix>`, null without one. */
  ecs: string | null
  /** Server clock when the packet arrived, ISO 8601 with milliseconds. */
  receivedAt: string
}

export interface QueryOutcome {
  /** The bytes to send back; null = stay silent (a response, or too short to answer). */
  response: Uint8Array | null
  /** What to file, and under which nonce, for queries of `<nonce>-<n>.<zone>`. */
  evidence: { nonce: string; data: DnsQueryEvidence } | null
}

export interface QuerySource {
  address: string
  port: number
  transport: 'udp' | 'tcp'
  receivedAt: Date
}

const NONCE_LABEL = /^([a-z2-7]{26})-([0-9]{1,3})$/
/** The most a UDP answer may exceed its query by, in bytes (see the top of this file). */
export const MAX_UDP_GROWTH = 64
/** RFC 8482 §4.2: ANY is answered with one HINFO record, CPU "RFC8482" and an empty OS. */
const RFC8482_HINFO = `07${Buffer.from('RFC8482').toString('hex')}00`
const TTL = { answer: 0, negative: 60, soa: 300, ns: 3600 } as const
const TYPE_NAMES: Record<number, string> = { 1: 'A', 2: 'NS', 5: 'CNAME', 6: 'SOA', 12: 'PTR', 13: 'HINFO', 15: 'MX', 16: 'TXT', 28: 'AAAA', 33: 'SRV', 64: 'SVCB', 65: 'HTTPS', 255: 'ANY' }

export const typeName = (type: number): string => TYPE_NAMES[type] ?? `TYPE${type}`

function soa(zone: string): DnsRecordInput {
  return {
    name: zone,
    type: DNS_TYPE.SOA,
    ttl: TTL.soa,
    data: { kind: 'SOA', mname: `ns1.${zone}`, rname: `hostmaster.${zone}`, serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: TTL.negative },
  }
}

/** The records of a name that exists for a query of `type`: its addresses, or for ANY the RFC 8482 HINFO. */
function addresses(name: string, type: number, cfg: ZoneConfig, ttl: number): DnsRecordInput[] {
  if (type === DNS_TYPE.ANY) return [rfc8482(name, ttl)]
  if (type === DNS_TYPE.A && cfg.answerIpv4) return [{ name, type, ttl, data: { kind: 'A', address: cfg.answerIpv4 } }]
  if (type === DNS_TYPE.AAAA && cfg.answerIpv6) return [{ name, type, ttl, data: { kind: 'AAAA', address: cfg.answerIpv6 } }]
  return []
}

function rfc8482(name: string, ttl: number): DnsRecordInput {
  return { name, type: DNS_TYPE.HINFO, ttl, data: { kind: 'raw', hex: RFC8482_HINFO } }
}

/** FORMERR for a query we could not parse: its header only, when there is one (RFC 1035 §4.1.1). */
function formErr(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 12 || bytes[2]! & 0x80) return null
  const id = (bytes[0]! << 8) | bytes[1]!
  const opcode = (bytes[2]! >> 3) & 0xf
  return buildDnsMessage({ id, flags: { qr: true, opcode, rd: (bytes[2]! & 1) === 1, rcode: DNS_RCODE.formErr }, questions: [] })
}

/**
 * The answer to one DNS message, and the observation to file. Never throws for any input.
 * Over UDP an answer larger than the query allows (its EDNS size, or 512) goes out truncated
 * (TC), over TCP it doesn't.
 */
export function answerQuery(bytes: Uint8Array, cfg: ZoneConfig, from: QuerySource): QueryOutcome {
  let outcome: QueryOutcome
  try {
    outcome = answer(bytes, cfg, from)
  } catch {
    // A name the builder cannot write back (a label holding a dot or over 63 bytes once
    // re-split): the question cannot be repeated, so it is a format error.
    outcome = { response: formErr(bytes), evidence: null }
  }
  // Even truncated, an answer repeats the question as a name the query may have compressed:
  // one still too large for the bound is not sent.
  if (from.transport === 'udp' && outcome.response && outcome.response.length > bytes.length + MAX_UDP_GROWTH) return { ...outcome, response: null }
  return outcome
}

function answer(bytes: Uint8Array, cfg: ZoneConfig, from: QuerySource): QueryOutcome {
  const parsed = parseDnsMessage(bytes)
  if (!parsed.ok) return { response: formErr(bytes), evidence: null }
  const q = parsed.value
  if (q.flags.qr) return { response: null, evidence: null }
  // Over TCP there is no UDP size to respect: answer as if the query allowed 65535 bytes.
  const query: DnsMessage = from.transport === 'tcp' && q.edns ? { ...q, edns: { ...q.edns, udpPayloadSize: 65535 } } : q
  const maxBytes = from.transport === 'udp' ? bytes.length + MAX_UDP_GROWTH : undefined
  const reply = (r: Parameters<typeof buildResponse>[1]) => buildResponse(query, { ...r, maxBytes })
  if (q.flags.opcode !== 0) return { response: reply({ rcode: DNS_RCODE.notImp, authoritative: false }), evidence: null }
  if (q.questions.length !== 1) return { response: reply({ rcode: DNS_RCODE.formErr, authoritative: false }), evidence: null }
  // EDNS versions above 0 get BADVERS (RFC 6891 §6.1.3).
  if (q.edns && q.edns.version > 0) return { response: reply({ rcode: DNS_RCODE.badVers, authoritative: false }), evidence: null }

  const question = q.questions[0]!
  const name = question.name
  const lower = name.toLowerCase()
  const zone = cfg.zone
  if (question.class !== DNS_CLASS_IN && question.class !== 255) return { response: reply({ rcode: DNS_RCODE.refused, authoritative: false }), evidence: null }
  if (lower !== zone && !lower.endsWith(`.${zone}`)) return { response: reply({ rcode: DNS_RCODE.refused, authoritative: false }), evidence: null }
  // The zone's own spelling of its apex, as the question spelt it, so compression reuses the question's bytes.
  const apex = name.slice(name.length - zone.length)
  const type = question.type

  if (lower === zone) {
    const answers: DnsRecordInput[] = []
    if (type === DNS_TYPE.SOA) answers.push(soa(apex))
    if (type === DNS_TYPE.NS) answers.push({ name: apex, type: DNS_TYPE.NS, ttl: TTL.ns, data: { kind: 'NS', name: `ns1.${apex}` } })
    if (type === DNS_TYPE.ANY) answers.push(rfc8482(apex, TTL.ns))
    return { response: reply({ answers, authorities: answers.length ? [] : [soa(apex)] }), evidence: null }
  }
  const host = lower.slice(0, lower.length - zone.length - 1)
  if (host === 'ns1') {
    const answers = addresses(name, type, cfg, TTL.ns)
    return { response: reply({ answers, authorities: answers.length ? [] : [soa(apex)] }), evidence: null }
  }
  const m = NONCE_LABEL.exec(host)
  if (!m) return { response: reply({ rcode: DNS_RCODE.nxDomain, authorities: [soa(apex)] }), evidence: null }

  const answers = addresses(name, type, cfg, TTL.answer)
  const e = q.edns
  const data: DnsQueryEvidence = {
    name,
    label: Number(m[2]),
    qtype: typeName(type),
    resolver: from.address,
    resolverPort: from.port,
    transport: from.transport,
    mixedCase: mixedCase(name),
    rd: q.flags.rd,
    edns: e ? { udpPayloadSize: e.udpPayloadSize, version: e.version, dnssecOk: e.dnssecOk, options: e.options.map((o) => o.code), cookie: e.cookie !== null } : null,
    ecs: e?.clientSubnet ? `${e.clientSubnet.address}/${e.clientSubnet.sourcePrefix}` : null,
    receivedAt: from.receivedAt.toISOString(),
  }
  return { response: reply({ answers, authorities: answers.length ? [] : [soa(apex)] }), evidence: { nonce: m[1]!, data } }
}

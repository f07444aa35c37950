// DNS messages (RFC 1035 §4) for an authoritative server of the service's own zone: the
// dns-leak page makes the browser look up `<nonce>-<n>.<zone>`, and the query that reaches us
// comes from the client's recursive resolver, which tells where its DNS goes.
//
// What a query reveals besides the resolver's address: the EDNS0 OPT record (RFC 6891) and in
// it the Client Subnet option (RFC 7871), which carries part of the client's own address; and
// the case of the query name, since resolvers that randomise it ("0x20", draft-vixie-dnsext-
// dns0x20) send e.g. `NoNcE-1.EvIdEnCe.TeSt`. So names are kept exactly as sent.
//
// Names may be compressed (§4.1.4): a label byte 11xxxxxx is a pointer to an earlier offset.
// A hostile packet can point a name at itself; pointers are only followed backwards, which
// rules out loops, and names are capped at 255 bytes (§3.1).

import { formatIp, parseIp } from '../core/ip'
import { ByteReader, ByteWriter, attempt, fail, latin1, toHex, type Parsed } from './bytes'

export const DNS_TYPE = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, HINFO: 13, MX: 15, TXT: 16, AAAA: 28, OPT: 41, ANY: 255 } as const
export const DNS_CLASS_IN = 1
export const DNS_RCODE = { noError: 0, formErr: 1, servFail: 2, nxDomain: 3, notImp: 4, refused: 5, badVers: 16 } as const
/** EDNS option codes: Client Subnet (RFC 7871 §6), COOKIE (RFC 7873 §4). */
export const EDNS_OPTION = { clientSubnet: 8, cookie: 10 } as const

export interface DnsFlags {
  qr: boolean
  opcode: number
  aa: boolean
  tc: boolean
  rd: boolean
  ra: boolean
  /** Reserved bit; must be zero. */
  z: boolean
  /** AD and CD (RFC 4035 §3.2). */
  ad: boolean
  cd: boolean
  /** The header's 4-bit RCODE (EDNS extends it, see `Edns.extendedRcode`). */
  rcode: number
}

export interface DnsQuestion {
  /** Labels joined by dots, in the case sent, without the trailing dot ("" for the root). */
  name: string
  type: number
  class: number
}

export type DnsRecordData =
  | { kind: 'A' | 'AAAA'; address: string }
  | { kind: 'NS' | 'CNAME' | 'PTR'; name: string }
  | { kind: 'MX'; preference: number; exchange: string }
  | { kind: 'TXT'; strings: string[] }
  | { kind: 'SOA'; mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number }
  | { kind: 'raw'; hex: string }

export interface DnsRecord {
  name: string
  type: number
  class: number
  ttl: number
  data: DnsRecordData
}

export interface ClientSubnet {
  family: 'IPv4' | 'IPv6'
  sourcePrefix: number
  scopePrefix: number
  /** The network, zero-filled past the prefix, e.g. "1.2.3.0". */
  address: string
}

export interface Edns {
  /** The requestor's UDP payload size (the OPT record's CLASS). */
  udpPayloadSize: number
  extendedRcode: number
  version: number
  dnssecOk: boolean
  options: Array<{ code: number; data: string }>
  clientSubnet: ClientSubnet | null
  cookie: { client: string; server: string | null } | null
}

export interface DnsMessage {
  id: number
  flags: DnsFlags
  questions: DnsQuestion[]
  answers: DnsRecord[]
  authorities: DnsRecord[]
  /** Additional records other than OPT. */
  additionals: DnsRecord[]
  edns: Edns | null
}

export type DnsError = 'truncated' | 'bad-name' | 'malformed'

const MAX_NAME = 255

/** Reads a possibly compressed name starting at the reader's position (§4.1.4). */
function readName(r: ByteReader): string {
  const bytes = r.bytes
  const labels: string[] = []
  let wireLength = 1
  let pos = r.pos
  // Only pointers to before the current label are followed: each jump moves strictly
  // backwards, so a chain ends within the message.
  let limit = pos
  let jumped = false
  for (;;) {
    if (pos >= r.end) fail('truncated', `name runs past the end of the message at offset ${pos}`)
    const len = bytes[pos]!
    if ((len & 0xc0) === 0xc0) {
      if (pos + 1 >= r.end) fail('truncated', 'compression pointer cut off')
      const target = ((len & 0x3f) << 8) | bytes[pos + 1]!
      if (!jumped) r.pos = pos + 2
      jumped = true
      if (target >= limit) fail('bad-name', `compression pointer at ${pos} to ${target} does not point backwards`)
      limit = target
      pos = target
      continue
    }
    // 01xxxxxx and 10xxxxxx are extended label types (RFC 6891 §5), not used in practice.
    if (len & 0xc0) fail('bad-name', `label type 0x${len.toString(16)} at offset ${pos}`)
    if (len === 0) {
      if (!jumped) r.pos = pos + 1
      return labels.join('.')
    }
    wireLength += len + 1
    if (wireLength > MAX_NAME) fail('bad-name', `name longer than ${MAX_NAME} bytes`)
    if (pos + 1 + len > r.end) fail('truncated', `label at offset ${pos} runs past the end of the message`)
    labels.push(latin1(bytes.subarray(pos + 1, pos + 1 + len)))
    pos += 1 + len
  }
}

function characterStrings(r: ByteReader): string[] {
  const out: string[] = []
  while (r.remaining > 0) out.push(latin1(r.take(r.u8())))
  return out
}

function recordData(r: ByteReader, type: number, length: number): DnsRecordData {
  const end = r.pos + length
  const data = new ByteReader(r.bytes, r.pos, end, `type ${type} record data`)
  // Names inside record data may point anywhere earlier in the message.
  const nameAt = (): string => {
    const whole = new ByteReader(r.bytes, data.pos, end)
    const name = readName(whole)
    data.pos = whole.pos
    return name
  }
  let out: DnsRecordData
  switch (type) {
    case DNS_TYPE.A:
    case DNS_TYPE.AAAA: {
      const size = type === DNS_TYPE.A ? 4 : 16
      if (length !== size) fail('malformed', `${type === DNS_TYPE.A ? 'A' : 'AAAA'} record of ${length} bytes`)
      out = { kind: type === DNS_TYPE.A ? 'A' : 'AAAA', address: formatIp(data.take(size).slice()) }
      break
    }
    case DNS_TYPE.NS:
    case DNS_TYPE.CNAME:
    case DNS_TYPE.PTR:
      out = { kind: type === DNS_TYPE.NS ? 'NS' : type === DNS_TYPE.CNAME ? 'CNAME' : 'PTR', name: nameAt() }
      break
    case DNS_TYPE.MX: {
      const preference = data.u16()
      out = { kind: 'MX', preference, exchange: nameAt() }
      break
    }
    case DNS_TYPE.TXT:
      out = { kind: 'TXT', strings: characterStrings(data) }
      break
    case DNS_TYPE.SOA: {
      const mname = nameAt()
      const rname = nameAt()
      out = { kind: 'SOA', mname, rname, serial: data.u32(), refresh: data.u32(), retry: data.u32(), expire: data.u32(), minimum: data.u32() }
      break
    }
    default:
      out = { kind: 'raw', hex: toHex(data.take(length)) }
  }
  if (data.pos !== end) fail('malformed', `type ${type} record data has ${end - data.pos} byte(s) left over`)
  r.pos = end
  return out
}

function clientSubnet(data: Uint8Array): ClientSubnet {
  // FAMILY, SOURCE PREFIX-LENGTH, SCOPE PREFIX-LENGTH, then just enough address bytes for the
  // source prefix (RFC 7871 §6).
  const r = new ByteReader(data, 0, data.length, 'client subnet option')
  const family = r.u16()
  const sourcePrefix = r.u8()
  const scopePrefix = r.u8()
  const size = family === 1 ? 4 : family === 2 ? 16 : fail('malformed', `client subnet family ${family}`)
  if (sourcePrefix > size * 8 || scopePrefix > size * 8) fail('malformed', `prefix longer than a family ${family} address`)
  if (r.remaining !== Math.ceil(sourcePrefix / 8)) fail('malformed', `client subnet address of ${r.remaining} bytes for a /${sourcePrefix}`)
  const address = new Uint8Array(size)
  address.set(r.take(r.remaining))
  return { family: family === 1 ? 'IPv4' : 'IPv6', sourcePrefix, scopePrefix, address: formatIp(address) }
}

function edns(name: string, udpPayloadSize: number, ttl: number, rdata: Uint8Array): Edns {
  if (name !== '') fail('malformed', 'OPT record with a name other than the root (RFC 6891 §6.1.2)')
  const e: Edns = {
    udpPayloadSize,
    extendedRcode: Math.floor(ttl / 0x1000000),
    version: Math.floor(ttl / 0x10000) & 0xff,
    dnssecOk: (ttl & 0x8000) !== 0,
    options: [],
    clientSubnet: null,
    cookie: null,
  }
  const r = new ByteReader(rdata, 0, rdata.length, 'OPT record')
  while (r.remaining > 0) {
    const code = r.u16()
    const data = r.take(r.u16())
    e.options.push({ code, data: toHex(data) })
    if (code === EDNS_OPTION.clientSubnet && e.clientSubnet === null) e.clientSubnet = clientSubnet(data)
    if (code === EDNS_OPTION.cookie && e.cookie === null) {
      // An 8-byte client cookie, then an optional 8–32-byte server cookie (RFC 7873 §4).
      if (data.length !== 8 && (data.length < 16 || data.length > 40)) fail('malformed', `COOKIE option of ${data.length} bytes`)
      e.cookie = { client: toHex(data.subarray(0, 8)), server: data.length > 8 ? toHex(data.subarray(8)) : null }
    }
  }
  return e
}

export function parseDnsMessage(bytes: Uint8Array): Parsed<DnsMessage, DnsError> {
  return attempt(() => {
    const r = new ByteReader(bytes, 0, bytes.length, 'DNS message')
    const id = r.u16()
    const f = r.u16()
    const flags: DnsFlags = {
      qr: (f & 0x8000) !== 0,
      opcode: (f >> 11) & 0xf,
      aa: (f & 0x0400) !== 0,
      tc: (f & 0x0200) !== 0,
      rd: (f & 0x0100) !== 0,
      ra: (f & 0x0080) !== 0,
      z: (f & 0x0040) !== 0,
      ad: (f & 0x0020) !== 0,
      cd: (f & 0x0010) !== 0,
      rcode: f & 0xf,
    }
    const [qd, an, ns, ar] = [r.u16(), r.u16(), r.u16(), r.u16()]
    const m: DnsMessage = { id, flags, questions: [], answers: [], authorities: [], additionals: [], edns: null }
    for (let i = 0; i < qd; i++) m.questions.push({ name: readName(r), type: r.u16(), class: r.u16() })
    const section = (count: number, into: DnsRecord[], additional: boolean) => {
      for (let i = 0; i < count; i++) {
        const name = readName(r)
        const type = r.u16()
        const cls = r.u16()
        const ttl = r.u32()
        const length = r.u16()
        if (length > r.remaining) fail('truncated', `record data of ${length} bytes runs past the end of the message`)
        if (type === DNS_TYPE.OPT) {
          if (!additional) fail('malformed', 'OPT record outside the additional section')
          if (m.edns) fail('malformed', 'more than one OPT record (RFC 6891 §6.1.1)')
          m.edns = edns(name, cls, ttl, r.take(length))
          continue
        }
        into.push({ name, type, class: cls, ttl, data: recordData(r, type, length) })
      }
    }
    section(an, m.answers, false)
    section(ns, m.authorities, false)
    section(ar, m.additionals, true)
    if (r.remaining > 0) fail('malformed', `${r.remaining} byte(s) after the last record`)
    return m
  })
}

/**
 * Whether a name was sent in mixed case, as resolvers that use 0x20 randomisation send it.
 * Names with fewer than two letters can't show it either way: null.
 */
export function mixedCase(name: string): boolean | null {
  const letters = name.replace(/[^A-Za-z]/g, '')
  if (letters.length < 2) return null
  return letters !== letters.toLowerCase() && letters !== letters.toUpperCase()
}

// Building messages.

export interface DnsRecordInput {
  name: string
  type: number
  ttl: number
  class?: number
  data: DnsRecordData
}

export interface DnsMessageInput {
  id: number
  flags: Partial<DnsFlags>
  questions: DnsQuestion[]
  answers?: DnsRecordInput[]
  authorities?: DnsRecordInput[]
  additionals?: DnsRecordInput[]
  edns?: { udpPayloadSize: number; extendedRcode?: number; dnssecOk?: boolean; options?: Array<{ code: number; data: Uint8Array }> } | null
}

/** Writes names with compression, reusing any earlier suffix with exactly the same bytes (so case is kept). */
class NameWriter {
  private offsets = new Map<string, number>()

  constructor(private readonly w: ByteWriter) {}

  write(name: string): void {
    const labels = name === '' ? [] : name.split('.')
    for (let i = 0; i < labels.length; i++) {
      const suffix = labels.slice(i).join('.')
      const at = this.offsets.get(suffix)
      if (at !== undefined) {
        this.w.u16(0xc000 | at)
        return
      }
      if (this.w.length < 0x4000) this.offsets.set(suffix, this.w.length)
      const label = labels[i]!
      if (label.length === 0 || label.length > 63) throw new Error(`Cannot write the DNS name ${JSON.stringify(name)}: a label is empty or over 63 bytes`)
      this.w.u8(label.length).bytes(Uint8Array.from(label, (c) => c.charCodeAt(0) & 0xff))
    }
    this.w.u8(0)
  }
}

function writeRecordData(w: ByteWriter, names: NameWriter, d: DnsRecordData): void {
  switch (d.kind) {
    case 'A':
    case 'AAAA': {
      const ip = parseIp(d.address)
      if (!ip || ip.length !== (d.kind === 'A' ? 4 : 16)) throw new Error(`Cannot write a ${d.kind} record: ${JSON.stringify(d.address)} is not an address of that family`)
      w.bytes(ip)
      return
    }
    case 'NS':
    case 'CNAME':
    case 'PTR':
      names.write(d.name)
      return
    case 'MX':
      w.u16(d.preference)
      names.write(d.exchange)
      return
    case 'TXT':
      for (const s of d.strings) {
        if (s.length > 255) throw new Error('Cannot write a TXT record: a character-string is over 255 bytes')
        w.u8(s.length).bytes(Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff))
      }
      return
    case 'SOA':
      names.write(d.mname)
      names.write(d.rname)
      w.u32(d.serial).u32(d.refresh).u32(d.retry).u32(d.expire).u32(d.minimum)
      return
    case 'raw': {
      const hex = d.hex
      w.bytes(Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)))
    }
  }
}

const TYPE_OF_KIND: Record<Exclude<DnsRecordData['kind'], 'raw'>, number> = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28 }

export function buildDnsMessage(m: DnsMessageInput): Uint8Array {
  const f = m.flags
  const w = new ByteWriter()
  const names = new NameWriter(w)
  const bits =
    (f.qr ? 0x8000 : 0) | ((f.opcode ?? 0) << 11) | (f.aa ? 0x400 : 0) | (f.tc ? 0x200 : 0) | (f.rd ? 0x100 : 0) | (f.ra ? 0x80 : 0) | (f.ad ? 0x20 : 0) | (f.cd ? 0x10 : 0) | ((f.rcode ?? 0) & 0xf)
  const answers = m.answers ?? []
  const authorities = m.authorities ?? []
  const additionals = m.additionals ?? []
  w.u16(m.id).u16(bits).u16(m.questions.length).u16(answers.length).u16(authorities.length).u16(additionals.length + (m.edns ? 1 : 0))
  for (const q of m.questions) {
    names.write(q.name)
    w.u16(q.type).u16(q.class)
  }
  for (const rr of [...answers, ...authorities, ...additionals]) {
    if (rr.data.kind !== 'raw' && TYPE_OF_KIND[rr.data.kind] !== rr.type) throw new Error(`Cannot write a record of type ${rr.type} with ${rr.data.kind} data`)
    names.write(rr.name)
    w.u16(rr.type).u16(rr.class ?? DNS_CLASS_IN).u32(rr.ttl)
    const lengthAt = w.length
    w.u16(0)
    writeRecordData(w, names, rr.data)
    w.setU16(lengthAt, w.length - lengthAt - 2)
  }
  if (m.edns) {
    const e = m.edns
    w.u8(0).u16(DNS_TYPE.OPT).u16(e.udpPayloadSize)
    w.u32((((e.extendedRcode ?? 0) & 0xff) * 0x1000000) + (e.dnssecOk ? 0x8000 : 0))
    const lengthAt = w.length
    w.u16(0)
    for (const o of e.options ?? []) w.u16(o.code).u16(o.data.length).bytes(o.data)
    w.setU16(lengthAt, w.length - lengthAt - 2)
  }
  return w.finish()
}

/** The Client Subnet option a response carries: the query's family, prefix and address, with our scope (RFC 7871 §7.2.1). */
export function clientSubnetOption(subnet: ClientSubnet, scopePrefix: number): { code: number; data: Uint8Array } {
  const ip = parseIp(subnet.address)
  const size = subnet.family === 'IPv4' ? 4 : 16
  const address = ip && ip.length === size ? ip : new Uint8Array(size)
  const w = new ByteWriter().u16(subnet.family === 'IPv4' ? 1 : 2).u8(subnet.sourcePrefix).u8(scopePrefix).bytes(address.subarray(0, Math.ceil(subnet.sourcePrefix / 8)))
  return { code: EDNS_OPTION.clientSubnet, data: w.finish() }
}

export interface ResponseInput {
  rcode?: number
  answers?: DnsRecordInput[]
  authorities?: DnsRecordInput[]
  /** Set AA (this server is authoritative for the zone). Default true. */
  authoritative?: boolean
  /** Scope prefix for an echoed Client Subnet option; 0 says the answer is the same for every subnet. */
  ecsScope?: number
  /** Our EDNS UDP payload size (1232 is the DNS Flag Day 2020 value). */
  udpPayloadSize?: number
  /**
   * The largest response to send whole, below the query's UDP size (e.g. the query's own size
   * plus a constant, against amplification); a larger one goes out truncated (TC).
   */
  maxBytes?: number
}

/**
 * A response to a query: same ID, opcode, RD and question (its case untouched, which resolvers
 * using 0x20 check), EDNS echoed if the query had it. When the response would not fit the
 * query's UDP size (512 without EDNS), the records are dropped and TC is set (RFC 1035 §4.2.1,
 * RFC 6891 §6.2.5), so the resolver retries over TCP.
 */
export function buildResponse(query: DnsMessage, r: ResponseInput = {}): Uint8Array {
  const rcode = r.rcode ?? DNS_RCODE.noError
  const ednsOut = query.edns
    ? {
        udpPayloadSize: r.udpPayloadSize ?? 1232,
        extendedRcode: rcode >> 4,
        options: query.edns.clientSubnet ? [clientSubnetOption(query.edns.clientSubnet, r.ecsScope ?? 0)] : [],
      }
    : null
  const base = {
    id: query.id,
    flags: { qr: true, opcode: query.flags.opcode, aa: r.authoritative ?? true, rd: query.flags.rd, cd: query.flags.cd, rcode: rcode & 0xf },
    questions: query.questions,
    edns: ednsOut,
  }
  const full = buildDnsMessage({ ...base, answers: r.answers, authorities: r.authorities })
  const limit = Math.min(query.edns ? Math.max(512, query.edns.udpPayloadSize) : 512, r.maxBytes ?? Number.POSITIVE_INFINITY)
  if (full.length <= limit) return full
  return buildDnsMessage({ ...base, flags: { ...base.flags, tc: true } })
}

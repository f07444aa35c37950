// ICE candidates as a page sees them, parsed on the server. The grammar is RFC 8839 §5.1:
//   candidate:<foundation> <component> <transport> <priority> <address> <port> typ <type>
//             [raddr <address>] [rport <port>] *(<name> <value>)
// Browsers add their own pairs (Chrome: generation, ufrag, network-id, network-cost; all:
// tcptype for TCP candidates). The same candidate reaches a page twice: in an
// `icecandidate` event (without the `a=` prefix) and as an `a=candidate:` line of the local
// SDP, so both are parsed here. Host addresses are `<uuid>.local` mDNS names when the
// browser hides local IPs (Chrome 76+, Firefox, Safari; https://datatracker.ietf.org/doc/html/draft-ietf-mmusic-mdns-ice-candidates).

import { normalizeIp } from './ip'
import { ipScope, type IpScope } from './ip-scope'

/** What a candidate's address is: an mDNS name, a plain host name (some TURN setups), or an IP of some scope. */
export type AddressKind = IpScope | 'mdns' | 'hostname'

export interface IceCandidate {
  foundation: string
  component: number
  /** Lower-cased: `udp` or `tcp`. */
  transport: string
  priority: number
  /** Canonical text for an IP (RFC 5952 for IPv6), lower-cased for a name. */
  address: string
  port: number
  /** Lower-cased: `host`, `srflx`, `prflx` or `relay`. */
  type: string
  kind: AddressKind
  relatedAddress: string | null
  relatedKind: AddressKind | null
  relatedPort: number | null
  /** `active`, `passive` or `so` for TCP candidates. */
  tcpType: string | null
  /** Other name/value pairs (generation, network-id, network-cost…), without ufrag. */
  extensions: Record<string, string>
}

const INT = /^\d{1,10}$/

function address(raw: string): { address: string; kind: AddressKind } {
  const scope = ipScope(raw)
  if (scope) return { address: normalizeIp(raw), kind: scope }
  const name = raw.toLowerCase()
  return { address: name, kind: name.endsWith('.local') ? 'mdns' : 'hostname' }
}

/** Parses one candidate (`candidate:…` or `a=candidate:…`); null when it does not follow the grammar. */
export function parseCandidate(line: string): IceCandidate | null {
  const m = /^(?:a=)?candidate:(.*)$/i.exec(line.trim())
  if (!m) return null
  const t = m[1]!.trim().split(/\s+/)
  if (t.length < 8 || t[6]!.toLowerCase() !== 'typ') return null
  const [foundation, component, transport, priority, addr, port, , type] = t as [string, string, string, string, string, string, string, string]
  if (!INT.test(component) || !INT.test(priority) || !INT.test(port) || Number(port) > 65535 || !addr) return null
  const a = address(addr)
  const c: IceCandidate = {
    foundation,
    component: Number(component),
    transport: transport.toLowerCase(),
    priority: Number(priority),
    address: a.address,
    port: Number(port),
    type: type.toLowerCase(),
    kind: a.kind,
    relatedAddress: null,
    relatedKind: null,
    relatedPort: null,
    tcpType: null,
    extensions: {},
  }
  for (let i = 8; i + 1 < t.length; i += 2) {
    const name = t[i]!.toLowerCase()
    const value = t[i + 1]!
    if (name === 'raddr') {
      const r = address(value)
      c.relatedAddress = r.address
      c.relatedKind = r.kind
    } else if (name === 'rport') c.relatedPort = INT.test(value) ? Number(value) : null
    else if (name === 'tcptype') c.tcpType = value.toLowerCase()
    else if (name !== 'ufrag' && Object.keys(c.extensions).length < 8) c.extensions[name.slice(0, 32)] = value.slice(0, 64)
  }
  return c
}

/** Identity of a candidate for comparing the event view with the SDP view. */
export function candidateKey(c: Pick<IceCandidate, 'transport' | 'address' | 'port' | 'type'>): string {
  return `${c.transport} ${c.address} ${c.port} ${c.type}`
}

export interface ParsedSdp {
  candidates: IceCandidate[]
  /** `a=candidate` lines that did not parse. */
  unparsed: string[]
  /**
   * Addresses in `c=` and `a=rtcp:` lines. Browsers put 0.0.0.0 there until a candidate is
   * chosen as default, then that candidate's address: a second place where an address shows.
   */
  connectionAddresses: string[]
  endOfCandidates: boolean
}

export function parseSdp(sdp: string): ParsedSdp {
  const out: ParsedSdp = { candidates: [], unparsed: [], connectionAddresses: [], endOfCandidates: false }
  for (const raw of sdp.split(/\r?\n/)) {
    const line = raw.trim()
    if (/^a=candidate:/i.test(line)) {
      const c = parseCandidate(line)
      if (c) out.candidates.push(c)
      else out.unparsed.push(line.slice(0, 200))
    } else if (line === 'a=end-of-candidates') out.endOfCandidates = true
    else {
      // c=IN IP4 203.0.113.5[/ttl]   a=rtcp:9 IN IP4 0.0.0.0
      const m = /^(?:c=|a=rtcp:\d+ )IN IP[46] ([^\s/]+)/.exec(line)
      if (m) {
        const a = normalizeIp(m[1]!)
        if (!out.connectionAddresses.includes(a)) out.connectionAddresses.push(a)
      }
    }
  }
  return out
}

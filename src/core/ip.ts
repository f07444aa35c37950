// Client address resolution. The socket address is the truth; X-Forwarded-For is believed
// only hop by hop from the right, and only while the hop we are looking at is a trusted proxy
// (TRUSTED_PROXIES). The first untrusted address from the right is the client. Taking the
// left-most entry instead would let any client write its own address.

/** An address as 4 or 16 bytes; IPv4-mapped IPv6 (::ffff:a.b.c.d) is folded to IPv4. */
export function parseIp(input: string): Uint8Array | null {
  let s = input.trim()
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1)
  const zone = s.indexOf('%')
  if (zone >= 0) s = s.slice(0, zone)
  const v4 = parseIpv4(s)
  if (v4) return v4
  const v6 = parseIpv6(s)
  if (!v6) return null
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff
  return mapped ? v6.slice(12) : v6
}

function parseIpv4(s: string): Uint8Array | null {
  const parts = s.split('.')
  if (parts.length !== 4) return null
  const out = new Uint8Array(4)
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p[0] === '0')) return null
    const n = Number(p)
    if (n > 255) return null
    out[i] = n
  }
  return out
}

function parseIpv6(s: string): Uint8Array | null {
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return null
  const halves = s.split('::')
  if (halves.length > 2) return null
  // A dotted quad may only end the whole address (RFC 4291 2.2): `::1.2.3.4`, not `1.2.3.4::`.
  const parseGroups = (part: string, last: boolean): number[] | null => {
    if (part === '') return []
    const groups: number[] = []
    const items = part.split(':')
    for (let i = 0; i < items.length; i++) {
      const g = items[i]!
      if (last && i === items.length - 1 && g.includes('.')) {
        const v4 = parseIpv4(g)
        if (!v4) return null
        groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null
        groups.push(parseInt(g, 16))
      }
    }
    return groups
  }
  const head = parseGroups(halves[0]!, halves.length === 1)
  const tail = halves.length === 2 ? parseGroups(halves[1]!, true) : []
  if (!head || !tail) return null
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]
  const out = new Uint8Array(16)
  groups.forEach((g, i) => {
    out[i * 2] = g >> 8
    out[i * 2 + 1] = g & 0xff
  })
  return out
}

export function formatIp(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.')
  const groups: number[] = []
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!)
  // RFC 5952: compress the longest run (length >= 2) of zero groups.
  let bestStart = -1
  let bestLen = 0
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) { i++; continue }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen && j - i >= 2) { bestStart = i; bestLen = j - i }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (bestStart < 0) return hex.join(':')
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`
}

/** Canonical text for an address (`::ffff:1.2.3.4` → `1.2.3.4`), or the input when unparsable. */
export function normalizeIp(input: string): string {
  const bytes = parseIp(input)
  return bytes ? formatIp(bytes) : input
}

export interface Cidr {
  bytes: Uint8Array
  bits: number
}

export function parseCidr(input: string): Cidr | null {
  const [addr, len, ...rest] = input.trim().split('/')
  if (rest.length || !addr) return null
  const bytes = parseIp(addr)
  if (!bytes) return null
  const max = bytes.length * 8
  // An IPv4-mapped IPv6 prefix (::ffff:0:0/96 and longer) is folded to IPv4 with its length.
  let bits = len === undefined ? max : Number(len)
  if (len !== undefined && (!/^\d{1,3}$/.test(len))) return null
  if (bytes.length === 4 && addr.includes(':') && len !== undefined) bits -= 96
  if (!Number.isInteger(bits) || bits < 0 || bits > max) return null
  return { bytes, bits }
}

export function cidrContains(cidr: Cidr, ip: Uint8Array): boolean {
  if (cidr.bytes.length !== ip.length) return false
  let bits = cidr.bits
  for (let i = 0; i < ip.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff
    if ((cidr.bytes[i]! & mask) !== (ip[i]! & mask)) return false
  }
  return true
}

/** Parses `TRUSTED_PROXIES` (comma-separated addresses or CIDRs); throws on a bad entry. */
export function parseTrustedProxies(value: string | undefined): Cidr[] {
  if (!value?.trim()) return []
  return value.split(',').map((raw) => {
    const c = parseCidr(raw)
    if (!c) throw new Error(`TRUSTED_PROXIES: '${raw.trim()}' is not an IP address or CIDR range`)
    return c
  })
}

/**
 * The address of one proxy-header entry, without the port some proxies append:
 * `203.0.113.5:40001` → `203.0.113.5`, `[2001:db8::1]:443` → `2001:db8::1`, a quoted
 * `"[2001:db8::1]"` (RFC 7239) → `2001:db8::1`. A bare IPv6 address stays whole: its last group
 * is not a port. Anything else comes back trimmed, for parseIp to accept or refuse.
 */
export function stripAddress(raw: string): string {
  const s = raw.trim().replace(/^"|"$/g, '')
  const bracket = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s)
  if (bracket) return bracket[1]!
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(s)
  return v4port ? v4port[1]! : s
}

/**
 * The client's address: the socket peer, unless it is a trusted proxy, in which case we walk
 * X-Forwarded-For from the right past further trusted proxies. An entry may carry a port
 * (stripAddress). Malformed entries stop the walk at the last address we could trust.
 */
export function clientAddress(socketAddress: string, forwardedFor: string | null, trusted: readonly Cidr[]): string {
  const peer = parseIp(socketAddress)
  if (!peer) return socketAddress
  const isTrusted = (ip: Uint8Array) => trusted.some((c) => cidrContains(c, ip))
  let current = peer
  if (forwardedFor && trusted.length && isTrusted(peer)) {
    const hops = forwardedFor.split(',').map((h) => h.trim()).filter(Boolean)
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseIp(stripAddress(hops[i]!))
      if (!hop) break
      current = hop
      if (!isTrusted(hop)) break
    }
  }
  return formatIp(current)
}

/**
 * What a per-client limit counts by (sign-up, log-in, TASK_RATE_LIMIT, page nonces): an IPv4
 * address as it is, and for IPv6 its /64. One subscriber gets a whole /64 or more (RFC 6177,
 * RIPE-690), and its hosts pick addresses in it at will (SLAAC privacy addresses, RFC 8981), so
 * counting single IPv6 addresses would give anyone with a /64 unlimited tries. IPv4-mapped IPv6
 * (`::ffff:a.b.c.d`) is the IPv4 address (parseIp folds it). Anything unparsable (an
 * in-process request's `unknown`) is its own key.
 */
export function networkKey(address: string): string {
  const bytes = parseIp(address)
  if (!bytes) return address
  if (bytes.length === 4) return formatIp(bytes)
  const prefix = new Uint8Array(16)
  prefix.set(bytes.subarray(0, 8))
  return `${formatIp(prefix)}/64`
}

/**
 * The range an address counts in: its IPv4 /24 or its IPv6 /48 (IPv4-mapped IPv6 is IPv4);
 * anything unparsable is its own range.
 */
export function rangeKey(address: string): string {
  const bytes = parseIp(address)
  if (!bytes) return address
  if (bytes.length === 4) return `${formatIp(Uint8Array.of(bytes[0]!, bytes[1]!, bytes[2]!, 0))}/24`
  const prefix = new Uint8Array(16)
  prefix.set(bytes.subarray(0, 6))
  return `${formatIp(prefix)}/48`
}

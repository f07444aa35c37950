// The SYN a client's kernel sent (issue 49): the IP and TCP headers of a connection's first
// packet, as Linux keeps them for a listening socket with TCP_SAVE_SYN and hands them out once
// per accepted socket with TCP_SAVED_SYN (src/listeners/tcp-syn.ts). TLS tells which library
// made the connection, HTTP/2 which browser, the SYN which kernel: its initial TTL, window,
// TCP options and their order differ between Windows, Linux/Android and macOS/iOS, and a tunnel
// (WireGuard, OpenVPN, IPsec, PPPoE) lowers its MSS below the path's usual 1460 (IPv4) or 1440
// (IPv6). JA4T (FoxIO) names the TCP part: `<window>_<options in order>_<mss>_<window scale>`.
// Pure: bytes in, a record out; null when the bytes are not an IPv4/IPv6 TCP SYN.

export interface SynRecord {
  ipVersion: 4 | 6
  /** The TTL (hop limit) as it arrived, and the initial one it was most likely sent with (64, 128 or 255). */
  ttl: number
  initialTtl: 64 | 128 | 255
  /** Hops from the client's kernel (initialTtl − ttl). */
  hops: number
  /** IPv4's don't-fragment bit; null on IPv6 (which has none). */
  df: boolean | null
  window: number
  /** TCP option kinds in the order sent (0 EOL, 1 NOP, 2 MSS, 3 window scale, 4 SACK permitted, 8 timestamps, …). */
  options: number[]
  mss: number | null
  windowScale: number | null
  timestamps: boolean
  sack: boolean
  /** FoxIO's JA4T: `<window>_<options>_<mss>_<wscale>`, a missing value as 00. */
  ja4t: string
}

/** The initial TTL a received one was most likely sent with: the next of 64, 128, 255 at or above it. */
export function initialTtl(ttl: number): 64 | 128 | 255 {
  return ttl <= 64 ? 64 : ttl <= 128 ? 128 : 255
}

/** Parses a saved SYN (network and TCP headers); null when it is not one. */
export function parseSyn(bytes: Uint8Array): SynRecord | null {
  if (bytes.length < 20) return null
  const version = bytes[0]! >> 4
  let tcp: number
  let ttl: number
  let df: boolean | null
  if (version === 4) {
    const ihl = (bytes[0]! & 0x0f) * 4
    if (ihl < 20 || bytes[9] !== 6) return null
    tcp = ihl
    ttl = bytes[8]!
    df = (bytes[6]! & 0x40) !== 0
  } else if (version === 6) {
    // Extension headers before TCP are not expected on a SYN; anything but TCP next is not one.
    if (bytes.length < 40 || bytes[6] !== 6) return null
    tcp = 40
    ttl = bytes[7]!
    df = null
  } else return null
  if (bytes.length < tcp + 20) return null
  const flags = bytes[tcp + 13]!
  // SYN set, ACK not.
  if ((flags & 0x02) === 0 || (flags & 0x10) !== 0) return null
  const window = (bytes[tcp + 14]! << 8) | bytes[tcp + 15]!
  const dataOffset = (bytes[tcp + 12]! >> 4) * 4
  if (dataOffset < 20 || bytes.length < tcp + dataOffset) return null
  const options: number[] = []
  let mss: number | null = null
  let windowScale: number | null = null
  let timestamps = false
  let sack = false
  for (let i = tcp + 20; i < tcp + dataOffset; ) {
    const kind = bytes[i]!
    options.push(kind)
    if (kind === 0) {
      // EOL: the rest is padding, which JA4T lists as further zeros.
      i++
      continue
    }
    if (kind === 1) {
      i++
      continue
    }
    const len = bytes[i + 1]
    if (len === undefined || len < 2 || i + len > tcp + dataOffset) break
    if (kind === 2 && len === 4) mss = (bytes[i + 2]! << 8) | bytes[i + 3]!
    else if (kind === 3 && len === 3) windowScale = bytes[i + 2]!
    else if (kind === 4) sack = true
    else if (kind === 8) timestamps = true
    i += len
  }
  const init = initialTtl(ttl)
  const two = (n: number | null) => (n === null ? '00' : String(n))
  return {
    ipVersion: version,
    ttl,
    initialTtl: init,
    hops: init - ttl,
    df,
    window,
    options,
    mss,
    windowScale,
    timestamps,
    sack,
    ja4t: `${window}_${options.join('-') || '00'}_${two(mss)}_${two(windowScale)}`,
  }
}

export type KernelFamily = 'windows' | 'linux' | 'apple' | 'other'

const startsWith = (xs: readonly number[], prefix: readonly number[]) => prefix.every((k, i) => xs[i] === k)

/**
 * The kernel family a SYN's defaults point to (p0f's signatures, JA4T's published examples):
 * - Windows: initial TTL 128; MSS, NOP, window scale, NOP, NOP, SACK (timestamps off by default).
 * - Linux and Android: initial TTL 64; MSS, SACK, timestamps, NOP, window scale.
 * - macOS and iOS: initial TTL 64; MSS, NOP, window scale, NOP, NOP, timestamps, SACK, EOL.
 * Anything else (BSDs, network gear with TTL 255, tuned stacks) is `other`.
 */
export function kernelFamily(syn: Pick<SynRecord, 'initialTtl' | 'options'>): KernelFamily {
  const o = syn.options
  if (syn.initialTtl === 128 && startsWith(o, [2, 1, 3, 1, 1, 4])) return 'windows'
  if (syn.initialTtl === 128 && startsWith(o, [2, 1, 3, 1, 1, 8, 4])) return 'windows'
  // Linux's layouts with timestamps or SACK turned off (tcp_timestamps=0, tcp_sack=0) too.
  if (syn.initialTtl === 64 && [[2, 4, 8, 1, 3], [2, 1, 1, 4, 1, 3], [2, 1, 1, 8, 1, 3]].some((p) => startsWith(o, p))) return 'linux'
  if (syn.initialTtl === 64 && startsWith(o, [2, 1, 3, 1, 1, 8, 4])) return 'apple'
  return 'other'
}

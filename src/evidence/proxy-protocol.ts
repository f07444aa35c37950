// The PROXY protocol header (HAProxy, versions 1 and 2: https://www.haproxy.org/download/2.9/doc/proxy-protocol.txt)
// that a layer-4 load balancer (HAProxy `send-proxy`, nginx `proxy_protocol on` in a stream
// block, AWS NLB, Traefik, Envoy) puts before the client's bytes, so that a TLS connection it
// forwards still says whose it is. The HTTPS listener reads it only from TRUSTED_PROXIES
// (src/listeners/tls.ts): from anyone else the bytes are not TLS, and the connection gets a 400.

import { formatIp, normalizeIp, parseIp } from '../core/ip'

const V2_SIGNATURE = Uint8Array.of(0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a)
const V1_PREFIX = new TextEncoder().encode('PROXY ')
/** A v1 line is at most 107 bytes with its CRLF (§2.1). */
const V1_MAX = 107
/** Largest v2 header accepted: the 16-byte preamble, addresses and TLVs (AWS adds ~50 bytes). */
export const MAX_PROXY_HEADER = 4096

export type ProxyHeaderRead =
  | { status: 'need-more' }
  /** The bytes do not start with a PROXY header. */
  | { status: 'none' }
  | { status: 'invalid'; detail: string }
  /** `source`: the client's address; null for a health check (LOCAL, UNKNOWN) or a non-IP family. */
  | { status: 'complete'; length: number; source: string | null }

/** Looks at the first bytes of a connection for a PROXY protocol header. */
export function readProxyHeader(buf: Uint8Array): ProxyHeaderRead {
  if (startsWith(buf, V2_SIGNATURE)) return readV2(buf)
  if (startsWith(buf, V1_PREFIX)) return readV1(buf)
  // A prefix of either could still become one.
  if (isPrefixOf(buf, V2_SIGNATURE) || isPrefixOf(buf, V1_PREFIX)) return { status: 'need-more' }
  return { status: 'none' }
}

function startsWith(buf: Uint8Array, prefix: Uint8Array): boolean {
  return buf.length >= prefix.length && prefix.every((b, i) => buf[i] === b)
}

function isPrefixOf(buf: Uint8Array, of: Uint8Array): boolean {
  return buf.length < of.length && buf.every((b, i) => of[i] === b)
}

function readV1(buf: Uint8Array): ProxyHeaderRead {
  const end = buf.subarray(0, V1_MAX).indexOf(0x0a)
  if (end < 0) return buf.length >= V1_MAX ? { status: 'invalid', detail: 'PROXY v1 line longer than 107 bytes' } : { status: 'need-more' }
  if (buf[end - 1] !== 0x0d) return { status: 'invalid', detail: 'PROXY v1 line not ended by CRLF' }
  const line = new TextDecoder().decode(buf.subarray(0, end - 1))
  const parts = line.split(' ')
  if (parts[1] === 'UNKNOWN') return { status: 'complete', length: end + 1, source: null }
  const [, family, src, dst, sport, dport, ...rest] = parts
  const want = family === 'TCP4' ? 4 : family === 'TCP6' ? 16 : 0
  const ip = src ? parseV1Address(src, want) : null
  if (!want || !ip || !dst || !parseV1Address(dst, want) || !isPort(sport) || !isPort(dport) || rest.length) return { status: 'invalid', detail: `PROXY v1 line not understood: ${JSON.stringify(line.slice(0, 120))}` }
  return { status: 'complete', length: end + 1, source: ip }
}

/** A v1 address of the line's family (4 or 16 bytes), in canonical text; null otherwise. */
function parseV1Address(text: string, bytes: number): string | null {
  if (bytes === 4 && !/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) return null
  if (bytes === 16 && !/^[0-9a-fA-F:.]+$/.test(text)) return null
  const parsed = parseIp(text)
  // parseIp folds an IPv4-mapped IPv6 address to IPv4: accept it as the address it names.
  return parsed && (parsed.length === bytes || (bytes === 16 && parsed.length === 4)) ? formatIp(parsed) : null
}

const isPort = (s: string | undefined) => !!s && /^\d{1,5}$/.test(s) && Number(s) <= 65535

function readV2(buf: Uint8Array): ProxyHeaderRead {
  if (buf.length < 16) return { status: 'need-more' }
  const version = buf[12]! >> 4
  const command = buf[12]! & 0x0f
  if (version !== 2 || command > 1) return { status: 'invalid', detail: `PROXY v2 version ${version}, command ${command}` }
  const length = 16 + ((buf[14]! << 8) | buf[15]!)
  if (length > MAX_PROXY_HEADER) return { status: 'invalid', detail: `PROXY v2 header of ${length} bytes` }
  if (buf.length < length) return { status: 'need-more' }
  // LOCAL: the proxy's own connection (a health check); the peer is who it says.
  if (command === 0) return { status: 'complete', length, source: null }
  const family = buf[13]! >> 4
  const need = family === 1 ? 12 : family === 2 ? 36 : 0
  if (!need) return { status: 'complete', length, source: null }
  if (length - 16 < need) return { status: 'invalid', detail: 'PROXY v2 addresses shorter than their family' }
  return { status: 'complete', length, source: normalizeIp(formatIp(buf.slice(16, 16 + (family === 1 ? 4 : 16)))) }
}

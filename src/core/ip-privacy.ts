// IP_TRUNCATE: store addresses cut to their network, /24 for IPv4 and /48 for IPv6 (the
// prefixes Google Analytics and Matomo use for IP anonymisation; a /48 is one site's
// allocation under RIPE-690). Judging happens first, on the full address (a WebRTC address is
// compared with the HTTP one before either is cut); only what is stored is truncated.

import { formatIp, parseIp } from './ip'

export const IPV4_PREFIX_BITS = 24
export const IPV6_PREFIX_BITS = 48

/** The address with the host part zeroed (canonical text); anything unparsable unchanged. */
export function truncateIp(address: string): string {
  const bytes = parseIp(address)
  if (!bytes) return address
  const keep = (bytes.length === 4 ? IPV4_PREFIX_BITS : IPV6_PREFIX_BITS) / 8
  const out = new Uint8Array(bytes.length)
  out.set(bytes.subarray(0, keep))
  return formatIp(out)
}

// Runs of characters an address can be written with (brackets, ports and zones are cut off
// by the tokenising or by parseIp). A run is only rewritten when it parses as an address, so
// `13:36:28` (three groups) or `Chrome/124.0.6367.91` (6367 > 255) stay as they are.
const RUN = /[0-9A-Za-z:.%]+/g

function truncateRun(run: string): string {
  const trimmed = run.replace(/[.:]+$/, '')
  const tail = run.slice(trimmed.length)
  if (parseIp(trimmed)) return truncateIp(trimmed) + tail
  // a.b.c.d:port
  const colon = trimmed.lastIndexOf(':')
  if (colon > 0 && /^\d{1,5}$/.test(trimmed.slice(colon + 1))) {
    const host = trimmed.slice(0, colon)
    const bytes = parseIp(host)
    if (bytes?.length === 4) return `${truncateIp(host)}${trimmed.slice(colon)}${tail}`
  }
  return run
}

/** Every IPv4 or IPv6 address written in the text, truncated. */
export function truncateIpsInText(text: string): string {
  if (!/[.:]/.test(text)) return text
  return text.replace(RUN, truncateRun)
}

/** A copy of a JSON value with every address in its strings truncated (keys are left alone). */
export function truncateIpsDeep<T>(value: T): T {
  if (typeof value === 'string') return truncateIpsInText(value) as T
  if (Array.isArray(value)) return value.map((v) => truncateIpsDeep(v)) as T
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties, so a "__proto__" key stays a key.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, truncateIpsDeep(v)])) as T
  }
  return value
}

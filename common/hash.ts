// One small, fast, non-cryptographic hash for every probe (and for the judges, which import it
// so that page and server agree on what a hash means). cyrb53 by bryc, public domain:
// https://github.com/bryc/code/blob/master/jshash/experimental/cyrb53.js — two 32-bit
// multiplicative lanes, good avalanche, far fewer collisions than 32-bit FNV-1a for the few
// thousand distinct fingerprints a service stores. Not for security: anyone can forge a value.

/** Anything indexable by number: a string (UTF-16 code units) or bytes/pixels/samples. */
export type Hashable = string | ArrayLike<number>

function lanes(data: Hashable, seed: number): [number, number] {
  let h1 = 0xdeadbeef ^ seed
  let h2 = 0x41c6ce57 ^ seed
  const str = typeof data === 'string'
  for (let i = 0; i < data.length; i++) {
    const ch = str ? (data as string).charCodeAt(i) : (data as ArrayLike<number>)[i]! | 0
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507)
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507)
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return [h1 >>> 0, h2 >>> 0]
}

/** The reference cyrb53 value (a 53-bit integer). */
export function cyrb53(data: Hashable, seed = 0): number {
  const [h1, h2] = lanes(data, seed)
  return 4294967296 * (2097151 & h2) + h1
}

/** Both 32-bit lanes as 16 lower-case hex digits: the form every probe reports. */
export function hashHex(data: Hashable, seed = 0): string {
  const [h1, h2] = lanes(data, seed)
  return h2.toString(16).padStart(8, '0') + h1.toString(16).padStart(8, '0')
}

/**
 * JSON with object keys sorted, so that equal values hash equally whatever order a browser
 * enumerated them in. Non-finite numbers become null, as in JSON.stringify.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null)
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const obj = value as Record<string, unknown>
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`
}

/** hashHex of a value's canonical JSON. */
export function hashValue(value: unknown): string {
  return hashHex(canonicalJson(value))
}

// Reading the Cookie header and writing Set-Cookie values (RFC 6265), for the few cookies
// the dashboard uses. Values we set are base64url, so no quoting or escaping is needed.

export interface CookieOptions {
  /** Seconds; omitted for a cookie that ends with the browser session, 0 to delete. */
  maxAge?: number
  path: string
  httpOnly: boolean
  sameSite: 'Lax' | 'Strict'
  secure: boolean
}

const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const VALUE = /^[!#-+\--:<-[\]-~]*$/

/** Cookie name → value; the first occurrence of a name wins, as browsers send the most specific path first. */
export function parseCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>()
  if (!header) return out
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    let value = part.slice(eq + 1).trim()
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    if (name && !out.has(name)) out.set(name, value)
  }
  return out
}

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  if (!NAME.test(name)) throw new Error(`Cannot set cookie: '${name}' is not a valid cookie name`)
  if (!VALUE.test(value)) throw new Error(`Cannot set cookie ${name}: the value has characters a cookie cannot carry`)
  const parts = [`${name}=${value}`, `Path=${o.path}`]
  if (o.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(o.maxAge))}`)
  if (o.httpOnly) parts.push('HttpOnly')
  if (o.secure) parts.push('Secure')
  parts.push(`SameSite=${o.sameSite}`)
  return parts.join('; ')
}

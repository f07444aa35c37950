// Cross-site request forgery defences for the dashboard's forms: every state-changing request
// must come from one of our own pages (Origin) and carry a token that only our pages know.
//
// The token is derived, not stored: HMAC-SHA256 keyed with the secret the browser already
// holds in an HttpOnly cookie (the session token, or before log-in the form token), so any
// app instance can check it without shared memory, and a page on another site, which can make
// the browser send the cookie but cannot read it, cannot compute the token.
// (OWASP CSRF cheat sheet: "Signed Double-Submit Cookie" and "Verifying Origin With Standard
// Headers".)

import { createHmac, timingSafeEqual } from 'node:crypto'

const CSRF_CONTEXT = 'antibot csrf v1'

export function csrfTokenFor(cookieSecret: string): string {
  return createHmac('sha256', cookieSecret).update(CSRF_CONTEXT).digest('base64url')
}

/** Constant-time comparison of a submitted token with the one the cookie secret gives. */
export function csrfTokenMatches(cookieSecret: string, submitted: string | null | undefined): boolean {
  if (!submitted) return false
  const expected = Buffer.from(csrfTokenFor(cookieSecret))
  const given = Buffer.from(submitted)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** `scheme://host[:port]` of the request as the browser addressed it. */
export function requestOrigin(url: URL, https: boolean): string {
  return `${https ? 'https' : url.protocol.replace(/:$/, '')}://${url.host}`.toLowerCase()
}

/**
 * The origins a form on our own pages can have: ours, and, when the request reached us as
 * plain HTTP, the same host over HTTPS. The second is a TLS-terminating proxy that is not
 * (yet) in TRUSTED_PROXIES: refusing it would break every form behind such a proxy, and a
 * page on https://our-host is ours. The reverse, an http:// page posting to an HTTPS
 * request, is a downgrade and stays refused.
 */
export function acceptedOrigins(url: URL, https: boolean): string[] {
  const own = requestOrigin(url, https)
  return https ? [own] : [own, requestOrigin(url, true)]
}

export type OriginCheck = { ok: true } | { ok: false; code: 'missing' | 'foreign' }

/**
 * The Origin header must name our own origin. Browsers send Origin on every POST; when a
 * privacy setting strips it, the Referer's origin is accepted instead. With neither, or with
 * `Origin: null` (sandboxed frames, some redirects), the request is refused.
 */
export function checkOrigin(input: { origin: string | null; referer: string | null; expected: string | readonly string[] }): OriginCheck {
  const { origin, referer } = input
  const expected = typeof input.expected === 'string' ? [input.expected] : input.expected
  if (origin !== null && origin.trim() !== '') {
    return expected.includes(origin.trim().toLowerCase()) ? { ok: true } : { ok: false, code: 'foreign' }
  }
  if (referer) {
    let refOrigin: string
    try {
      refOrigin = new URL(referer).origin.toLowerCase()
    } catch {
      return { ok: false, code: 'foreign' }
    }
    return expected.includes(refOrigin) ? { ok: true } : { ok: false, code: 'foreign' }
  }
  return { ok: false, code: 'missing' }
}

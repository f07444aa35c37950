// The browser side of dashboard sessions: cookies, the HTTPS test, and the guard every
// state-changing form post goes through (Origin, then the CSRF token). Nothing here lives in
// process memory: the session is a database row, the CSRF token is derived from the cookie
// secret, so any instance behind a load balancer can answer any request.

import { parseCookies, serializeCookie, type CookieOptions } from '../core/cookies'
import { acceptedOrigins, checkOrigin, csrfTokenFor, csrfTokenMatches } from '../core/csrf'
import type { Cidr } from '../core/ip'
import type { RandomBytes } from '../core/keys'
import { generateSessionToken, isWellFormedSessionToken, SESSION_LIFETIME_SECONDS } from '../core/session'
import { readForm } from './forms'
import { peerIsTrustedProxy } from './client-ip'

const COOKIE_BASE = {
  /** The session token (HttpOnly), 14 days. */
  session: 'antibot_session',
  /** Before log-in: the secret the sign-up and log-in forms' CSRF token is derived from. */
  form: 'antibot_form',
  /** What to show after a no-JavaScript form's 303 (a new key, a notice), sealed for this session. */
  flash: 'antibot_flash',
} as const

export type CookieKind = keyof typeof COOKIE_BASE

/**
 * A cookie's name for a request over HTTPS or plain HTTP. Over HTTPS the session and form
 * cookies are `__Host-` cookies: browsers keep such a cookie only when it was set over HTTPS,
 * Secure, with Path=/ and no Domain, so neither a sibling subdomain nor anyone on the plain-HTTP
 * port (or between the browser and it) can plant or overwrite one. The flash cookie is scoped
 * to /dashboard, which `__Host-` does not allow, so it is `__Secure-` (set over HTTPS, Secure);
 * it is sealed with the session's token besides (src/core/flash.ts).
 *
 * Over plain HTTP no prefix is possible (both need Secure), so the cookies keep their plain
 * names, and each scheme reads only its own names: a cookie set or planted over plain HTTP is
 * never taken for the HTTPS session or form secret. Signing in over one scheme does not sign
 * in over the other.
 */
export function cookieName(kind: CookieKind, https: boolean): string {
  if (!https) return COOKIE_BASE[kind]
  return `${kind === 'flash' ? '__Secure-' : '__Host-'}${COOKIE_BASE[kind]}`
}

/** The form field plain HTML forms send the token in. */
export const CSRF_FIELD = '_csrf'
/** The header htmx sends it in (src/pages/layout.tsx puts it in hx-headers on <body>). */
export const CSRF_HEADER = 'x-csrf-token'

interface Peer {
  requestIP(request: Request): { address: string } | null
}

/**
 * Whether the browser reached us over HTTPS: the URL says so, or a trusted proxy (the socket
 * peer is in TRUSTED_PROXIES) terminated TLS and said so in X-Forwarded-Proto. The header of
 * anyone else is ignored.
 */
export function isHttpsRequest(server: Peer | null | undefined, request: Request, trusted: readonly Cidr[]): boolean {
  if (new URL(request.url).protocol === 'https:') return true
  if (!peerIsTrustedProxy(server, request, trusted)) return false
  return request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https'
}

export function cookieOptions(https: boolean, extra: Partial<CookieOptions> = {}): CookieOptions {
  return { path: '/', httpOnly: true, sameSite: 'Lax', secure: https, ...extra }
}

export function sessionCookie(token: string, https: boolean, expiresAt: Date, now: Date): string {
  const maxAge = Math.min(SESSION_LIFETIME_SECONDS, Math.floor((expiresAt.getTime() - now.getTime()) / 1000))
  return serializeCookie(cookieName('session', https), token, cookieOptions(https, { maxAge }))
}

export function deleteCookie(kind: CookieKind, https: boolean, path = '/'): string {
  return serializeCookie(cookieName(kind, https), '', cookieOptions(https, { maxAge: 0, path }))
}

/** The value of the request's cookie of this kind, under its name for the request's scheme. */
export function requestCookie(request: Request, kind: CookieKind, https: boolean): string | undefined {
  return parseCookies(request.headers.get('cookie')).get(cookieName(kind, https))
}

/**
 * The pre-log-in form secret: the browser's existing one, or a new one with the Set-Cookie
 * that stores it. It lasts as long as the browser session; it guards only the sign-up and
 * log-in forms (log-in CSRF), and is dropped once a session starts.
 */
export function formSecret(request: Request, random: RandomBytes, https: boolean): { secret: string; setCookie: string | null } {
  const existing = requestCookie(request, 'form', https)
  if (existing && isWellFormedSessionToken(existing)) return { secret: existing, setCookie: null }
  const secret = generateSessionToken(random)
  return { secret, setCookie: serializeCookie(cookieName('form', https), secret, cookieOptions(https)) }
}

export { csrfTokenFor }

export type Refusal = 'foreign_origin' | 'bad_csrf'

/** Origin first: it needs no body, so a cross-site post is refused before anything is read. */
export function checkRequestOrigin(request: Request, https: boolean): boolean {
  const expected = acceptedOrigins(new URL(request.url), https)
  return checkOrigin({ origin: request.headers.get('origin'), referer: request.headers.get('referer'), expected }).ok
}

/**
 * Reads the form and checks its CSRF token against `secret` (the session token or the form
 * secret). htmx sends the token as a header and plain forms as a field; either will do, as
 * both are derived from the same secret. With no secret at all, nothing can match.
 */
export async function readCheckedForm(
  request: Request,
  secret: string | undefined,
  what: string,
): Promise<{ ok: true; form: URLSearchParams } | { ok: false; code: Refusal }> {
  const form = await readForm(request, what)
  if (!secret) return { ok: false, code: 'bad_csrf' }
  const fromHeader = request.headers.get(CSRF_HEADER)
  if (csrfTokenMatches(secret, fromHeader) || csrfTokenMatches(secret, form.get(CSRF_FIELD))) return { ok: true, form }
  return { ok: false, code: 'bad_csrf' }
}

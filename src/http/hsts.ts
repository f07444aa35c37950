// Strict-Transport-Security (RFC 6797) on the responses the service sends over HTTPS: once a
// browser has seen it over a connection whose certificate it trusts, it goes to this host only
// over HTTPS, for max-age seconds, so no one on the way can downgrade it to plain HTTP or
// plant a cookie there.
//
// HSTS_MAX_AGE sets it; unset, it is a year with a real certificate (TLS_CERT_FILE) and off with
// the self-signed one. Browsers ignore the header over a certificate they do not trust
// (RFC 6797 8.1), so with the self-signed pair it would protect no one; and where someone made
// their browser trust it, a policy for `localhost` would reach every port of the host (HSTS is
// per host, not per port): http://localhost:3000, the plain port this service and others run
// on, would be rewritten to https://localhost:3000 and fail for as long as max-age lasts.
// includeSubDomains is never sent: sibling hosts are not this service's to decide for.
//
// The header goes on every response to a request that came over HTTPS: the HTTPS listener's,
// and, behind a TLS-terminating proxy in TRUSTED_PROXIES, those it marked X-Forwarded-Proto:
// https (src/http/web-session.ts isHttpsRequest). Over plain HTTP it means nothing (RFC 6797
// 8.1) and is not sent.

/** A year, the max-age commonly asked of HSTS sites (e.g. for the browsers' preload lists). */
export const HSTS_DEFAULT_MAX_AGE = 31_536_000

export const HSTS_HEADER = 'strict-transport-security'

export function hstsValue(maxAge: number): string {
  return `max-age=${maxAge}`
}

// Security headers of the HTML pages, and the HTML responses of the account pages.
//
// Every HTML response gets a Content-Security-Policy (scripts only from this origin: no inline
// script, no eval), X-Content-Type-Options: nosniff and a Referrer-Policy; every one that may
// not be framed also X-Frame-Options: DENY and `frame-ancestors 'none'` (no clickjacking of
// Rotate or Delete, or of a tool page). createApp applies them to any HTML response that does
// not set its own (withSecurityHeaders); the tool pages set a wider policy for their probes
// (toolPageCsp), and GET /probe/frame, which any site may frame, a narrower one without
// frame-ancestors. Styles may be inline ('unsafe-inline' for styles only): the pages, the
// report fragment a tool page inserts and htmx's indicator styles use style attributes or a
// <style> element, and a style cannot run script.

type Directives = Record<string, readonly string[]>

function cspText(d: Directives): string {
  return Object.entries(d)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ')
}

const PAGE_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const satisfies Directives

/** The policy of every HTML page that runs no probe: the index, the docs, the account pages, the 404 page. */
export const PAGE_CSP = cspText(PAGE_DIRECTIVES)

/** Where the storage-partition probe's nested frame is served (src/http/tools.ts). */
export const PROBE_FRAME_PATH = '/probe/frame'

/** GET /probe/frame: holds and runs nothing, and any site may frame it (no frame-ancestors). */
export const PROBE_FRAME_CSP = cspText({ 'default-src': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'none'"] })

/** Whether a host name is this machine (as the ip-leak probe's isLoopbackHost decides). */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1'
}

/** A tool page's frame-src (toolPageCsp says why /probe/frame is named). */
const FRAME_SRC = ["'self'", 'data:', `https://*:*${PROBE_FRAME_PATH}`, `http://*:*${PROBE_FRAME_PATH}`]

/**
 * The policy of a tool page, for its probe bundle (/assets, this origin) and what the probes do:
 * - workers and a SharedWorker started from blob: URLs (worker-src blob:);
 * - a data: frame holding /probe/frame, and about:blank/srcdoc frames (frame-src 'self' data:).
 *   The data: frame inherits this policy, and Firefox then matches 'self' against the frame's
 *   own opaque origin: /probe/frame named on any host and port (FRAME_SRC; behind a proxy the
 *   service cannot know the ones the browser used) is what lets it load there (with 'self'
 *   alone, Firefox never requested it and the probe waited out its 10 s);
 * - fetches to the TLS evidence listener on its own port, `https://<the page's host>:<TLS_PORT>`
 *   (written `https://*:<port>`: behind a proxy the service cannot know the host name the
 *   browser used), and loads of `https://<nonce>-<n>.<DNS_ZONE>/` whose DNS lookups are the
 *   dns-leak evidence (img-src and connect-src);
 * - on a page served from a loopback host, the ip-leak probe's requests to 127.0.0.1 and [::1]
 *   on the page's own port (`<scheme>://*:<port>`, since CSP cannot name an IPv6 literal).
 * WebRTC (STUN/TURN) is not governed by CSP. No probe calls eval or new Function.
 */
export function toolPageCsp(opts: { pageUrl: URL; tlsPort?: number | undefined; dnsZone?: string | undefined }): string {
  const connect: string[] = ["'self'"]
  const img: string[] = [...PAGE_DIRECTIVES['img-src']]
  if (opts.tlsPort !== undefined) connect.push(`https://*:${opts.tlsPort}`)
  if (opts.dnsZone !== undefined) {
    connect.push(`https://*.${opts.dnsZone}`)
    img.push(`https://*.${opts.dnsZone}`)
  }
  if (isLoopbackHost(opts.pageUrl.hostname)) connect.push(`${opts.pageUrl.protocol}//*${opts.pageUrl.port ? `:${opts.pageUrl.port}` : ''}`)
  return cspText({
    ...PAGE_DIRECTIVES,
    'img-src': img,
    'connect-src': connect,
    'worker-src': ["'self'", 'blob:'],
    'frame-src': FRAME_SRC,
  })
}

/**
 * The headers every HTML response carries, added to `response` where it did not set them
 * itself; every response gets nosniff. X-Frame-Options goes only with a policy that forbids
 * framing, so /probe/frame stays frameable.
 */
export function withSecurityHeaders(response: Response): Response {
  const h = response.headers
  try {
    if (!h.has('x-content-type-options')) h.set('x-content-type-options', 'nosniff')
    if (!(h.get('content-type') ?? '').toLowerCase().startsWith('text/html')) return response
    if (!h.has('content-security-policy')) h.set('content-security-policy', PAGE_CSP)
    if (!h.has('x-frame-options') && /(^|;)\s*frame-ancestors\s+'none'/.test(h.get('content-security-policy')!)) h.set('x-frame-options', 'DENY')
    if (!h.has('referrer-policy')) h.set('referrer-policy', 'same-origin')
  } catch {
    // Immutable headers (a Response.redirect or a fetched response): nothing of ours to add.
  }
  return response
}

// HTML responses for the account pages: never cached (they show account data and, once, a
// key), never framed, no Referer leaving the site.

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy': PAGE_CSP,
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
} as const

/** `cookies` become one Set-Cookie header each. */
export async function htmlPage(body: JSX.Element, status = 200, headers: Record<string, string> = {}, cookies: readonly string[] = []): Promise<Response> {
  const h = new Headers({ ...PAGE_HEADERS, ...headers })
  for (const c of cookies) h.append('set-cookie', c)
  return new Response(await body, { status, headers: h })
}

export function withCookies(response: Response, cookies: readonly string[]): Response {
  for (const c of cookies) response.headers.append('set-cookie', c)
  return response
}

// The one module that spells htmx's HX-* headers (https://htmx.org/reference/#headers).
// Handlers ask isHtmx(request) and answer with the helpers below; nothing else names them.

const HX = {
  /** Request: sent by htmx on every request it makes. */
  request: 'HX-Request',
  /** Request: a full-page reload after a history cache miss; wants the whole page. */
  historyRestore: 'HX-History-Restore-Request',
  /** Response: client-side navigation to a path (an htmx GET swapped into the body). */
  location: 'HX-Location',
  /** Response: put this response somewhere other than the element's hx-target. */
  retarget: 'HX-Retarget',
  /** Response: swap it this way instead of the element's hx-swap. */
  reswap: 'HX-Reswap',
} as const

/** Whether the request was made by htmx and wants a fragment rather than a page. */
export function isHtmx(request: Request): boolean {
  return request.headers.get(HX.request) === 'true' && request.headers.get(HX.historyRestore) !== 'true'
}

/** Responses that differ for htmx and for plain requests must say so to caches. */
export const VARY_HTMX = { vary: HX.request } as const

/**
 * Sends the browser elsewhere after a form post: htmx gets 200 with HX-Location (it fetches
 * the page and swaps it in, without a full reload), anything else a 303 See Other, which
 * turns the POST into a GET of the new page.
 */
export function redirect(request: Request, location: string, headers?: HeadersInit): Response {
  const h = new Headers(headers)
  if (isHtmx(request)) {
    h.set(HX.location, location)
    h.append('vary', HX.request)
    return new Response(null, { status: 200, headers: h })
  }
  h.set('location', location)
  h.append('vary', HX.request)
  return new Response(null, { status: 303, headers: h })
}

/** Headers that send an htmx response to `target` (a CSS selector), swapped with `swap`. */
export function retarget(target: string, swap: 'innerHTML' | 'outerHTML' = 'innerHTML'): Record<string, string> {
  return { [HX.retarget]: target, [HX.reswap]: swap }
}

/**
 * htmx settings for pages that use it (a <meta name="htmx-config"> in the head):
 * - 4xx answers are swapped like 2xx ones: they carry the form with its errors, or an alert;
 * - a history restore is a plain page request, since fragments depend on HX-Request;
 * - no page is copied into localStorage for the back button (it could hold a new API key).
 */
export const HTMX_CONFIG = JSON.stringify({
  responseHandling: [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '4..', swap: true, error: false },
    { code: '...', swap: false, error: true },
  ],
  historyRestoreAsHxRequest: false,
  historyCacheSize: 0,
  refreshOnHistoryMiss: true,
})

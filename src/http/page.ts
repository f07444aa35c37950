// HTML responses for the account pages: never cached (they show account data and, once, a
// key), never framed (no clickjacking of Rotate or Delete), no Referer leaving the site.

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
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

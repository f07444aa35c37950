// JSON responses with an explicit status; every error body is {"error": "…"}. They carry
// nosniff themselves (the app's hooks would add it; the native routes need not).

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers },
  })
}

export function jsonText(text: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers } })
}

export function errorResponse(status: number, error: string, headers: Record<string, string> = {}): Response {
  // A body refused as too slow may still be trickling in: the connection ends with the answer
  // (HTTP/2 drops the header; the listener ends the stream). A body refused as too large is read
  // on and thrown away for a moment (src/http/body.ts discardRest), then the connection closes.
  return json({ error }, status, status === 408 ? { connection: 'close', ...headers } : headers)
}

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
  return json({ error }, status, headers)
}

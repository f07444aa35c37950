// Reading a request body under a byte cap, whether or not the client sent Content-Length
// (chunked bodies are counted as they stream in and cut off at the cap).

import { HttpError } from '../core/errors'

export async function readBodyCapped(request: Request, maxBytes: number, what: string): Promise<string> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > maxBytes) {
    throw new HttpError(413, `${what}: the body is larger than ${maxBytes} bytes`)
  }
  if (!request.body) return ''
  // With a declared length within the cap, the body cannot exceed it: read it in one go (the
  // chunked loop below is for bodies without Content-Length).
  if (declared !== null && /^\d+$/.test(declared)) return decodeUtf8(new Uint8Array(await request.arrayBuffer()), what)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      throw new HttpError(413, `${what}: the body is larger than ${maxBytes} bytes`)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const c of chunks) {
    bytes.set(c, offset)
    offset += c.byteLength
  }
  return decodeUtf8(bytes, what)
}

function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new HttpError(400, `${what}: the body is not valid UTF-8`)
  }
}

/** The media type without parameters, lower-cased ('' when absent). */
export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
}

export function requireJson(request: Request, what: string): void {
  const type = mediaType(request)
  if (type !== 'application/json') {
    throw new HttpError(415, `${what}: Content-Type must be application/json, got ${type ? `'${type}'` : 'none'}`)
  }
}

/** Parses JSON text; a syntax error becomes a 400 naming the parser's complaint. */
export function parseJson(text: string, what: string): unknown {
  if (text.trim() === '') throw new HttpError(400, `${what}: the body is empty; send a JSON object`)
  try {
    return JSON.parse(text)
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e)
    throw new HttpError(400, `${what}: the body is not valid JSON (${reason})`)
  }
}

// An HTTP/1.x request head as it arrived (RFC 9112): the request line, and the header fields
// with their names in the case and order the client wrote them. Servers normally lose both
// (Bun's Request.headers lower-cases and sorts), yet they tell clients apart: browsers write
// `Host` first and title-case their names, HTTP libraries and proxies have their own orders,
// and tools that inject headers leave them out of place.

import { attempt, fail, latin1, type Parsed } from './bytes'

export interface HeaderLine {
  /** As written, e.g. `User-Agent` or `user-agent`. */
  name: string
  /** Without the optional whitespace around it (§5.1). */
  value: string
}

export interface Http1RequestHead {
  method: string
  target: string
  /** As written, e.g. `HTTP/1.1`. */
  version: string
  headers: HeaderLine[]
  /** Lines ended by a bare LF instead of CRLF, which §2.2 lets a server accept but browsers never send. */
  bareLineFeeds: boolean
}

export type Http1Error = 'not-http' | 'too-large' | 'bad-request-line' | 'bad-header' | 'obs-fold' | 'truncated'

export type Http1Read =
  | { status: 'need-more' }
  | { status: 'not-http'; reason: string }
  | { status: 'invalid'; error: Http1Error; detail: string }
  | { status: 'complete'; head: Http1RequestHead; length: number }

/** Cap on a request head; common servers allow 8–16 KiB. */
export const MAX_HEAD = 16 * 1024
const MAX_HEADERS = 200

// token = 1*tchar (RFC 9110 §5.6.2)
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const isTchar = (c: number) => c < 128 && TCHAR.test(String.fromCharCode(c))
const VERSION = /^HTTP\/\d\.\d$/

/** Finds the blank line ending the head: CRLFCRLF, or LF LF / LF CRLF with bare line feeds. */
function headEnd(buf: Uint8Array, limit: number): number {
  for (let i = 0; i < limit; i++) {
    if (buf[i] !== 0x0a) continue
    if (buf[i + 1] === 0x0a) return i + 2
    if (buf[i + 1] === 0x0d && buf[i + 2] === 0x0a) return i + 3
  }
  return -1
}

/** Looks at the bytes read so far on a plain connection. */
export function readHttp1Head(buffered: Uint8Array, maxHead = MAX_HEAD): Http1Read {
  // §2.2: a server SHOULD ignore at least one empty line before the request line.
  let start = 0
  while (start < 2 && (buffered[start] === 0x0d || buffered[start] === 0x0a)) start++
  // The method is a token followed by a space: anything else (a TLS record, an h2 preface
  // sent to the wrong port still qualifies) is not an HTTP/1 request.
  for (let i = start; i < buffered.length && i < start + 20; i++) {
    const c = buffered[i]!
    if (c === 0x20 && i > start) break
    if (!isTchar(c)) return { status: 'not-http', reason: `byte 0x${c.toString(16).padStart(2, '0')} at ${i} cannot be part of a request method` }
  }
  const limit = Math.min(buffered.length, maxHead)
  const end = headEnd(buffered.subarray(start), limit - start)
  if (end < 0) {
    if (buffered.length >= maxHead) return { status: 'invalid', error: 'too-large', detail: `no end of the request head in ${maxHead} bytes` }
    return { status: 'need-more' }
  }
  const r = attempt<Http1RequestHead, Http1Error>(() => parseHead(latin1(buffered.subarray(start, start + end))))
  return r.ok ? { status: 'complete', head: r.value, length: start + end } : { status: 'invalid', error: r.error, detail: r.detail }
}

/** Parses bytes that should hold a whole request head (a fixture, or a proxy's copy). */
export function parseHttp1Head(bytes: Uint8Array, maxHead = MAX_HEAD): Parsed<Http1RequestHead, Http1Error> {
  const r = readHttp1Head(bytes, maxHead)
  switch (r.status) {
    case 'complete':
      return { ok: true, value: r.head }
    case 'need-more':
      return { ok: false, error: 'truncated', detail: 'Cannot parse the request head: it has no blank line ending it' }
    case 'not-http':
      return { ok: false, error: 'not-http', detail: `Cannot parse the request head: ${r.reason}` }
    case 'invalid':
      return { ok: false, error: r.error, detail: r.detail }
  }
}

function parseHead(text: string): Http1RequestHead {
  const raw = text.split('\n')
  // The split leaves two empty strings after the final blank line.
  raw.length -= 2
  let bareLineFeeds = false
  const lines = raw.map((l) => {
    if (l.endsWith('\r')) return l.slice(0, -1)
    bareLineFeeds = true
    return l
  })
  // A CR is not allowed anywhere else in the head (§2.2).
  if (lines.some((l) => l.includes('\r') || l.includes('\0'))) fail('bad-header', 'a bare CR or NUL inside a line')
  // request-line = method SP request-target SP HTTP-version (§3)
  const parts = lines[0]!.split(' ')
  if (parts.length !== 3 || !TCHAR.test(parts[0]!) || parts[1] === '' || !VERSION.test(parts[2]!)) fail('bad-request-line', `request line ${JSON.stringify(lines[0]!.slice(0, 100))} is not "method target HTTP/x.y"`)
  const [method, target, version] = parts as [string, string, string]
  const headers: HeaderLine[] = []
  for (const line of lines.slice(1)) {
    // §5.2: obsolete line folding is rejected (a server may instead unfold; rejecting is safer).
    if (line.startsWith(' ') || line.startsWith('\t')) fail('obs-fold', 'a header line starts with whitespace (obsolete line folding)')
    const colon = line.indexOf(':')
    const name = colon > 0 ? line.slice(0, colon) : ''
    // §5.1: no whitespace is allowed between the field name and the colon.
    if (!TCHAR.test(name)) fail('bad-header', `header line ${JSON.stringify(line.slice(0, 100))} has no valid field name`)
    headers.push({ name, value: line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '') })
    if (headers.length > MAX_HEADERS) fail('too-large', `more than ${MAX_HEADERS} header lines`)
  }
  return { method, target, version, headers, bareLineFeeds }
}

// A connection of the HTTPS listener handed to the app (src/listeners/tls.ts): a node:http2 (or
// node:http) server of its own serves it, with the bytes already read for the fingerprint fed
// back, and every request on it becomes a fetch Request for the app. Each Request is registered
// with its connection's peer address and evidence (https-requests.ts), so the client address is
// the real peer's and a tool page rendered on it files its own connection's handshake under its
// nonce. `/evidence/<nonce>` on such a connection files that connection's records (once per
// nonce) as the client's whose address the request shows.
//
// HTTP/2 is served within the limits of h2-guard.ts: advertised stream and header-list limits,
// and a budget of client resets past which the connection gets GOAWAY ENHANCE_YOUR_CALM. A
// request runs only once the read it came in has been taken in whole, so a stream the client
// reset right away, or one on a connection past its budget, never reaches the app.

import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2'
import type { TLSSocket } from 'node:tls'
import type { H2ClientStart } from '../evidence/http2'
import { evidenceNonce, http2Record, rttRecord, type Http1Record, type Http2Record, type TlsRecord } from '../evidence/tls-records'
import { ENHANCE_YOUR_CALM, h2ServerOptions, RESET_BURST, resetWatcher } from './h2-guard'
import { fileRecords, registerListenerRequest, type ConnectionRecords } from './https-requests'
import { connectionClient, EVIDENCE_RESPONSE_HEADERS, evidenceAnswer, type Connection, type FetchHandler, type TlsListenerDeps } from './tls-connection'
import { sessionPings } from './tls-pings'
import { bodyDeadlineMs, bodyFailureStatus, bodyTooSlow, type BodyFailure } from '../http/body'

export interface ServeLimits {
  /**
   * Requests of one connection the app works on at once (HTTPS_STREAMS_IN_FLIGHT); on HTTP/2 the
   * others wait, holding only their headers, until one is answered. With the write budget below
   * this bounds what one connection's answers can hold: a client that opens a hundred streams
   * and reads none has at most this many answers made for it.
   */
  streamsInFlight: number
  /**
   * A write the client does not take (flow control, a full socket) or a request body it does
   * not finish, with no progress for this long, ends the connection (STALL_TIMEOUT_MS). PINGs
   * and other frames do not count as progress: only bytes of the answer taken or of the body
   * received do.
   */
  stallMs: number
}

export const DEFAULT_SERVE_LIMITS: ServeLimits = { streamsInFlight: 4, stallMs: 15_000 }

export interface ServeOptions {
  deps: TlsListenerDeps
  /** The app, once `serve(handler)` was called; until then requests get 404. */
  handler(): FetchHandler | null
  /** A served connection with no request in flight for this long is closed (PINGs do not count). */
  idleMs: number
  /** Largest request body `method` on `path` accepts (src/http/body-limits.ts). */
  bodyLimit(method: string, path: string): number
  /** How a refused body's error starts on `path`, in the route's words (src/http/body-limits.ts routeBodyAction). */
  bodyAction?(path: string): string
  limits: ServeLimits
}

/** HTTP/1.1 requests of one connection that may wait for a slot (pipelined) before it is closed. */
export const PIPELINE_QUEUE = 8

/** An answer is written in slices of at most this many bytes, each once the last was taken. */
const WRITE_SLICE = 16 * 1024

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2); node:http2 refuses to send them. */
const H2_CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'])

/** How long a connection past its reset budget has to read the GOAWAY before it is closed. */
const GOAWAY_GRACE_MS = 100

/** The connection-wide state of a served connection. */
interface Served {
  conn: Connection
  filed: Set<string>
  /** Runs `work` once fewer than streamsInFlight requests of the connection are in the app. */
  slot<T>(work: () => Promise<T>): Promise<T>
  /** Requests waiting for a slot. */
  readonly queued: number
}

/**
 * Hands the connection over: no more deadline, an idle timeout instead; the socket is paused
 * (the bytes read so far are fed back once the server listens to it). The idle timer runs
 * while no request is in flight: a connection kept open by PINGs alone is closed after idleMs.
 */
function handOff(o: ServeOptions, conn: Connection, tls: TLSSocket): Served {
  clearTimeout(conn.timer)
  tls.pause()
  let inFlight = 0
  const waiting: Array<() => void> = []
  let idle: ReturnType<typeof setTimeout> | undefined
  const armIdle = () => {
    clearTimeout(idle)
    idle = setTimeout(() => conn.raw.destroy(), o.idleMs)
  }
  armIdle()
  conn.raw.once('close', () => clearTimeout(idle))
  return {
    conn,
    filed: new Set(),
    async slot(work) {
      clearTimeout(idle)
      conn.ticket?.busy(true)
      if (inFlight >= o.limits.streamsInFlight) await new Promise<void>((go) => waiting.push(go))
      else inFlight++
      try {
        return await work()
      } finally {
        // The slot passes to the next waiting request, or the connection goes idle.
        const next = waiting.shift()
        if (next) next()
        else if (--inFlight === 0) {
          conn.ticket?.busy(false)
          armIdle()
        }
      }
    },
    get queued() {
      return waiting.length
    },
  }
}

/**
 * A node:http2 server of this connection's own serves it. The bytes read for the fingerprint
 * are given back with `emit('data')` once the server listens: Bun's node:http2 reads the socket
 * through its 'data' events, and `unshift` before the hand-over loses them (tested).
 */
export function serveH2(o: ServeOptions, conn: Connection, tls: TLSSocket, record: TlsRecord, start: H2ClientStart, buffered: Buffer): void {
  const served = handOff(o, conn, tls)
  const base = http2Record(start)
  let pings: Promise<number[]> = Promise.resolve([])
  const server = createHttp2Server(h2ServerOptions())
  const resets = resetWatcher()
  let session: Http2Session | null = null
  // Before node:http2's own listener: the count is up to date when its events for a read fire.
  tls.on('data', (chunk: Buffer) => {
    if (resets.tripped || !resets.push(chunk)) return
    o.deps.log?.(`tls listener: ${conn.peer} reset more than ${RESET_BURST} streams at once: GOAWAY ENHANCE_YOUR_CALM`)
    o.deps.onLimited?.('h2_resets')
    // Once node:http2 has taken in this read (its requests are dropped: see 'request' below).
    setImmediate(() => {
      try {
        session?.goaway(ENHANCE_YOUR_CALM)
      } catch {}
      setTimeout(() => conn.raw.destroy(), GOAWAY_GRACE_MS)
    })
  })
  server.on('session', (s: Http2Session) => {
    session = s
    pings = sessionPings(s)
    s.on('error', () => conn.raw.destroy())
  })
  // Whatever goes wrong on one connection ends that connection, never the process.
  server.on('error', () => conn.raw.destroy())
  server.on('sessionError', () => conn.raw.destroy())
  server.on('request', (req: Http2ServerRequest, res: Http2ServerResponse) => {
    const streamId = (req.stream as { id?: number } | undefined)?.id
    const first = streamId === start.headers.streamId
    // A later request on this connection (a page that reuses the side connection an earlier
    // page opened, or the run page's tools one after another) is timed again as it comes: the
    // connection's first PINGs were answered while the browser was busy with another page,
    // which is that moment's load, not this page's path. Taken once per request, added to the
    // first ones (the fastest counts: a relay lengthens every one of them).
    let own: Promise<number[]> | undefined
    const requestPings = () => {
      own ??= first || !session ? pings : Promise.all([pings, sessionPings(session)]).then(([a, b]) => [...a, ...b])
      return own
    }
    const records = async (): Promise<ConnectionRecords> => {
      const rtt = rttRecord(conn.tcpRttMicros, await requestPings(), 'h2')
      // The first request's header order is the one parsed off the wire; later ones come
      // from node:http2's rawHeaders, which keep the order they were sent in.
      const ownRecord: Http2Record = first ? base : { ...base, header_order: rawNames(req.rawHeaders).filter((n) => !n.startsWith(':')), path: req.url, user_agent: firstHeader(req.headers['user-agent']) ?? null }
      return [
        ['tls', record],
        ['http2', { ...ownRecord, rtt }],
      ]
    }
    // After the rest of this read: a RST_STREAM right behind the HEADERS has been seen by then.
    setImmediate(() => {
      const stream = req.stream as { destroyed?: boolean; closed?: boolean } | undefined
      if (resets.tripped || stream?.destroyed || stream?.closed) return
      void served.slot(() => (stream?.destroyed ? Promise.resolve() : handle(o, req, res, { h2: true, served, records })))
    })
  })
  server.emit('connection', tls)
  tls.emit('data', buffered)
  tls.resume()
}

export function serveH1(o: ServeOptions, conn: Connection, tls: TLSSocket, record: TlsRecord, first: Http1Record, buffered: Buffer): void {
  const served = handOff(o, conn, tls)
  let count = 0
  const server = createHttp1Server((req, res) => {
    // Browsers do not pipeline; a client that sends request after request without reading the
    // answers gets PIPELINE_QUEUE of them queued, and then the connection closes (issue 45:
    // 20,000 pipelined GETs held +285 MB).
    if (served.queued >= PIPELINE_QUEUE) {
      if (!conn.raw.destroyed) o.deps.onLimited?.('pipelined')
      conn.raw.destroy()
      return
    }
    const own: Http1Record =
      count++ === 0 ? first : { version: `HTTP/${req.httpVersion}`, method: req.method ?? '', path: req.url ?? '', headers: pairs(req.rawHeaders), bare_line_feeds: false, rtt: first.rtt }
    void served.slot(() =>
      handle(o, req, res, {
        h2: false,
        served,
        records: async () => [
          ['tls', record],
          ['http1', own],
        ],
      }),
    )
  })
  server.on('error', () => conn.raw.destroy())
  server.emit('connection', tls)
  tls.emit('data', buffered)
  tls.resume()
}

/** One request of a served connection: to a fetch Request, through the app, and back. */
async function handle(o: ServeOptions, req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse, c: { h2: boolean; served: Served; records: () => Promise<ConnectionRecords> }): Promise<void> {
  const { deps } = o
  try {
    const path = req.url ?? ''
    const nonce = evidenceNonce(path)
    if (nonce) {
      // The page's fetch of its evidence URL, on a connection it reused.
      const records = await c.records()
      let status = 200
      let recorded = true
      if (!c.served.filed.has(nonce)) {
        const client = connectionClient(c.served.conn.peer, xff(req), deps.trustedProxies)
        const filed = await fileRecords(deps.db, nonce, records, deps.clock(), client)
        if (filed.live) c.served.filed.add(nonce)
        status = filed.live ? 200 : 404
        recorded = filed.recorded
      }
      return await writeResponse(o, c.served.conn, res, new Response(evidenceAnswer(records, status === 200 && recorded), { status, headers: EVIDENCE_RESPONSE_HEADERS }), req.method === 'HEAD', c.h2)
    }
    const handler = o.handler()
    // An evidence-only listener (no app to serve, as in the listener's own tests): 404.
    if (!handler) return await writeResponse(o, c.served.conn, res, new Response('{"recorded":false}', { status: 404, headers: EVIDENCE_RESPONSE_HEADERS }), req.method === 'HEAD', c.h2)
    const request = await toRequest(o, c.served.conn, req, c.h2)
    if (request === null) return
    if (request instanceof Response) {
      await writeResponse(o, c.served.conn, res, request, false, c.h2)
      // A body too slow ends its connection: HTTP/1.1 by `Connection: close`, HTTP/2 by GOAWAY
      // once the streams under way are answered.
      if (c.h2 && request.status === 408) {
        const stream = (req as Http2ServerRequest).stream
        stream?.close()
        stream?.session?.close()
      }
      return
    }
    registerListenerRequest(request, { peer: c.served.conn.peer, filed: c.served.filed, records: c.records })
    const response = await handler(request)
    await writeResponse(o, c.served.conn, res, response, req.method === 'HEAD', c.h2)
  } catch (e) {
    deps.log?.(`tls listener: request failed: ${e instanceof Error ? e.message : String(e)}`)
    const out = res as ServerResponse
    if (!out.headersSent) out.writeHead(500, { 'content-type': 'text/plain' })
    out.end()
  }
}

/**
 * The node request as a fetch Request (https URL from :authority or Host), the error Response,
 * or null when the connection was ended (a body that stalled).
 */
async function toRequest(o: ServeOptions, conn: Connection, req: IncomingMessage | Http2ServerRequest, h2: boolean): Promise<Request | Response | null> {
  const text = (status: number, message: string) => new Response(`${message}\n`, { status, headers: { 'content-type': 'text/plain' } })
  const authority = (h2 ? firstHeader(req.headers[':authority']) : undefined) ?? firstHeader(req.headers.host)
  const target = req.url ?? ''
  if (!authority || !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(authority)) return text(400, 'Bad Request: no valid Host or :authority.')
  if (!target.startsWith('/')) return text(400, 'Bad Request: the request target must be a path.')
  const headers = new Headers()
  for (const [name, value] of pairs(req.rawHeaders)) {
    if (name.startsWith(':')) continue
    try {
      headers.append(name, value)
    } catch {
      return text(400, 'Bad Request: a header cannot be read.')
    }
  }
  if (!headers.has('host')) headers.set('host', authority)
  const method = req.method ?? 'GET'
  let body: Uint8Array<ArrayBuffer> | undefined
  if (method !== 'GET' && method !== 'HEAD') {
    // Refused before a byte of the body is read when its declared length is over the route's
    // limit, and cut off at the limit when it has none (issue 33); refused with 408 when it comes
    // slower than the least rate after the grace (issue 45). In the route's own words, JSON.
    const limit = o.bodyLimit(method, target)
    const refuse = (failure: BodyFailure) => {
      const { status, error } = bodyFailureStatus(failure, o.bodyAction?.(target) ?? 'Cannot read the request')
      return new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json', connection: 'close' } })
    }
    const tooLarge = () => {
      o.deps.onLimited?.('request_body')
      return refuse({ code: 'too_large', maxBytes: limit })
    }
    const declared = firstHeader(req.headers['content-length'])
    if (declared !== undefined && Number(declared) > limit) return tooLarge()
    const read = await readBody(req, limit, o.limits.stallMs)
    if (read === 'too-large') return tooLarge()
    if (read === 'too-slow') {
      o.deps.onLimited?.('request_timeout')
      return refuse({ code: 'too_slow', graceMs: o.limits.stallMs })
    }
    if (read === 'gone') {
      conn.raw.destroy()
      return null
    }
    if (read === 'stalled') {
      // Answered, then closed (issue 57): a body that stopped coming gets the 408 a slow one
      // gets, not a connection closed with no answer, which a client cannot tell from a crash.
      o.deps.onLimited?.('stall')
      return refuse({ code: 'too_slow', graceMs: o.limits.stallMs })
    }
    body = read
  }
  return new Request(`https://${authority}${target}`, { method, headers, ...(body ? { body } : {}) })
}

/**
 * A request body of at most `limit` bytes; 'stalled' when no byte came for stallMs; 'too-slow'
 * when, after stallMs, it has come slower than MIN_BODY_RATE on average (src/http/body.ts):
 * a byte every few seconds restarts the stall timer, but not this; 'gone' when the client reset
 * the stream or closed the connection.
 *
 * The stall timer is checked against the time of the last byte read, and only after the bytes
 * already in the socket have been read (setImmediate: after the event loop's I/O phase). On a
 * loaded machine the loop runs late, and a timer due during the delay fires before the reads
 * that came in meanwhile; judged at once, a client sending a byte a second to a loop three
 * seconds late was taken for one that sent nothing (issue 57).
 */
function readBody(req: IncomingMessage | Http2ServerRequest, limit: number, stallMs: number): Promise<Uint8Array<ArrayBuffer> | 'too-large' | 'stalled' | 'too-slow' | 'gone'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const started = performance.now()
    let lastByte = started
    let done = false
    const stalled = () => {
      setImmediate(() => {
        if (done) return
        const quiet = performance.now() - lastByte
        if (quiet >= stallMs) finish('stalled')
        else timer = setTimeout(stalled, stallMs - quiet)
      })
    }
    let timer = setTimeout(stalled, stallMs)
    // The whole body's deadline, however it trickles: the grace, then the least rate for what is left.
    const deadline = setTimeout(() => finish('too-slow'), bodyDeadlineMs(limit, stallMs))
    const finish = (r: Uint8Array<ArrayBuffer> | 'too-large' | 'stalled' | 'too-slow' | 'gone') => {
      done = true
      clearTimeout(timer)
      clearTimeout(deadline)
      req.removeListener('data', onData)
      req.removeListener('end', onEnd)
      req.removeListener('error', onError)
      req.removeListener('close', onError)
      if (typeof r === 'string') req.pause()
      resolve(r)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) return finish('too-large')
      if (bodyTooSlow(size, performance.now() - started, stallMs)) return finish('too-slow')
      chunks.push(chunk)
      lastByte = performance.now()
    }
    const onEnd = () => finish(new Uint8Array(Buffer.concat(chunks, size)))
    // A stream the client reset or a connection that closed: nothing more will come.
    const onError = () => finish('gone')
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('error', onError)
    req.once('close', onError)
  })
}

/**
 * Writes the app's answer in slices, each once the client took the last (flow control on
 * HTTP/2, the socket on HTTP/1.1): what waits for a reader that does not read is at most a
 * slice and the stream's own buffer. A write with no progress for stallMs ends the connection.
 */
async function writeResponse(o: ServeOptions, conn: Connection, to: ServerResponse | Http2ServerResponse, response: Response, head: boolean, h2: boolean): Promise<void> {
  // The compatibility API of node:http2 has the same calls as node:http's.
  const res = to as ServerResponse
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie' || (h2 && H2_CONNECTION_HEADERS.has(name))) return
    headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers['set-cookie'] = cookies
  res.writeHead(response.status, headers)
  if (head || !response.body) {
    await response.body?.cancel()
    res.end()
    return
  }
  const reader = response.body.getReader()
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    for (let offset = 0; offset < r.value.length; offset += WRITE_SLICE) {
      if (res.destroyed) return void (await reader.cancel())
      if (res.write(r.value.subarray(offset, offset + WRITE_SLICE))) continue
      if (!(await taken(res, o.limits.stallMs))) {
        o.deps.onLimited?.('stall')
        conn.raw.destroy()
        return void (await reader.cancel().catch(() => {}))
      }
    }
  }
  res.end()
}

/** Resolves true once `res` drains or closes, false when neither happened within `ms`. */
function taken(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer)
      res.removeListener('drain', onDrain)
      res.removeListener('close', onDrain)
      resolve(ok)
    }
    const onDrain = () => done(true)
    const timer = setTimeout(() => done(false), ms)
    res.once('drain', onDrain)
    res.once('close', onDrain)
  })
}

/** X-Forwarded-For of a node request, several lines joined. */
function xff(req: IncomingMessage | Http2ServerRequest): string | null {
  const v = req.headers['x-forwarded-for']
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v
}

/** node's flat rawHeaders as [name, value] pairs, names as sent. */
function pairs(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!])
  return out
}

function rawNames(raw: readonly string[]): string[] {
  return pairs(raw).map(([n]) => n.toLowerCase())
}

function firstHeader(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v
}

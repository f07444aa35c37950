// The HTTPS listener (TLS_PORT; on by default, issue 14): the whole service over TLS, HTTP/2 and
// HTTP/1.1, with the TLS and HTTP/2 evidence of every connection (issue 7). Bun's TLS server does
// not expose the ClientHello, so a plain TCP server reads the first bytes itself
// (readClientHello copes with split reads), puts them back (`socket.unshift`) and only then
// wraps the socket in a node:tls server socket, which replays them into the handshake. After the
// handshake it reads the start of the request: the HTTP/2 preface and first HEADERS (ALPN h2) or
// an HTTP/1 head. Then:
//
// - `/evidence/<nonce>` as the first request (a page loaded over plain HTTP opens this side
//   connection): the 'tls' record and the 'http2' or 'http1' record are filed under the nonce,
//   one small JSON response the page can read (CORS *) goes back, and the connection closes.
// - anything else: the connection is handed to a node:http2 (or node:http) server of its own,
//   with the bytes already read fed back to it, and every request on it is turned into a fetch
//   Request for the app (`serve(app.handle)`). Each Request is registered with its connection's
//   peer address and evidence (https-requests.ts), so the client address is the real peer's
//   and a tool page rendered on it files its own connection's handshake under its nonce.
//   `/evidence/<nonce>` on such a connection files that connection's records (once per nonce).
//
// Bounds: bytes buffered before the handshake (a hello is at most 64 KiB) and after it until the
// first request head is read, and time until then (a slow client is dropped); a served
// connection is closed after IDLE_MS without traffic, and a request body is at most 1 MiB (as
// on the HTTP listener). A connection that is not TLS gets a plain 400; one whose hello or first
// request does not parse is closed.
//
// Round trips: at accept the kernel's RTT of the TCP handshake is read (tcp-info.ts, Linux);
// on h2 up to three PINGs go out one after another (2 s in all) and their ACKs are timed: on the
// side connection after the request's headers (and at most half of what the connection deadline
// leaves), on a served connection as soon as it is handed over. Both go into the HTTP record as
// `rtt` (tls-records.ts RttRecord): a TCP-terminating proxy shows as a PING round trip far longer
// than the handshake's.

import { once } from 'node:events'
import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2'
import { createServer, type Server, type Socket } from 'node:net'
import { TLSSocket } from 'node:tls'
import type { Db } from '../../db/client'
import { H2_PING_LENGTH, h2PingFrame, readH2ClientStart, readH2Ping, splitH2Frames, type H2ClientStart } from '../evidence/http2'
import { readHttp1Head } from '../evidence/http1'
import { MAX_CLIENT_HELLO, readClientHello, type ClientHello } from '../evidence/tls-client-hello'
import { evidenceNonce, h2Response, h2ServerPreface, http1Record, http1Response, http2Record, rttRecord, tlsRecord, type Http1Record, type Http2Record, type TlsRecord } from '../evidence/tls-records'
import { fileRecords, registerListenerRequest, type ConnectionRecords } from './https-requests'
import { tcpRttMicros } from './tcp-info'
import { certificateStore } from './tls-certificate'

export interface TlsListenerOptions {
  port: number
  host?: string
  certFile?: string
  keyFile?: string
  dataDir: string
  /** Deadline from accept to the first request head (and, on the side connection, to its response); default 10 s. */
  timeoutMs?: number
  /** A served connection without traffic for this long is closed (default 60 s). */
  idleMs?: number
  /** Largest request body handed to the app (default 1 MiB, as on the HTTP listener). */
  maxRequestBodySize?: number
}

/** The app's fetch handler (Elysia's `app.handle`). */
export type FetchHandler = (request: Request) => Promise<Response>

export interface TlsListener {
  port: number
  /** Where the certificate came from, for the start-up log line. */
  certificate: string
  /** Serves every request that is not `/evidence/<nonce>` with `handler`; until then they get 404. */
  serve(handler: FetchHandler): void
  stop(): Promise<void>
}

export interface TlsListenerDeps {
  db: Db
  clock: () => Date
  log?: (line: string) => void
}

const MAX_REQUEST_BYTES = 64 * 1024
/** PINGs sent one after another on h2; the fastest answer is the connection's round trip. */
const PING_COUNT = 3
/** Longest the PINGs may hold up the answer, all of them together. */
const PING_BUDGET_MS = 2000

/** What every stage of one connection needs to know about it. */
interface Connection {
  raw: Socket
  /** tcpi_rtt in µs read at accept: the TCP handshake's round trip; null off Linux. */
  tcpRttMicros: number | null
  /** performance.now() at which the connection deadline drops it. */
  deadline: number
  /** The deadline's timer, cleared when the connection is handed to the app. */
  timer: ReturnType<typeof setTimeout>
}

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2); node:http2 refuses to send them. */
const H2_CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'])

export async function startTlsListener(deps: TlsListenerDeps, opts: TlsListenerOptions): Promise<TlsListener> {
  const log = deps.log ?? (() => {})
  const certificates = certificateStore(opts, log)
  const timeoutMs = opts.timeoutMs ?? 10_000
  const idleMs = opts.idleMs ?? 60_000
  const maxBody = opts.maxRequestBodySize ?? 1024 * 1024
  const open = new Set<Socket>()
  let handler: FetchHandler | null = null

  const server: Server = createServer((raw) => {
    open.add(raw)
    // First, before any byte is answered: the only RTT sample is still the handshake's.
    const conn: Connection = { raw, tcpRttMicros: tcpRttMicros(raw), deadline: performance.now() + timeoutMs, timer: setTimeout(() => raw.destroy(), timeoutMs) }
    // The PINGs are single small writes that must leave at once, not wait for an ACK (Nagle).
    raw.setNoDelay(true)
    raw.on('close', () => {
      clearTimeout(conn.timer)
      open.delete(raw)
    })
    raw.on('error', () => raw.destroy())
    try {
      readHello(raw, (hello, buffered) => terminate(conn, hello, buffered))
    } catch (e) {
      log(`tls listener: connection dropped: ${e instanceof Error ? e.message : e}`)
      raw.destroy()
    }
  })

  function readHello(raw: Socket, done: (hello: ClientHello, buffered: Buffer) => void): void {
    let buffered = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      const r = readClientHello(buffered)
      if (r.status === 'need-more') {
        if (buffered.length > MAX_CLIENT_HELLO + 1024) raw.destroy()
        return
      }
      raw.removeListener('data', onData)
      if (r.status === 'complete') {
        raw.pause()
        done(r.hello, buffered)
      } else if (r.status === 'not-tls') {
        raw.end(http1Response(400, 'Bad Request', [['content-type', 'text/plain']], 'This port speaks TLS only.\n'))
      } else raw.destroy()
    }
    raw.on('data', onData)
  }

  function terminate(conn: Connection, hello: ClientHello, buffered: Buffer): void {
    const raw = conn.raw
    // The TLS socket reads the hello again from the bytes put back.
    raw.unshift(buffered)
    const tls = new TLSSocket(raw, { isServer: true, secureContext: certificates.context(), ALPNProtocols: ['h2', 'http/1.1'] })
    tls.on('error', () => raw.destroy())
    tls.on('secure', () => {
      const negotiated = { protocol: tls.getProtocol() ?? null, alpn: typeof tls.alpnProtocol === 'string' ? tls.alpnProtocol : null, cipher: tls.getCipher()?.name ?? null }
      const record = tlsRecord(hello, negotiated)
      if (negotiated.alpn === 'h2') readH2(conn, tls, record)
      else readH1(conn, tls, record)
    })
  }

  function readH2(conn: Connection, tls: TLSSocket, record: TlsRecord): void {
    const raw = conn.raw
    let buffered = Buffer.alloc(0)
    // Nothing is written before the first HEADERS is read: whether our preface comes from here
    // (the side connection) or from node:http2 (a served one) depends on its path. Clients send
    // their first request without waiting for the server's SETTINGS (RFC 9113 §3.4).
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      const r = readH2ClientStart(buffered)
      if (r.status === 'need-more') {
        if (buffered.length > MAX_REQUEST_BYTES) raw.destroy()
        return
      }
      tls.removeListener('data', onData)
      if (r.status !== 'complete') return void raw.destroy()
      const path = r.start.headers.fields.find((f) => f.name === ':path')?.value ?? null
      if (!evidenceNonce(path)) return serveH2(conn, tls, record, r.start, buffered)
      // Our preface (RFC 9113 §3.4): an empty SETTINGS and the ACK of the client's.
      tls.write(h2ServerPreface())
      // The bytes after the first header block stay in the count: one budget after the handshake.
      void answerH2(conn, tls, record, r.start, buffered.subarray(r.length), MAX_REQUEST_BYTES - buffered.length).catch(() => raw.destroy())
    }
    tls.on('data', onData)
  }

  /** Times the PINGs, files the records with the round trips, and answers the request. */
  async function answerH2(conn: Connection, tls: TLSSocket, record: TlsRecord, start: H2ClientStart, leftover: Uint8Array, byteBudget: number): Promise<void> {
    const pings = await measurePings(conn, tls, leftover, byteBudget)
    if (pings === null) return
    const http2 = { ...http2Record(start), rtt: rttRecord(conn.tcpRttMicros, pings, 'h2') }
    const { status, body } = await respond(http2.path, [
      ['tls', record],
      ['http2', http2],
    ])
    tls.write(h2Response(start.headers.streamId, status, responseHeaders, body))
    // Give the client a moment to read the answer and the GOAWAY before closing.
    setTimeout(() => tls.end(), 200)
  }

  function readH1(conn: Connection, tls: TLSSocket, record: TlsRecord): void {
    let buffered = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      const r = readHttp1Head(buffered)
      if (r.status === 'need-more') return
      tls.removeListener('data', onData)
      if (r.status !== 'complete') {
        tls.end(http1Response(400, 'Bad Request', [['content-type', 'text/plain']], 'Not an HTTP/1 request head.\n'))
        return
      }
      const http1 = { ...http1Record(r.head), rtt: rttRecord(conn.tcpRttMicros, [], 'http/1.1') }
      if (!evidenceNonce(http1.path)) return serveH1(conn, tls, record, http1, buffered)
      void respond(http1.path, [
        ['tls', record],
        ['http1', http1],
      ]).then(
        ({ status, body }) => tls.end(http1Response(status, status === 200 ? 'OK' : 'Not Found', responseHeaders, body)),
        () => conn.raw.destroy(),
      )
    }
    tls.on('data', onData)
  }

  /**
   * Sends PINGs one at a time and times their ACKs (RFC 9113 §6.7), reading the frames after
   * the client's first header block: a PING of the client's own is answered, anything else is
   * skipped. Stops after PING_COUNT answers, when the next one would not fit the budget, at the
   * budget's end (a client that never answers gives no samples), on a frame it cannot read or
   * when the connection closes. Resolves with the round trips in ms, or null when the client
   * sent more than `byteBudget` bytes (the connection is then dropped, as before).
   */
  function measurePings(conn: Connection, tls: TLSSocket, leftover: Uint8Array, byteBudget: number): Promise<number[] | null> {
    return new Promise((resolve) => {
      const started = performance.now()
      const budget = Math.min(PING_BUDGET_MS, (conn.deadline - started) / 2)
      const samples: number[] = []
      let buffered = leftover
      let received = 0
      let pending: { opaque: Uint8Array; sentAt: number } | null = null
      let settled = false
      const finish = (result: number[] | null) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        tls.removeListener('data', onData)
        tls.removeListener('close', onClose)
        resolve(result)
      }
      const send = () => {
        const opaque = crypto.getRandomValues(new Uint8Array(H2_PING_LENGTH))
        pending = { opaque, sentAt: performance.now() }
        tls.write(h2PingFrame(opaque))
      }
      const consume = () => {
        const r = splitH2Frames(buffered)
        if (!r.ok) return finish(samples)
        buffered = buffered.subarray(r.length)
        for (const frame of r.frames) {
          const ping = readH2Ping(frame)
          if (ping.kind === 'ping') tls.write(h2PingFrame(ping.opaque, true))
          else if (ping.kind === 'ack' && pending && sameBytes(ping.opaque, pending.opaque)) {
            const now = performance.now()
            const rtt = now - pending.sentAt
            samples.push(rtt)
            pending = null
            if (samples.length >= PING_COUNT || now - started + rtt > budget) return finish(samples)
            send()
          }
        }
      }
      const onData = (chunk: Buffer) => {
        received += chunk.length
        if (received > byteBudget) {
          conn.raw.destroy()
          return finish(null)
        }
        buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk
        consume()
      }
      const onClose = () => finish(samples)
      const timer = setTimeout(() => finish(samples), Math.max(0, budget))
      tls.on('data', onData)
      tls.once('close', onClose)
      if (budget <= 0) return finish(samples)
      send()
      consume()
    })
  }

  /**
   * Hands the connection over: no more deadline, an idle timeout instead; the socket is paused
   * (the bytes read so far are fed back once the server listens to it).
   */
  function handOff(conn: Connection, tls: TLSSocket): void {
    clearTimeout(conn.timer)
    tls.pause()
    conn.raw.setTimeout(idleMs, () => conn.raw.destroy())
  }

  /**
   * A node:http2 server of this connection's own serves it. The bytes read for the fingerprint
   * are given back with `emit('data')` once the server listens: Bun's node:http2 reads the socket
   * through its 'data' events, and `unshift` before the hand-over loses them (tested).
   */
  function serveH2(conn: Connection, tls: TLSSocket, record: TlsRecord, start: H2ClientStart, buffered: Buffer): void {
    handOff(conn, tls)
    const base = http2Record(start)
    let pings: Promise<number[]> = Promise.resolve([])
    const served: Served = { peer: conn.raw.remoteAddress ?? '', filed: new Set() }
    const server = createHttp2Server({})
    server.on('session', (session: Http2Session) => {
      pings = sessionPings(session)
      session.on('error', () => conn.raw.destroy())
    })
    server.on('request', (req: Http2ServerRequest, res: Http2ServerResponse) => {
      const streamId = (req.stream as { id?: number } | undefined)?.id
      const records = async (): Promise<ConnectionRecords> => {
        const rtt = rttRecord(conn.tcpRttMicros, await pings, 'h2')
        // The first request's header order is the one parsed off the wire; later ones come
        // from node:http2's rawHeaders, which keep the order they were sent in.
        const own: Http2Record = streamId === start.headers.streamId ? base : { ...base, header_order: rawNames(req.rawHeaders).filter((n) => !n.startsWith(':')), path: req.url, user_agent: firstHeader(req.headers['user-agent']) ?? null }
        return [
          ['tls', record],
          ['http2', { ...own, rtt }],
        ]
      }
      void handle(req, res, { h2: true, served, records })
    })
    server.emit('connection', tls)
    tls.emit('data', buffered)
    tls.resume()
  }

  function serveH1(conn: Connection, tls: TLSSocket, record: TlsRecord, first: Http1Record, buffered: Buffer): void {
    handOff(conn, tls)
    const served: Served = { peer: conn.raw.remoteAddress ?? '', filed: new Set() }
    let count = 0
    const server = createHttp1Server((req, res) => {
      const own: Http1Record =
        count++ === 0 ? first : { version: `HTTP/${req.httpVersion}`, method: req.method ?? '', path: req.url ?? '', headers: pairs(req.rawHeaders), bare_line_feeds: false, rtt: first.rtt }
      void handle(req, res, {
        h2: false,
        served,
        records: async () => [
          ['tls', record],
          ['http1', own],
        ],
      })
    })
    server.emit('connection', tls)
    tls.emit('data', buffered)
    tls.resume()
  }

  /** Up to PING_COUNT PINGs one after another, within PING_BUDGET_MS; the round trips in ms. */
  function sessionPings(session: Http2Session): Promise<number[]> {
    return new Promise((resolve) => {
      const samples: number[] = []
      const started = performance.now()
      let done = false
      const finish = () => {
        if (done) return
        done = true
        clearTimeout(timer)
        resolve(samples)
      }
      const timer = setTimeout(finish, PING_BUDGET_MS)
      const next = () => {
        const sentAt = performance.now()
        try {
          const sent = session.ping((err) => {
            if (err) return finish()
            const now = performance.now()
            const rtt = now - sentAt
            samples.push(rtt)
            if (samples.length >= PING_COUNT || now - started + rtt > PING_BUDGET_MS) return finish()
            next()
          })
          if (!sent) finish()
        } catch {
          finish()
        }
      }
      next()
    })
  }

  /** One request of a served connection: to a fetch Request, through the app, and back. */
  async function handle(req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse, c: { h2: boolean; served: Served; records: () => Promise<ConnectionRecords> }): Promise<void> {
    try {
      const path = req.url ?? ''
      const nonce = evidenceNonce(path)
      if (nonce) {
        // The page's fetch of its evidence URL, on a connection it reused.
        const records = await c.records()
        let status = 200
        let recorded = true
        if (!c.served.filed.has(nonce)) {
          const filed = await fileRecords(deps.db, nonce, records, deps.clock())
          if (filed.live) c.served.filed.add(nonce)
          status = filed.live ? 200 : 404
          recorded = filed.recorded
        }
        const tls = records[0]![1] as TlsRecord
        const second = records[1]!
        const body = JSON.stringify({ recorded: status === 200 && recorded, ja4: tls.ja4, ...(second[0] === 'http2' ? { akamai: (second[1] as Http2Record).akamai } : { http: (second[1] as Http1Record).version }) })
        return await writeResponse(res, new Response(body, { status, headers: responseHeaders }), req.method === 'HEAD', c.h2)
      }
      // An evidence-only listener (no app to serve, as in the listener's own tests): 404.
      if (!handler) return await writeResponse(res, new Response('{"recorded":false}', { status: 404, headers: responseHeaders }), req.method === 'HEAD', c.h2)
      const request = await toRequest(req, c.h2)
      if (request instanceof Response) return await writeResponse(res, request, false, c.h2)
      registerListenerRequest(request, { peer: c.served.peer, filed: c.served.filed, records: c.records })
      const response = await handler(request)
      await writeResponse(res, response, req.method === 'HEAD', c.h2)
    } catch (e) {
      log(`tls listener: request failed: ${e instanceof Error ? e.message : String(e)}`)
      const out = res as ServerResponse
      if (!out.headersSent) out.writeHead(500, { 'content-type': 'text/plain' })
      out.end()
    }
  }

  /** The node request as a fetch Request (https URL from :authority or Host), or the error Response. */
  async function toRequest(req: IncomingMessage | Http2ServerRequest, h2: boolean): Promise<Request | Response> {
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
    let body: Buffer | undefined
    if (method !== 'GET' && method !== 'HEAD') {
      const declared = Number(firstHeader(req.headers['content-length']) ?? 0)
      if (declared > maxBody) return text(413, 'Payload Too Large.')
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length
        if (size > maxBody) return text(413, 'Payload Too Large.')
        chunks.push(chunk)
      }
      body = Buffer.concat(chunks)
    }
    return new Request(`https://${authority}${target}`, { method, headers, ...(body ? { body: new Uint8Array(body) } : {}) })
  }

  async function writeResponse(to: ServerResponse | Http2ServerResponse, response: Response, head: boolean, h2: boolean): Promise<void> {
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
      if (res.destroyed) return void (await reader.cancel())
      if (!res.write(r.value)) await Promise.race([once(res, 'drain'), once(res, 'close')])
    }
    res.end()
  }

  const responseHeaders: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ['access-control-allow-origin', '*'],
    ['cache-control', 'no-store'],
  ]

  /**
   * Files the records under the path's nonce; 404 for another path or a nonce not live. A live
   * nonce whose evidence is at its caps (db/nonces.ts fileEvidence) gets 200 with
   * `recorded: false`: the connection is counted, not stored.
   */
  async function respond(path: string | null, records: ConnectionRecords): Promise<{ status: number; body: string }> {
    const nonce = evidenceNonce(path)
    if (!nonce) return { status: 404, body: '{"recorded":false}' }
    const { recorded, live } = await fileRecords(deps.db, nonce, records, deps.clock())
    const tls = records[0]![1] as TlsRecord
    const second = records[1]!
    const body = JSON.stringify({ recorded, ja4: tls.ja4, ...(second[0] === 'http2' ? { akamai: (second[1] as { akamai: string }).akamai } : { http: (second[1] as { version: string }).version }) })
    return { status: live ? 200 : 404, body }
  }

  server.on('error', (e) => log(`tls listener: ${e.message}`))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => {
      server.removeListener('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : opts.port
  return {
    port,
    certificate: certificates.source,
    serve(h) {
      handler = h
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy()
        server.close(() => resolve())
      }),
  }
}

/** The connection-wide state of a served connection. */
interface Served {
  peer: string
  filed: Set<string>
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

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i])
}

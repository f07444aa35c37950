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
// - anything else: the connection is handed to the app (https-serve.ts).
//
// Whose connection (issue 24): every record is filed with the client's address — the socket
// peer; from TRUSTED_PROXIES, the source their PROXY protocol header names (a layer-4 balancer)
// and a request's X-Forwarded-For — and a task is judged only on the records of its own
// submitter's address (src/evidence/binding.ts).
//
// Bounds: bytes buffered before the handshake (a hello is at most 64 KiB) and after it until the
// first request head is read, and time until then (a slow client is dropped); a served
// connection is closed after IDLE_MS without traffic, and a request body is at most 1 MiB (as
// on the HTTP listener). A connection that is not TLS gets a plain 400; one whose hello or first
// request does not parse is closed. The side connection's first HTTP/2 header list is held to
// the same 16 KiB as a served one's (h2-guard.ts): a larger one is left to node:http2 to refuse.
//
// Round trips: at accept the kernel's RTT of the TCP handshake is read (tcp-info.ts, Linux);
// on h2 up to three PINGs go out one after another (tls-pings.ts): on the side connection after
// the request's headers (and at most half of what the connection deadline leaves), on a served
// connection as soon as it is handed over. Both go into the HTTP record as `rtt`
// (tls-records.ts RttRecord): a TCP-terminating proxy shows as a PING round trip far longer
// than the handshake's.

import { createServer, type Server, type Socket } from 'node:net'
import { TLSSocket } from 'node:tls'
import { cidrContains, parseIp } from '../core/ip'
import { readH2ClientStart, type H2ClientStart } from '../evidence/http2'
import { MAX_HEAD, readHttp1Head } from '../evidence/http1'
import { MAX_PROXY_HEADER, readProxyHeader } from '../evidence/proxy-protocol'
import { clientHelloReader, MAX_CLIENT_HELLO, type ClientHello } from '../evidence/tls-client-hello'
import { connectionBudget, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits, type ConnectionRefusal } from './connection-budget'
import { evidenceNonce, h2Response, h2ServerPreface, http1Record, http1Response, http2Record, rttRecord, tlsRecord, type TlsRecord } from '../evidence/tls-records'
import { H2_SETTINGS, headerListSize, MAX_HEADER_LIST_SIZE } from './h2-guard'
import { fileRecords, type ConnectionRecords } from './https-requests'
import { DEFAULT_SERVE_LIMITS, serveH1, serveH2, type ServeLimits, type ServeOptions } from './https-serve'
import { savedSyn, saveSyns, tcpRttMicros } from './tcp-info'
import { parseSyn } from '../evidence/tcp-syn'
import { certificateStore } from './tls-certificate'
import { connectionClient, EVIDENCE_RESPONSE_HEADERS, evidenceAnswer, joinedHeader, type Connection, type FetchHandler, type TlsListenerDeps } from './tls-connection'
import { measurePings } from './tls-pings'

export type { FetchHandler, TlsListenerDeps } from './tls-connection'

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
  /**
   * ALPN protocols offered, in order (default h2, then http/1.1). The service always offers both;
   * tests and the fixture capture offer http/1.1 alone, to see a browser where h2 is not offered.
   */
  alpn?: string[]
  /** Largest request body handed to the app (default 1 MiB, as on the HTTP listener). */
  maxRequestBodySize?: number
  /**
   * The largest body a request may bring, by method and path (src/http/body-limits.ts): a
   * declared larger one is refused before a byte of it is read. Default: maxRequestBodySize.
   */
  bodyLimit?: (method: string, path: string) => number
  /** How a refused body's error starts on a path, in the route's own words (default 'Cannot read the request'). */
  bodyAction?: (path: string) => string
  /** Connections per client network and in all (connection-budget.ts). */
  connections?: ConnectionLimits
  /** Per served connection: requests in flight, stall timeout (https-serve.ts). */
  serve?: Partial<ServeLimits>
}

export interface TlsListener {
  port: number
  /** Where the certificate came from, for the start-up log line. */
  certificate: string
  /** Serves every request that is not `/evidence/<nonce>` with `handler`; until then they get 404. */
  serve(handler: FetchHandler): void
  stop(): Promise<void>
}

const MAX_REQUEST_BYTES = 64 * 1024
/** Least time between two log lines about refused connections, per limit. */
const REFUSAL_LOG_MS = 10_000

export async function startTlsListener(deps: TlsListenerDeps, opts: TlsListenerOptions): Promise<TlsListener> {
  const log = deps.log ?? (() => {})
  const certificates = certificateStore(opts, log)
  const timeoutMs = opts.timeoutMs ?? 10_000
  const trusted = deps.trustedProxies ?? []
  const open = new Set<Socket>()
  let handler: FetchHandler | null = null
  const maxBody = opts.maxRequestBodySize ?? 1024 * 1024
  const offered = opts.alpn ?? ['h2', 'http/1.1']
  const serving: ServeOptions = {
    deps,
    handler: () => handler,
    idleMs: opts.idleMs ?? 60_000,
    bodyLimit: (method, path) => Math.min(maxBody, opts.bodyLimit?.(method, path) ?? maxBody),
    ...(opts.bodyAction ? { bodyAction: opts.bodyAction } : {}),
    limits: { ...DEFAULT_SERVE_LIMITS, ...opts.serve },
  }
  const budget = connectionBudget(opts.connections ?? DEFAULT_CONNECTION_LIMITS)
  // Refusals are counted and logged at most once every REFUSAL_LOG_MS per limit: an attack
  // refused a thousand times a second must not become a thousand log lines.
  const refusals = new Map<ConnectionRefusal, { count: number; loggedAt: number }>()
  const refused = (why: ConnectionRefusal, network: string) => {
    deps.onLimited?.(why)
    const r = refusals.get(why) ?? { count: 0, loggedAt: -Infinity }
    r.count++
    refusals.set(why, r)
    const now = performance.now()
    if (now - r.loggedAt < REFUSAL_LOG_MS) return
    log(`tls listener: connection refused (${why.replaceAll('_', ' ')}, last from ${network}; ${r.count} refused since the last line)`)
    r.loggedAt = now
    r.count = 0
  }
  /** Admits the connection as `address`'s; false (and the socket destroyed) when over a limit. */
  const admit = (conn: Connection, address: string): boolean => {
    // At the total, a newcomer from a smaller holder takes the place of one of the largest
    // holder's connections (connection-budget.ts), which is closed here.
    const ticket = budget.admit(address, () => {
      deps.onLimited?.('connection_evicted')
      conn.raw.destroy()
    })
    if (typeof ticket === 'string') {
      refused(ticket, address)
      conn.raw.destroy()
      return false
    }
    conn.ticket = ticket
    return true
  }

  const server: Server = createServer((raw) => {
    open.add(raw)
    // First, before any byte is answered: the only RTT sample is still the handshake's.
    // The SYN too (issue 49): the kernel hands its copy over once, and frees it.
    const conn: Connection = { raw, peer: raw.remoteAddress ?? '', tcpRttMicros: tcpRttMicros(raw), syn: savedSyn(raw), deadline: performance.now() + timeoutMs, timer: setTimeout(() => raw.destroy(), timeoutMs) }
    // The PINGs are single small writes that must leave at once, not wait for an ACK (Nagle).
    raw.setNoDelay(true)
    raw.on('close', () => {
      clearTimeout(conn.timer)
      open.delete(raw)
      conn.ticket?.release()
    })
    raw.on('error', () => raw.destroy())
    // A trusted proxy's connection is admitted as the client its PROXY header names (readHello).
    const peer = parseIp(conn.peer)
    conn.viaProxy = !!peer && trusted.some((c) => cidrContains(c, peer))
    if (!conn.viaProxy && !admit(conn, conn.peer)) return
    try {
      readHello(conn, (hello, buffered) => terminate(conn, hello, buffered))
    } catch (e) {
      log(`tls listener: connection dropped: ${e instanceof Error ? e.message : e}`)
      raw.destroy()
    }
  })

  /**
   * Reads the ClientHello; from a trusted proxy, first the PROXY protocol header it may put
   * before it (the client's address, for a layer-4 balancer that does not keep it), which is
   * taken off: the TLS socket gets only the client's own bytes.
   */
  function readHello(conn: Connection, done: (hello: ClientHello, buffered: Buffer) => void): void {
    const raw = conn.raw
    const peer = parseIp(conn.peer)
    let proxyHeader = !!peer && trusted.some((c) => cidrContains(c, peer))
    // The PROXY header is small (MAX_PROXY_HEADER) and joined as it comes; the hello is read
    // incrementally (clientHelloReader).
    let head = Buffer.alloc(0)
    const hello = clientHelloReader()
    const onData = (chunk: Buffer) => {
      let bytes: Buffer = chunk
      if (proxyHeader) {
        head = Buffer.concat([head, chunk])
        const p = readProxyHeader(head)
        if (p.status === 'need-more') {
          if (head.length > MAX_PROXY_HEADER) raw.destroy()
          return
        }
        if (p.status === 'invalid') {
          log(`tls listener: ${conn.peer}: ${p.detail}`)
          return void raw.destroy()
        }
        proxyHeader = false
        if (p.status === 'complete' && p.source) conn.peer = p.source
        // Admitted as the client the header names (or, for a LOCAL header, as the proxy).
        if (!admit(conn, conn.peer)) return
        bytes = p.status === 'complete' ? head.subarray(p.length) : head
        head = Buffer.alloc(0)
        if (bytes.length === 0) return
      }
      const r = hello.push(bytes)
      if (r.status === 'need-more') {
        if (hello.length > MAX_CLIENT_HELLO + 1024) raw.destroy()
        return
      }
      raw.removeListener('data', onData)
      if (r.status === 'complete') {
        raw.pause()
        const all = hello.bytes()
        done(r.hello, Buffer.from(all.buffer, all.byteOffset, all.length))
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
    const tls = new TLSSocket(raw, { isServer: true, secureContext: certificates.context(), ALPNProtocols: offered })
    tls.on('error', () => raw.destroy())
    tls.on('secure', () => {
      const negotiated = { protocol: tls.getProtocol() ?? null, alpn: typeof tls.alpnProtocol === 'string' ? tls.alpnProtocol : null, cipher: tls.getCipher()?.name ?? null, offered }
      const syn = conn.syn ? parseSyn(conn.syn) : null
      const record = tlsRecord(hello, negotiated, syn && { ...syn, proxy: !!conn.viaProxy })
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
      conn.ticket?.established()
      const path = r.start.headers.fields.find((f) => f.name === ':path')?.value ?? null
      // Another path, or a header list over the limit, which node:http2 then refuses.
      if (!evidenceNonce(path) || headerListSize(r.start.headers.fields) > MAX_HEADER_LIST_SIZE) return serveH2(serving, conn, tls, record, r.start, buffered)
      // Our preface (RFC 9113 §3.4): the limits a served connection has too, and the ACK of the client's.
      tls.write(h2ServerPreface(H2_SETTINGS))
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
    const client = connectionClient(conn.peer, joinedHeader(start.headers.fields, 'x-forwarded-for'), trusted)
    const { status, body } = await respond(http2.path, client, [
      ['tls', record],
      ['http2', http2],
    ])
    tls.write(h2Response(start.headers.streamId, status, EVIDENCE_RESPONSE_HEADERS, body))
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
      conn.ticket?.established()
      if (r.status === 'invalid' && r.error === 'too-large') {
        tls.end(http1Response(431, 'Request Header Fields Too Large', [['content-type', 'text/plain']], `The request head is over ${MAX_HEAD} bytes.\n`))
        return
      }
      if (r.status !== 'complete') {
        tls.end(http1Response(400, 'Bad Request', [['content-type', 'text/plain']], 'Not an HTTP/1 request head.\n'))
        return
      }
      const http1 = { ...http1Record(r.head), rtt: rttRecord(conn.tcpRttMicros, [], 'http/1.1') }
      if (!evidenceNonce(http1.path)) return serveH1(serving, conn, tls, record, http1, buffered)
      const client = connectionClient(conn.peer, joinedHeader(r.head.headers, 'x-forwarded-for'), trusted)
      void respond(http1.path, client, [
        ['tls', record],
        ['http1', http1],
      ]).then(
        ({ status, body }) => tls.end(http1Response(status, status === 200 ? 'OK' : 'Not Found', EVIDENCE_RESPONSE_HEADERS, body)),
        () => conn.raw.destroy(),
      )
    }
    tls.on('data', onData)
  }

  /**
   * Files the records under the path's nonce as the connection of `client`; 404 for another
   * path or a nonce not live. A live nonce whose evidence is at its caps (db/nonces.ts
   * fileEvidence) gets 200 with `recorded: false`: the connection is counted, not stored.
   */
  async function respond(path: string | null, client: string, records: ConnectionRecords): Promise<{ status: number; body: string }> {
    const nonce = evidenceNonce(path)
    if (!nonce) return { status: 404, body: '{"recorded":false}' }
    const { recorded, live } = await fileRecords(deps.db, nonce, records, deps.clock(), client)
    return { status: live ? 200 : 404, body: evidenceAnswer(records, recorded) }
  }

  server.on('error', (e) => log(`tls listener: ${e.message}`))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => {
      server.removeListener('error', reject)
      // Keep every connection's SYN from now on (Linux); without it the records say syn: null.
      if (!saveSyns(server)) log('tls listener: the kernel keeps no SYNs here (TCP_SAVE_SYN is Linux 4.2+): records carry syn: null')
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

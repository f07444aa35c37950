// The TLS evidence listener (issue 7, TLS_PORT). Bun's TLS server does not expose the
// ClientHello, so a plain TCP server reads the first bytes itself (readClientHello copes with
// split reads), puts them back (`socket.unshift`) and only then wraps the socket in a node:tls
// server socket, which replays them into the handshake. After the handshake it reads the start
// of the request: the HTTP/2 preface and first HEADERS (ALPN h2) or an HTTP/1 head, and when
// the path is `/evidence/<nonce>` files the 'tls' record and the 'http2' or 'http1' record
// under the nonce, then answers one small JSON response the page can read (CORS *) and closes.
//
// Every connection is bounded: bytes buffered before the handshake (a hello is at most 64 KiB)
// and after it (one request head), and total time (a slow client is dropped). A connection
// that is not TLS gets a plain 400; one whose hello or request does not parse is closed.
//
// Round trips: at accept the kernel's RTT of the TCP handshake is read (tcp-info.ts, Linux);
// on h2, after the request's headers, up to three PINGs go out one after another (2 s in all,
// and at most half of what the connection deadline leaves) and their ACKs are timed. Both go
// into the HTTP record as `rtt` (tls-records.ts RttRecord): a TCP-terminating proxy shows as a
// PING round trip far longer than the handshake's.

import { createServer, type Server, type Socket } from 'node:net'
import { createSecureContext, TLSSocket } from 'node:tls'
import type { Db } from '../../db/client'
import { fileEvidence } from '../../db/nonces'
import { H2_PING_LENGTH, h2PingFrame, readH2ClientStart, readH2Ping, splitH2Frames, type H2ClientStart } from '../evidence/http2'
import { readHttp1Head } from '../evidence/http1'
import { MAX_CLIENT_HELLO, readClientHello, type ClientHello } from '../evidence/tls-client-hello'
import { evidenceNonce, h2Response, h2ServerPreface, http1Record, http1Response, http2Record, rttRecord, tlsRecord, type TlsRecord } from '../evidence/tls-records'
import { tcpRttMicros } from './tcp-info'
import { loadCertificate } from './tls-certificate'

export interface TlsListenerOptions {
  port: number
  host?: string
  certFile?: string
  keyFile?: string
  dataDir: string
  /** Whole-connection deadline, from accept to response (default 10 s). */
  timeoutMs?: number
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
}

export async function startTlsListener(deps: TlsListenerDeps, opts: TlsListenerOptions): Promise<{ port: number; certificate: string; stop(): Promise<void> }> {
  const certificate = loadCertificate(opts)
  const context = createSecureContext({ cert: certificate.cert, key: certificate.key })
  const timeoutMs = opts.timeoutMs ?? 10_000
  const open = new Set<Socket>()
  const log = deps.log ?? (() => {})

  const server: Server = createServer((raw) => {
    open.add(raw)
    // First, before any byte is answered: the only RTT sample is still the handshake's.
    const conn: Connection = { raw, tcpRttMicros: tcpRttMicros(raw), deadline: performance.now() + timeoutMs }
    // The PINGs are single small writes that must leave at once, not wait for an ACK (Nagle).
    raw.setNoDelay(true)
    const timer = setTimeout(() => raw.destroy(), timeoutMs)
    raw.on('close', () => {
      clearTimeout(timer)
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
    const tls = new TLSSocket(raw, { isServer: true, secureContext: context, ALPNProtocols: ['h2', 'http/1.1'] })
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
    // Our preface right away, as a server may (RFC 9113 §3.4): an empty SETTINGS and the ACK.
    tls.write(h2ServerPreface())
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      const r = readH2ClientStart(buffered)
      if (r.status === 'need-more') {
        if (buffered.length > MAX_REQUEST_BYTES) raw.destroy()
        return
      }
      tls.removeListener('data', onData)
      if (r.status !== 'complete') return void raw.destroy()
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
  async function respond(path: string | null, records: Array<['tls' | 'http2' | 'http1', unknown]>): Promise<{ status: number; body: string }> {
    const nonce = evidenceNonce(path)
    if (!nonce) return { status: 404, body: '{"recorded":false}' }
    const now = deps.clock()
    let recorded = true
    let live = false
    for (const [kind, data] of records) {
      const outcome = await fileEvidence(deps.db, { nonce, kind, data, now })
      recorded &&= outcome === 'filed'
      live ||= outcome !== 'no-nonce'
    }
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
    certificate: certificate.source,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy()
        server.close(() => resolve())
      }),
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i])
}

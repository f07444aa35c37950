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

import { createServer, type Server, type Socket } from 'node:net'
import { createSecureContext, TLSSocket } from 'node:tls'
import type { Db } from '../../db/client'
import { recordEvidence } from '../../db/nonces'
import { readH2ClientStart } from '../evidence/http2'
import { readHttp1Head } from '../evidence/http1'
import { MAX_CLIENT_HELLO, readClientHello, type ClientHello } from '../evidence/tls-client-hello'
import { evidenceNonce, h2Response, h2ServerPreface, http1Record, http1Response, http2Record, tlsRecord, type TlsRecord } from '../evidence/tls-records'
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

export async function startTlsListener(deps: TlsListenerDeps, opts: TlsListenerOptions): Promise<{ port: number; certificate: string; stop(): Promise<void> }> {
  const certificate = loadCertificate(opts)
  const context = createSecureContext({ cert: certificate.cert, key: certificate.key })
  const timeoutMs = opts.timeoutMs ?? 10_000
  const open = new Set<Socket>()
  const log = deps.log ?? (() => {})

  const server: Server = createServer((raw) => {
    open.add(raw)
    const timer = setTimeout(() => raw.destroy(), timeoutMs)
    raw.on('close', () => {
      clearTimeout(timer)
      open.delete(raw)
    })
    raw.on('error', () => raw.destroy())
    try {
      readHello(raw, (hello, buffered) => terminate(raw, hello, buffered))
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

  function terminate(raw: Socket, hello: ClientHello, buffered: Buffer): void {
    // The TLS socket reads the hello again from the bytes put back.
    raw.unshift(buffered)
    const tls = new TLSSocket(raw, { isServer: true, secureContext: context, ALPNProtocols: ['h2', 'http/1.1'] })
    tls.on('error', () => raw.destroy())
    tls.on('secure', () => {
      const negotiated = { protocol: tls.getProtocol() ?? null, alpn: typeof tls.alpnProtocol === 'string' ? tls.alpnProtocol : null, cipher: tls.getCipher()?.name ?? null }
      const record = tlsRecord(hello, negotiated)
      if (negotiated.alpn === 'h2') readH2(raw, tls, record)
      else readH1(raw, tls, record)
    })
  }

  function readH2(raw: Socket, tls: TLSSocket, record: TlsRecord): void {
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
      const http2 = http2Record(r.start)
      void respond(http2.path, [
        ['tls', record],
        ['http2', http2],
      ]).then(
        ({ status, body }) => {
          tls.write(h2Response(r.start.headers.streamId, status, responseHeaders, body))
          // Give the client a moment to read the answer and the GOAWAY before closing.
          setTimeout(() => tls.end(), 200)
        },
        () => raw.destroy(),
      )
    }
    tls.on('data', onData)
  }

  function readH1(raw: Socket, tls: TLSSocket, record: TlsRecord): void {
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
      const http1 = http1Record(r.head)
      void respond(http1.path, [
        ['tls', record],
        ['http1', http1],
      ]).then(
        ({ status, body }) => tls.end(http1Response(status, status === 200 ? 'OK' : 'Not Found', responseHeaders, body)),
        () => raw.destroy(),
      )
    }
    tls.on('data', onData)
  }

  const responseHeaders: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ['access-control-allow-origin', '*'],
    ['cache-control', 'no-store'],
  ]

  /** Files the records under the path's nonce; 404 for another path or a nonce not live. */
  async function respond(path: string | null, records: Array<['tls' | 'http2' | 'http1', unknown]>): Promise<{ status: number; body: string }> {
    const nonce = evidenceNonce(path)
    if (!nonce) return { status: 404, body: '{"recorded":false}' }
    const now = deps.clock()
    let recorded = true
    for (const [kind, data] of records) recorded = (await recordEvidence(deps.db, { nonce, kind, data, now })) && recorded
    const tls = records[0]![1] as TlsRecord
    const second = records[1]!
    const body = JSON.stringify({ recorded, ja4: tls.ja4, ...(second[0] === 'http2' ? { akamai: (second[1] as { akamai: string }).akamai } : { http: (second[1] as { version: string }).version }) })
    return { status: recorded ? 200 : 404, body }
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

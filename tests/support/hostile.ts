// Hostile clients for the memory-budget fault test (issue 33, tests/faults/hostile.fault.ts):
// each one what a single client did to take the service's memory before the per-connection
// and per-network budgets. They send only to the address they are given (loopback in tests),
// each ends by itself after `holdMs`, and each says what the service did to it.

import { connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect, type TLSSocket } from 'node:tls'
import { concatBytes } from '../../src/evidence/bytes'
import { splitH2Frames } from '../../src/evidence/http2'
import { H2_FRAME, H2_PREFACE, h2Frame, headerFrames, literalBlock } from './h2-client'

/** Waits `ms`, then marks the outcome ended: a close after that is the client's own, not counted. */
async function holdThenEnd(outcome: HostileOutcome, ms: number, sockets: Array<{ destroy(): void }>): Promise<void> {
  await new Promise((r) => setTimeout(r, ms))
  outcome.ended = true
  for (const s of sockets) s.destroy()
}

export interface HostileOutcome {
  /** Set once the client's hold is over: closes after it are its own. */
  ended?: boolean
  /** Connections the client opened. */
  opened: number
  /** Of those, how many the service had closed (or refused) by the end. */
  closedByServer: number
  /** Response bytes (DATA payloads or raw bytes) the client received. */
  received: number
}

const SETTINGS_INITIAL_WINDOW_SIZE = 0x4
const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff]
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]

function h2Connection(port: number, localAddress: string, settings: Uint8Array): Promise<TLSSocket | null> {
  return new Promise((resolve) => {
    const s = tlsConnect({ port, host: '127.0.0.1', ...{ localAddress }, rejectUnauthorized: false, ALPNProtocols: ['h2'] }, () => {
      s.write(concatBytes([H2_PREFACE, h2Frame(H2_FRAME.settings, 0, 0, settings)]))
      resolve(s)
    })
    s.on('error', () => resolve(null))
    s.setTimeout(10_000, () => s.destroy())
  })
}

/**
 * Reads the server's frames without ever granting flow-control window, answers its SETTINGS and
 * PINGs, and sends a PING of its own every second (what kept such connections open before).
 */
function starve(s: TLSSocket, outcome: HostileOutcome): void {
  let buffered: Uint8Array = new Uint8Array(0)
  s.setTimeout(0)
  s.on('data', (d: Buffer) => {
    buffered = concatBytes([buffered, d])
    const r = splitH2Frames(buffered, 1 << 24)
    if (!r.ok) return
    buffered = buffered.slice(r.length)
    for (const f of r.frames) {
      if (f.type === H2_FRAME.data) outcome.received += f.payload.length
      if (f.type === H2_FRAME.settings && !(f.flags & 0x1)) s.write(h2Frame(H2_FRAME.settings, 0x1, 0))
      if (f.type === H2_FRAME.ping && !(f.flags & 0x1)) s.write(h2Frame(H2_FRAME.ping, 0x1, 0, f.payload))
    }
  })
  const pinger = setInterval(() => s.writable && s.write(h2Frame(H2_FRAME.ping, 0, 0, new Uint8Array(8))), 1000)
  s.once('close', () => {
    clearInterval(pinger)
    if (!outcome.ended) outcome.closedByServer++
  })
}

const get = (path: string): Array<[string, string]> => [
  [':method', 'GET'],
  [':scheme', 'https'],
  [':authority', '127.0.0.1'],
  [':path', path],
]

/** 1. HTTP/2 with INITIAL_WINDOW_SIZE 0, then `streams` GETs of `path` on each of `connections` connections. */
export async function windowZeroReader(port: number, o: { localAddress: string; connections: number; streams: number; path: string; holdMs: number }): Promise<HostileOutcome> {
  const outcome: HostileOutcome = { opened: 0, closedByServer: 0, received: 0 }
  const sockets: TLSSocket[] = []
  for (let c = 0; c < o.connections; c++) {
    const s = await h2Connection(port, o.localAddress, Uint8Array.of(...u16(SETTINGS_INITIAL_WINDOW_SIZE), ...u32(0)))
    if (!s) {
      outcome.closedByServer++
      continue
    }
    outcome.opened++
    sockets.push(s)
    starve(s, outcome)
    const requests: Uint8Array[] = []
    for (let i = 0; i < o.streams; i++) requests.push(headerFrames(1 + 2 * i, literalBlock(get(o.path)), true))
    s.write(concatBytes(requests))
  }
  await holdThenEnd(outcome, o.holdMs, sockets)
  return outcome
}

/** 3. `streams` HTTP/2 POSTs declaring `declared` bytes, each sent all but its last byte (as far as the window lets). */
export async function unfinishedBodies(port: number, o: { localAddress: string; streams: number; declared: number; path: string; holdMs: number }): Promise<HostileOutcome & { refused: number }> {
  const outcome: HostileOutcome & { refused: number } = { opened: 0, closedByServer: 0, received: 0, refused: 0 }
  const s = await h2Connection(port, o.localAddress, new Uint8Array(0))
  if (!s) return { ...outcome, closedByServer: 1 }
  outcome.opened = 1
  let buffered: Uint8Array = new Uint8Array(0)
  s.setTimeout(0)
  s.on('data', (d: Buffer) => {
    buffered = concatBytes([buffered, d])
    const r = splitH2Frames(buffered, 1 << 24)
    if (!r.ok) return
    buffered = buffered.slice(r.length)
    for (const f of r.frames) {
      if (f.type === H2_FRAME.settings && !(f.flags & 0x1)) s.write(h2Frame(H2_FRAME.settings, 0x1, 0))
      // A response before the body ended: the service refused it (413) without waiting for it.
      if (f.type === H2_FRAME.headers) outcome.refused++
      if (f.type === H2_FRAME.data) outcome.received += f.payload.length
    }
  })
  s.once('close', () => !outcome.ended && outcome.closedByServer++)
  const chunk = new Uint8Array(16 * 1024).fill(0x61)
  for (let i = 0; i < o.streams; i++) {
    const id = 1 + 2 * i
    const fields: Array<[string, string]> = [
      [':method', 'POST'],
      [':scheme', 'https'],
      [':authority', '127.0.0.1'],
      [':path', o.path],
      ['content-type', 'application/json'],
      ['content-length', String(o.declared)],
    ]
    s.write(headerFrames(id, literalBlock(fields), false))
    // The start of the body, within the connection's default 64 KiB window shared by all
    // streams (a client past it breaks flow control and is rightly cut off for that).
    s.write(h2Frame(H2_FRAME.data, 0, id, chunk.subarray(0, Math.floor(60_000 / o.streams))))
  }
  await holdThenEnd(outcome, o.holdMs, [s])
  return outcome
}

/**
 * `connections` plain TCP connections from `localAddress`, each writing `bytes` once connected
 * and then nothing more, held for `holdMs`.
 */
async function unfinishedWrites(port: number, bytes: Uint8Array, o: { localAddress: string; connections: number; holdMs: number }): Promise<HostileOutcome> {
  const outcome: HostileOutcome = { opened: 0, closedByServer: 0, received: 0 }
  const sockets: Socket[] = []
  await Promise.all(
    Array.from(
      { length: o.connections },
      () =>
        new Promise<void>((resolve) => {
          const s = netConnect({ port, host: '127.0.0.1', localAddress: o.localAddress }, () => {
            outcome.opened++
            s.write(bytes)
            resolve()
          })
          sockets.push(s)
          s.on('data', (d: Buffer) => (outcome.received += d.length))
          s.on('error', () => {})
          s.once('close', () => {
            if (!outcome.ended) outcome.closedByServer++
            resolve()
          })
        }),
    ),
  )
  await holdThenEnd(outcome, o.holdMs, sockets)
  return outcome
}

/** 4a. `connections` TCP connections, each sending ~60 KB of a ClientHello that never ends. */
export function unfinishedHellos(port: number, o: { localAddress: string; connections: number; holdMs: number }): Promise<HostileOutcome> {
  // Handshake records of 16 KiB carrying a hello that claims 64,000 bytes: three full records
  // and most of a fourth, never the rest.
  const record = (payload: Uint8Array) => concatBytes([Uint8Array.of(22, 3, 1, ...u16(payload.length)), payload])
  const first = new Uint8Array(16 * 1024)
  first.set([1, 0, 0xfa, 0x00, 3, 3])
  const rest = new Uint8Array(16 * 1024)
  return unfinishedWrites(port, concatBytes([record(first), record(rest), record(rest), record(rest).subarray(0, 12_000)]), o)
}

/** 4b. `connections` idle HTTP/2 connections (one GET each, answered), kept open by PINGs. */
export async function idleH2(port: number, o: { localAddress: string; connections: number; holdMs: number }): Promise<HostileOutcome> {
  const outcome: HostileOutcome = { opened: 0, closedByServer: 0, received: 0 }
  const sockets: TLSSocket[] = []
  // Eight at a time, each making its request before the next eight open, as a patient client
  // would: its handshakes never pile up, so what it meets is the limit on open connections.
  const open = async (): Promise<void> => {
    const s = await h2Connection(port, o.localAddress, new Uint8Array(0))
    if (!s) return void outcome.closedByServer++
    outcome.opened++
    sockets.push(s)
    starve(s, outcome)
    s.write(headerFrames(1, literalBlock(get('/healthz')), true))
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(done, 2000)
      s.once('data', done)
      s.once('close', done)
    })
  }
  for (let i = 0; i < o.connections; i += 8) await Promise.all(Array.from({ length: Math.min(8, o.connections - i) }, open))
  await holdThenEnd(outcome, o.holdMs, sockets)
  return outcome
}

/** 2. `concurrency` GETs of `url` at once, `rounds` times; resolves with the statuses seen. */
export async function concurrentGets(url: string, o: { concurrency: number; rounds: number }): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {}
  for (let r = 0; r < o.rounds; r++) {
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        const res = await fetch(url, { signal: AbortSignal.timeout(60_000) }).catch(() => null)
        const status = res?.status ?? 0
        await res?.arrayBuffer().catch(() => {})
        statuses[status] = (statuses[status] ?? 0) + 1
      }),
    )
  }
  return statuses
}

/** 6. `connections` plain-HTTP connections, each sending ~8 KB of a request head that never ends. */
export function unfinishedHeads(port: number, o: { localAddress: string; connections: number; holdMs: number }): Promise<HostileOutcome> {
  return unfinishedWrites(port, new TextEncoder().encode(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'a'.repeat(8000)}`), o)
}

/**
 * 7. Issue 45: idle HTTP/2 connections from every address of `addresses` at once (several IPv4
 * /24s, `perAddress` each), kept open by PINGs; `during` runs while they are held; then they end.
 */
export async function rangeFill<T>(port: number, o: { addresses: string[]; perAddress: number }, during: () => Promise<T>): Promise<HostileOutcome & { during: T }> {
  const outcome: HostileOutcome = { opened: 0, closedByServer: 0, received: 0 }
  const sockets: TLSSocket[] = []
  const open = async (localAddress: string): Promise<void> => {
    const s = await h2Connection(port, localAddress, new Uint8Array(0))
    if (!s) return void outcome.closedByServer++
    outcome.opened++
    sockets.push(s)
    starve(s, outcome)
    s.write(headerFrames(1, literalBlock(get('/healthz')), true))
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(done, 2000)
      s.once('data', done)
      s.once('close', done)
    })
  }
  await Promise.all(
    o.addresses.map(async (address) => {
      for (let i = 0; i < o.perAddress; i += 8) await Promise.all(Array.from({ length: Math.min(8, o.perAddress - i) }, () => open(address)))
    }),
  )
  const result = await during()
  outcome.ended = true
  for (const s of sockets) s.destroy()
  return { ...outcome, during: result }
}

/** The status line's code of one HTTP/1.1 request over TLS from `localAddress` (0: no answer within `ms`). */
export function httpsStatus(port: number, localAddress: string, request: string, ms = 30_000): Promise<number> {
  return new Promise((resolve) => {
    let text = ''
    const s = tlsConnect({ port, host: '127.0.0.1', ...{ localAddress }, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => s.write(request))
    const done = () => {
      clearTimeout(timer)
      s.destroy()
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0))
    }
    const timer = setTimeout(done, ms)
    s.on('data', (d: Buffer) => {
      text += d.toString('latin1')
      if (/^HTTP\/1\.1 \d{3}/.test(text)) done()
    })
    s.on('error', done)
    s.on('close', done)
  })
}

/**
 * 8. Issue 45: `requests` pipelined GETs of `path` on one HTTP/1.1 connection over TLS, written at
 * once, the answers read slowly (a few bytes' worth of reading every 200 ms).
 */
export async function pipelined(port: number, o: { localAddress: string; requests: number; path: string; holdMs: number }): Promise<HostileOutcome & { answered: number }> {
  const outcome: HostileOutcome & { answered: number } = { opened: 0, closedByServer: 0, received: 0, answered: 0 }
  const s = await new Promise<TLSSocket | null>((resolve) => {
    const t = tlsConnect({ port, host: '127.0.0.1', ...{ localAddress: o.localAddress }, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => resolve(t))
    t.on('error', () => resolve(null))
  })
  if (!s) return { ...outcome, closedByServer: 1 }
  outcome.opened = 1
  s.on('error', () => {})
  s.on('data', (d: Buffer) => {
    outcome.received += d.length
    outcome.answered += d.toString('latin1').split('HTTP/1.1 ').length - 1
  })
  s.once('close', () => !outcome.ended && outcome.closedByServer++)
  const one = `GET ${o.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`
  s.write(one.repeat(o.requests))
  s.pause()
  const reader = setInterval(() => {
    s.resume()
    setTimeout(() => s.pause(), 2)
  }, 200)
  await holdThenEnd(outcome, o.holdMs, [s])
  clearInterval(reader)
  return outcome
}

/** What one trickled request got: its status (0: none) and whether the service closed the connection. */
export interface Trickled {
  status: number
  closedByServer: boolean
}

/**
 * 9. Issue 45: POST `path` declaring a `declared`-byte JSON body, then one byte every `everyMs`:
 * over HTTP/1.1 on the HTTPS port (`tls`), or over plain HTTP; held for `holdMs`.
 */
export function trickledBody(port: number, o: { tls: boolean; localAddress: string; path: string; declared: number; everyMs: number; holdMs: number }): Promise<Trickled> {
  return new Promise((resolve) => {
    let text = ''
    let ended = false
    const result: Trickled = { status: 0, closedByServer: false }
    const head = `POST ${o.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${o.declared}\r\n\r\n`
    const s: Socket = o.tls
      ? tlsConnect({ port, host: '127.0.0.1', ...{ localAddress: o.localAddress }, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => start())
      : netConnect({ port, host: '127.0.0.1', localAddress: o.localAddress }, () => start())
    let ticker: ReturnType<typeof setInterval> | undefined
    const start = () => {
      s.write(head)
      ticker = setInterval(() => s.writable && s.write('a'), o.everyMs)
    }
    s.on('data', (d: Buffer) => {
      text += d.toString('latin1')
      result.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
    })
    s.on('error', () => {})
    s.once('close', () => {
      clearInterval(ticker)
      if (!ended) result.closedByServer = true
    })
    setTimeout(() => {
      ended = true
      clearInterval(ticker)
      s.destroy()
      resolve(result)
    }, o.holdMs)
  })
}

/**
 * 10. Issue 45: `count` POSTs of `bytes`-byte bodies to the plain HTTP port at once, each declared
 * (Content-Length) or chunked, written as fast as the service takes them; resolves with each
 * answer's status and body (its first 300 bytes).
 */
export async function oversizedBodies(port: number, o: { count: number; bytes: number; chunked: boolean; path: string }): Promise<Array<{ status: number; body: string }>> {
  const block = new Uint8Array(1 << 20).fill(0x61)
  return Promise.all(
    Array.from(
      { length: o.count },
      () =>
        new Promise<{ status: number; body: string }>((resolve) => {
          let text = ''
          const s = netConnect({ port, host: '127.0.0.1' }, () => {
            s.write(`POST ${o.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${o.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${o.bytes}`}\r\n\r\n`)
            let sent = 0
            const pump = () => {
              while (sent < o.bytes && !s.destroyed) {
                const n = Math.min(block.length, o.bytes - sent)
                sent += n
                const ok = o.chunked ? s.write(concatBytes([new TextEncoder().encode(`${n.toString(16)}\r\n`), block.subarray(0, n), new TextEncoder().encode('\r\n')])) : s.write(block.subarray(0, n))
                if (!ok) return void s.once('drain', pump)
              }
            }
            pump()
          })
          const done = () => {
            clearTimeout(timer)
            s.destroy()
            const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
            resolve({ status, body: text.split('\r\n\r\n').slice(1).join('\r\n\r\n').slice(0, 300) })
          }
          const timer = setTimeout(done, 60_000)
          s.on('data', (d: Buffer) => {
            text += d.toString('latin1')
            // The head and a body whose length the head gave.
            const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? -1)
            const at = text.indexOf('\r\n\r\n')
            if (at >= 0 && length >= 0 && text.length >= at + 4 + length) done()
          })
          s.on('error', () => {})
          s.on('close', done)
        }),
    ),
  )
}

/** 9b. Issue 45: `streams` HTTP/2 POSTs of `path` declaring `declared` bytes, one byte of each every `everyMs`; how many were answered before their body ended, and whether the connection was closed. */
export async function trickledH2(port: number, o: { localAddress: string; streams: number; path: string; declared: number; everyMs: number; holdMs: number }): Promise<HostileOutcome & { answered: number }> {
  const outcome: HostileOutcome & { answered: number } = { opened: 0, closedByServer: 0, received: 0, answered: 0 }
  const s = await h2Connection(port, o.localAddress, new Uint8Array(0))
  if (!s) return { ...outcome, closedByServer: 1 }
  outcome.opened = 1
  let buffered: Uint8Array = new Uint8Array(0)
  s.setTimeout(0)
  s.on('data', (d: Buffer) => {
    buffered = concatBytes([buffered, d])
    const r = splitH2Frames(buffered, 1 << 24)
    if (!r.ok) return
    buffered = buffered.slice(r.length)
    for (const f of r.frames) {
      if (f.type === H2_FRAME.settings && !(f.flags & 0x1)) s.write(h2Frame(H2_FRAME.settings, 0x1, 0))
      if (f.type === H2_FRAME.ping && !(f.flags & 0x1)) s.write(h2Frame(H2_FRAME.ping, 0x1, 0, f.payload))
      // An answer before the body ended: the service refused the body (408).
      if (f.type === H2_FRAME.headers) outcome.answered++
    }
  })
  s.once('close', () => !outcome.ended && outcome.closedByServer++)
  const ids = Array.from({ length: o.streams }, (_, i) => 1 + 2 * i)
  for (const id of ids) {
    const fields: Array<[string, string]> = [
      [':method', 'POST'],
      [':scheme', 'https'],
      [':authority', '127.0.0.1'],
      [':path', o.path],
      ['content-type', 'application/json'],
      ['content-length', String(o.declared)],
    ]
    s.write(headerFrames(id, literalBlock(fields), false))
  }
  const ticker = setInterval(() => {
    if (s.writable) for (const id of ids) s.write(h2Frame(H2_FRAME.data, 0, id, Uint8Array.of(0x61)))
  }, o.everyMs)
  await holdThenEnd(outcome, o.holdMs, [s])
  clearInterval(ticker)
  return outcome
}

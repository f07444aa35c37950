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

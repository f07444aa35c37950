// Round trips of an HTTPS listener connection over HTTP/2 (src/listeners/tls.ts): up to
// PING_COUNT PINGs one after another (RFC 9113 §6.7) and the time to each ACK, within
// PING_BUDGET_MS. On the side connection they are written by hand after the request's headers
// (measurePings); on a served connection node:http2 sends them (sessionPings). The fastest is
// the connection's round trip to the browser's HTTP/2 stack, against the kernel's RTT of the
// TCP handshake (tcp-info.ts): a TCP-terminating proxy shows as a PING round trip far longer.

import type { Http2Session } from 'node:http2'
import type { TLSSocket } from 'node:tls'
import { H2_PING_LENGTH, h2PingFrame, readH2Ping, splitH2Frames } from '../evidence/http2'
import type { Connection } from './tls-connection'

/** PINGs sent one after another on h2; the fastest answer is the connection's round trip. */
export const PING_COUNT = 3
/** Longest the PINGs may hold up the answer, all of them together. */
export const PING_BUDGET_MS = 2000

/**
 * Sends PINGs one at a time and times their ACKs (RFC 9113 §6.7), reading the frames after
 * the client's first header block: a PING of the client's own is answered, anything else is
 * skipped. Stops after PING_COUNT answers, when the next one would not fit the budget, at the
 * budget's end (a client that never answers gives no samples), on a frame it cannot read or
 * when the connection closes. Resolves with the round trips in ms, or null when the client
 * sent more than `byteBudget` bytes (the connection is then dropped, as before).
 */
export function measurePings(conn: Connection, tls: TLSSocket, leftover: Uint8Array, byteBudget: number): Promise<number[] | null> {
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

/** Up to PING_COUNT PINGs one after another, within PING_BUDGET_MS; the round trips in ms. */
export function sessionPings(session: Http2Session): Promise<number[]> {
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

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i])
}

// The STUN/TURN evidence listener (issue 7): one UDP socket, thin around the pure decisions of
// src/evidence/turn-server.ts. A verified TURN Allocate (USERNAME = page nonce, password = the
// nonce's TURN secret) files the source address and port, as this socket saw them, under the
// page nonce as `turn` evidence. Binding requests carry no credentials; one that came from the
// same address and port as a verified Allocate (Chromium sends both from one socket) is filed
// as `stun` evidence too. Every datagram is handled inside its own try/catch: nothing a client
// sends can stop the socket or the process.

import { normalizeIp } from '../core/ip'
import type { Db } from '../../db/client'
import { fileEvidence, nonceForListener } from '../../db/nonces'
import { authenticated, firstStep, type Source, type TurnServerOptions } from '../evidence/turn-server'

export interface StunListenerOptions {
  port: number
  hostname: string
  /** REALM of the TURN challenge. */
  realm?: string
  /** HMAC key of the server NONCE; random per process when omitted. */
  nonceKey?: Uint8Array
  nonceTtlSeconds?: number
}

export interface StunEvidenceData {
  address: string
  port: number
  family: 'IPv4' | 'IPv6'
  transport: 'udp'
}

export interface TurnEvidenceData extends StunEvidenceData {
  /** REQUESTED-TRANSPORT of the Allocate (17 = UDP). */
  requestedTransport: number | null
  realm: string
  /** The client's SOFTWARE attribute, if it sent one. */
  software: string | null
}

/** Larger datagrams are not STUN a browser sends (Chromium's are under 200 bytes). */
const MAX_DATAGRAM = 1500
/** How long a source that allocated stays tied to its page nonce, for its Binding requests. */
const TIE_MS = 60_000
const MAX_TIES = 10_000

export async function startStunListener(
  deps: { db: Db; clock: () => Date; log?: (line: string) => void },
  opts: StunListenerOptions,
): Promise<{ port: number; stop(): Promise<void> }> {
  const { db, clock, log } = deps
  const key = opts.nonceKey ?? crypto.getRandomValues(new Uint8Array(32))
  const realm = opts.realm ?? 'antibot'
  const nonceTtlSeconds = opts.nonceTtlSeconds ?? 600
  // Per-socket memory only (a UDP source talks to one instance): which page nonce a source
  // authenticated for, and which (nonce, source, kind) were already filed, so retransmissions
  // do not add rows. Bounded by size and age.
  const ties = new Map<string, { nonce: string; at: number }>()
  const filed = new Map<string, number>()
  const remember = (map: Map<string, unknown>, k: string, v: unknown) => {
    if (map.size >= MAX_TIES) map.delete(map.keys().next().value!)
    map.set(k, v)
  }

  const file = async (nonce: string, kind: 'stun' | 'turn', source: Source, data: StunEvidenceData | TurnEvidenceData, now: Date) => {
    const id = `${kind} ${nonce} ${source.address} ${source.port}`
    const at = filed.get(id)
    if (at !== undefined && now.getTime() - at < TIE_MS) return
    remember(filed, id, now.getTime())
    const outcome = await fileEvidence(db, { nonce, kind, data, now })
    const what = { filed: 'filed under a page nonce', dropped: "counted, not filed: the page nonce's evidence is at its cap", 'no-nonce': 'not filed: the page nonce was used or expired meanwhile' }[outcome]
    log?.(`stun: ${kind} from ${source.address}:${source.port} ${what}`)
  }

  const handle = async (bytes: Uint8Array, source: Source, send: (reply: Uint8Array) => void) => {
    if (bytes.length > MAX_DATAGRAM) return
    const now = clock()
    const o: TurnServerOptions = { key, realm, now, nonceTtlSeconds, software: 'antibot' }
    const step = firstStep(bytes, source, o)
    const base: StunEvidenceData = { address: source.address, port: source.port, family: source.address.includes(':') ? 'IPv6' : 'IPv4', transport: 'udp' }
    const sourceKey = `${source.address} ${source.port}`
    if (step.do === 'ignore') return
    if (step.do === 'reply') {
      send(step.reply)
      if (step.binding) {
        const tie = ties.get(sourceKey)
        if (tie?.nonce && now.getTime() - tie.at < TIE_MS) await file(tie.nonce, 'stun', source, base, now)
        else remember(ties, sourceKey, { nonce: '', at: now.getTime() }) // a Binding seen first: filed once the Allocate ties it
      }
      return
    }
    const page = await nonceForListener(db, step.username, now)
    const answer = authenticated(bytes, step.request, page?.turnSecret ?? null, o)
    send(answer.reply)
    if (!answer.verified || answer.method !== 'allocate') return
    const earlier = ties.get(sourceKey)
    remember(ties, sourceKey, { nonce: step.username, at: now.getTime() })
    const turn: TurnEvidenceData = { ...base, requestedTransport: answer.requestedTransport, realm, software: answer.software }
    await file(step.username, 'turn', source, turn, now)
    if (earlier && earlier.nonce === '' && now.getTime() - earlier.at < TIE_MS) await file(step.username, 'stun', source, base, now)
  }

  const socket = await Bun.udpSocket({
    hostname: opts.hostname,
    port: opts.port,
    socket: {
      data(s, buf, port, address) {
        const source = { address: normalizeIp(address), port }
        const send = (reply: Uint8Array) => {
          try {
            s.send(reply, port, address)
          } catch (e) {
            log?.(`stun: cannot answer ${address}:${port}: ${e instanceof Error ? e.message : String(e)}`)
          }
        }
        // Copy: Bun may reuse the receive buffer once this callback returns.
        handle(new Uint8Array(buf), source, send).catch((e: unknown) => {
          log?.(`stun: datagram from ${address}:${port} dropped: ${e instanceof Error ? e.message : String(e)}`)
        })
      },
      error(_s, e) {
        log?.(`stun: socket error: ${e.message}`)
      },
    },
  })
  return {
    port: socket.port,
    async stop() {
      socket.close()
    },
  }
}

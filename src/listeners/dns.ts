// The service's authoritative DNS server for DNS_ZONE (issue 7, dns-leak): UDP and TCP on one
// port. Each query of `<nonce>-<n>.<zone>` is filed under its page nonce (kind 'dns') before
// the answer leaves, so by the time the browser's lookup completes (and the page submits) the
// resolver is in the database; filing waits at most RECORD_WAIT_MS, then the answer goes
// anyway. What to answer and what to file is src/evidence/dns-authority.ts; this file only
// moves packets. Every packet and connection is handled inside a catch: nothing a client sends
// can stop the listener.

import type { Socket, TCPSocketListener } from 'bun'
import { recordEvidence } from '../../db/nonces'
import type { Db } from '../../db/client'
import { parseIp } from '../core/ip'
import { answerQuery, type QuerySource, type ZoneConfig } from '../evidence/dns-authority'

export interface DnsListenerDeps {
  db: Db
  clock: () => Date
  log?: (line: string) => void
}

export interface DnsListenerOptions extends ZoneConfig {
  /** 0 = a free port (the same one for UDP and TCP). */
  port: number
  hostname: string
  /** Also answer over TCP (resolvers retry there after a truncated UDP answer). Default true. */
  tcp?: boolean
}

export interface DnsListener {
  port: number
  stop(): Promise<void>
}

const RECORD_WAIT_MS = 500
/** A TCP connection lives this long; it buffers at most one unfinished message (≤ 65537 bytes). */
const TCP_MAX_PER_CHUNK = 64
const TCP_IDLE_MS = 10_000

type Conn = { buf: Uint8Array; timer?: ReturnType<typeof setTimeout> }

const stripMapped = (a: string) => (a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a)

export async function startDnsListener(deps: DnsListenerDeps, opts: DnsListenerOptions): Promise<DnsListener> {
  for (const [name, value, size] of [['DNS_ANSWER_IPV4', opts.answerIpv4, 4], ['DNS_ANSWER_IPV6', opts.answerIpv6, 16]] as const) {
    if (value !== null && parseIp(value)?.length !== size) throw new Error(`Cannot start the DNS listener: ${name} '${value}' is not an IPv${size === 4 ? 4 : 6} address`)
  }
  const cfg: ZoneConfig = { zone: opts.zone.replace(/\.$/, '').toLowerCase(), answerIpv4: opts.answerIpv4, answerIpv6: opts.answerIpv6 }
  const log = deps.log ?? (() => {})

  /** The response to one message, after filing its evidence (or giving up waiting for that). */
  async function handle(bytes: Uint8Array, from: Omit<QuerySource, 'receivedAt'>): Promise<Uint8Array | null> {
    const now = deps.clock()
    const outcome = answerQuery(bytes, cfg, { ...from, receivedAt: now })
    if (outcome.evidence) {
      const { nonce, data } = outcome.evidence
      const filed = recordEvidence(deps.db, { nonce, kind: 'dns', data, now }).catch((e: unknown) => {
        log(`dns: cannot record a query for ${data.name} from ${from.address}: ${e instanceof Error ? e.message : String(e)}`)
        return false
      })
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([filed, new Promise((r) => (timer = setTimeout(r, RECORD_WAIT_MS)))])
      clearTimeout(timer)
    }
    return outcome.response
  }

  const openUdp = (port: number) => Bun.udpSocket({
    hostname: opts.hostname,
    port,
    binaryType: 'uint8array',
    socket: {
      data(socket, data, port, address) {
        const from = { address: stripMapped(address), port, transport: 'udp' as const }
        handle(data, from)
          .then((response) => {
            // send throws ECONNREFUSED when an earlier answer to this address bounced.
            if (response && !socket.closed) socket.send(response, port, address)
          })
          .catch((e: unknown) => {
            if (!(e instanceof Error && /ECONNREFUSED/.test(e.message))) throw e
          })
          .catch((e: unknown) => log(`dns: dropped a UDP packet from ${address}: ${e instanceof Error ? e.message : String(e)}`))
      },
      // Bun 1.4 passes the Error as the first argument (an ICMP port unreachable for an answer
      // to a client that went away surfaces here as ECONNREFUSED); accept either shape.
      error(...args: unknown[]) {
        const e = args.find((a) => a instanceof Error)
        if (e instanceof Error && /ECONNREFUSED/.test(e.message)) return
        log(`dns: UDP socket error: ${e instanceof Error ? e.message : 'unknown'}`)
      },
    },
  })

  const openTcp = (port: number) =>
      Bun.listen<Conn>({
        hostname: opts.hostname,
        port,
        socket: {
          open(s) {
            s.data = { buf: new Uint8Array(0) }
            s.data.timer = setTimeout(() => s.end(), TCP_IDLE_MS)
          },
          data(s, chunk) {
            try {
              onTcpData(s, chunk)
            } catch (e) {
              log(`dns: closed a TCP connection from ${s.remoteAddress}: ${e instanceof Error ? e.message : String(e)}`)
              s.end()
            }
          },
          close(s) {
            clearTimeout(s.data?.timer)
          },
          error(s, e) {
            log(`dns: TCP error from ${s.remoteAddress}: ${e.message}`)
          },
        },
      })

  // UDP first; TCP on the same port. With port 0 the free UDP port may be taken for TCP: retry.
  let udp = await openUdp(opts.port)
  let tcp: TCPSocketListener<Conn> | null = null
  for (let attempt = 1; opts.tcp !== false && !tcp; attempt++) {
    try {
      tcp = openTcp(udp.port)
    } catch (e) {
      udp.close()
      if (opts.port !== 0 || attempt >= 5) throw new Error(`Cannot start the DNS listener: TCP port ${udp.port} on ${opts.hostname} is not free (${e instanceof Error ? e.message : String(e)})`)
      udp = await openUdp(0)
    }
  }

  // Messages over TCP are framed by a two-byte length (RFC 1035 §4.2.2); several may follow on
  // one connection (RFC 7766 §6.2.1.1: answers may go out of order, matched by ID).
  function onTcpData(s: Socket<Conn>, chunk: Uint8Array) {
    const joined = new Uint8Array(s.data.buf.length + chunk.length)
    joined.set(s.data.buf)
    joined.set(chunk, s.data.buf.length)
    let at = 0
    const messages: Uint8Array[] = []
    while (joined.length - at >= 2) {
      const length = (joined[at]! << 8) | joined[at + 1]!
      if (joined.length - at - 2 < length) break
      if (messages.length >= TCP_MAX_PER_CHUNK) throw new Error(`more than ${TCP_MAX_PER_CHUNK} queries at once`)
      messages.push(joined.slice(at + 2, at + 2 + length))
      at += 2 + length
    }
    s.data.buf = joined.slice(at)
    const from = { address: stripMapped(s.remoteAddress), port: s.remotePort ?? 0, transport: 'tcp' as const }
    for (const m of messages) {
      handle(m, from)
        .then((response) => {
          if (!response) return
          const framed = new Uint8Array(response.length + 2)
          framed[0] = response.length >> 8
          framed[1] = response.length & 0xff
          framed.set(response, 2)
          s.write(framed)
        })
        .catch((e: unknown) => log(`dns: dropped a TCP message from ${from.address}: ${e instanceof Error ? e.message : String(e)}`))
    }
  }

  return {
    port: udp.port,
    async stop() {
      udp.close()
      tcp?.stop(true)
    },
  }
}

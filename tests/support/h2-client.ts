// A hand-written HTTP/2 client for tests that must put exact frames on the wire (RFC 9113):
// frames built byte by byte, header blocks of HPACK literals without indexing (RFC 7541 §6.2.2,
// no Huffman), and the server's frames collected as they come. Over TLS with ALPN h2, from any
// local address (Linux lets a loopback client bind any 127.x address).

import { connect as tlsConnect, type TLSSocket } from 'node:tls'
import { concatBytes } from '../../src/evidence/bytes'
import { H2_FRAME, H2_PREFACE, splitH2Frames, type H2Frame } from '../../src/evidence/http2'

export { H2_FRAME, H2_PREFACE }

export function h2Frame(type: number, flags: number, stream: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  return concatBytes([Uint8Array.of(payload.length >> 16, (payload.length >> 8) & 0xff, payload.length & 0xff, type, flags, (stream >>> 24) & 0x7f, (stream >> 16) & 0xff, (stream >> 8) & 0xff, stream & 0xff), payload])
}

/** An HPACK integer with a 7-bit prefix and a zero pattern bit (RFC 7541 §5.1): a string length. */
function length7(n: number): number[] {
  if (n < 127) return [n]
  const out = [127]
  let rest = n - 127
  while (rest >= 128) {
    out.push((rest % 128) + 128)
    rest = Math.floor(rest / 128)
  }
  out.push(rest)
  return out
}

const enc = new TextEncoder()

/** A request header block of literals without indexing, new names, no Huffman. */
export function literalBlock(fields: ReadonlyArray<readonly [string, string]>): Uint8Array {
  return concatBytes(fields.flatMap(([n, v]) => [Uint8Array.of(0, ...length7(enc.encode(n).length)), enc.encode(n), Uint8Array.of(...length7(enc.encode(v).length)), enc.encode(v)]))
}

/** One header block as HEADERS and as many CONTINUATIONs as 16 KiB frames need. `endStream`: no body follows. */
export function headerFrames(stream: number, block: Uint8Array, endStream: boolean): Uint8Array {
  const parts: Uint8Array[] = []
  for (let o = 0; o < block.length || o === 0; o += 16384) parts.push(block.subarray(o, o + 16384))
  return concatBytes(
    parts.map((p, i) => h2Frame(i === 0 ? H2_FRAME.headers : H2_FRAME.continuation, (i === 0 && endStream ? 0x1 : 0) | (i === parts.length - 1 ? 0x4 : 0), stream, p)),
  )
}

export const rstStream = (stream: number, code = 0x8) => h2Frame(H2_FRAME.rstStream, 0, stream, Uint8Array.of(code >>> 24, (code >> 16) & 0xff, (code >> 8) & 0xff, code & 0xff))

export interface H2Exchange {
  frames: H2Frame[]
  closed: boolean
}

/**
 * Opens a TLS connection with ALPN h2 from `localAddress`, writes the preface, an empty
 * SETTINGS and `bytes` in one write, and collects the server's frames until it closes or `ms`
 * pass. `ackSettings`: answer the server's SETTINGS, as a real client does.
 */
export function rawH2(port: number, bytes: Uint8Array, opts: { localAddress?: string; ms?: number; host?: string } = {}): Promise<H2Exchange> {
  return new Promise((resolve) => {
    let buffered: Uint8Array = new Uint8Array(0)
    const frames: H2Frame[] = []
    let done = false
    const s: TLSSocket = tlsConnect({ port, host: opts.host ?? '127.0.0.1', ...(opts.localAddress ? { localAddress: opts.localAddress } : {}), rejectUnauthorized: false, ALPNProtocols: ['h2'] }, () => {
      s.write(concatBytes([H2_PREFACE, h2Frame(H2_FRAME.settings, 0, 0), bytes]))
    })
    const finish = (closed: boolean) => {
      if (done) return
      done = true
      clearTimeout(timer)
      s.destroy()
      resolve({ frames, closed })
    }
    const timer = setTimeout(() => finish(false), opts.ms ?? 4000)
    s.on('data', (d: Buffer) => {
      buffered = concatBytes([buffered, d])
      const r = splitH2Frames(buffered, 1 << 24)
      if (!r.ok) return finish(false)
      buffered = buffered.slice(r.length)
      for (const f of r.frames) {
        frames.push({ ...f, payload: f.payload.slice() })
        if (f.type === H2_FRAME.settings && !(f.flags & 0x1)) s.write(h2Frame(H2_FRAME.settings, 0x1, 0))
      }
    })
    s.on('error', () => {})
    s.on('close', () => finish(true))
  })
}

const u32 = (p: Uint8Array, at: number) => new DataView(p.buffer, p.byteOffset + at, 4).getUint32(0)

/** The entries of the server's first SETTINGS frame (not an ACK), as id → value. */
export function serverSettings(frames: readonly H2Frame[]): Map<number, number> {
  const f = frames.find((x) => x.type === H2_FRAME.settings && !(x.flags & 0x1))
  const out = new Map<number, number>()
  if (f) for (let i = 0; i + 6 <= f.payload.length; i += 6) out.set((f.payload[i]! << 8) | f.payload[i + 1]!, u32(f.payload, i + 2))
  return out
}

/** The error code of the first GOAWAY, or null. */
export const goawayCode = (frames: readonly H2Frame[]): number | null => {
  const f = frames.find((x) => x.type === H2_FRAME.goaway)
  return f ? u32(f.payload, 4) : null
}

/** Each RST_STREAM the server sent: its stream and error code. */
export const serverResets = (frames: readonly H2Frame[]) => frames.filter((f) => f.type === H2_FRAME.rstStream).map((f) => ({ stream: f.streamId, code: u32(f.payload, 0) }))

/** Streams the server answered with a HEADERS frame, and the :status of each when it is a static-table 200. */
export const answeredStreams = (frames: readonly H2Frame[]) => [...new Set(frames.filter((f) => f.type === H2_FRAME.headers).map((f) => f.streamId))]

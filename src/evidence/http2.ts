// The start of an HTTP/2 client connection (RFC 9113), read from the decrypted bytes: the
// connection preface (§3.4), then the frames up to the end of the first header block. What a
// client puts there is fixed by its HTTP/2 stack, not by the page, and differs between
// browsers and libraries: the SETTINGS it sends and their order (§6.5), the connection
// WINDOW_UPDATE (§6.9), PRIORITY frames (§6.3, deprecated by RFC 9113 but still sent by some
// clients), and the order of the pseudo-headers in the first HEADERS frame (§8.3.1).
//
// Akamai's fingerprint (Shuster, "Passive Fingerprinting of HTTP/2 Clients", Black Hat EU
// 2017) joins them as SETTINGS|WINDOW_UPDATE|PRIORITY|PSEUDO_HEADER_ORDER, e.g. Chrome's
// `1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p`, with "00" for no WINDOW_UPDATE and "0"
// for no PRIORITY frame, each PRIORITY as stream:exclusive:dependency:weight.

import { ByteReader, attempt, fail, type Parsed } from './bytes'
import { md5Hex } from './digests'
import { createHpackDecoder, decodeHeaderBlock, type HeaderField, type HpackDecoder } from './hpack'

export const H2_PREFACE = new TextEncoder().encode('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')

export const H2_FRAME = {
  data: 0,
  headers: 1,
  priority: 2,
  rstStream: 3,
  settings: 4,
  pushPromise: 5,
  ping: 6,
  goaway: 7,
  windowUpdate: 8,
  continuation: 9,
} as const

const FLAG_ACK = 0x1
const FLAG_END_STREAM = 0x1
const FLAG_END_HEADERS = 0x4
const FLAG_PADDED = 0x8
const FLAG_PRIORITY = 0x20

export interface H2Priority {
  exclusive: boolean
  dependsOn: number
  /** 1–256: the wire value plus one (§5.3.2 of RFC 7540). */
  weight: number
}

export interface H2ClientStart {
  /** Every frame up to the end of the first header block: type, flags, stream and length. */
  frames: Array<{ type: number; flags: number; streamId: number; length: number }>
  /** Entries of the SETTINGS frames (not ACKs) in the order sent. */
  settings: Array<{ id: number; value: number }>
  /** Increment of the first connection-level WINDOW_UPDATE, if one came before the headers. */
  windowUpdate: number | null
  /** PRIORITY frames before the headers. */
  priorities: Array<H2Priority & { streamId: number }>
  headers: {
    streamId: number
    endStream: boolean
    /** The priority carried in the HEADERS frame itself (Chrome sends exclusive, weight 256). */
    priority: H2Priority | null
    fields: HeaderField[]
    /** Pseudo-header names in the order sent, e.g. [':method', ':authority', ':scheme', ':path']. */
    pseudoHeaderOrder: string[]
  }
}

export type H2Error = 'not-h2' | 'frame-too-large' | 'protocol' | 'too-many-frames' | 'header-block' | 'truncated'

export type H2Read =
  | { status: 'need-more' }
  | { status: 'not-h2'; reason: string }
  | { status: 'invalid'; error: H2Error; detail: string }
  | { status: 'complete'; start: H2ClientStart; length: number; decoder: HpackDecoder }

export interface H2ReadOptions {
  /** SETTINGS_MAX_FRAME_SIZE this side advertised (default 2^14, §6.5.2). */
  maxFrameSize?: number
  /** SETTINGS_HEADER_TABLE_SIZE this side advertised (default 4096). */
  headerTableSize?: number
  /** Frames accepted before the first header block is complete. */
  maxFrames?: number
  /** Largest header block (HEADERS plus CONTINUATIONs) accepted. */
  maxHeaderBlock?: number
}

/**
 * Looks at the decrypted bytes read so far on an h2 connection. On `complete`, `length` is the
 * number of bytes up to the end of the first header block, and `decoder` holds the HPACK state
 * for decoding later blocks on the same connection.
 */
export function readH2ClientStart(buffered: Uint8Array, options: H2ReadOptions = {}): H2Read {
  const n = Math.min(buffered.length, H2_PREFACE.length)
  for (let i = 0; i < n; i++) {
    if (buffered[i] !== H2_PREFACE[i]) return { status: 'not-h2', reason: `byte ${i} differs from the HTTP/2 connection preface` }
  }
  if (buffered.length < H2_PREFACE.length) return { status: 'need-more' }
  const r = attempt<H2Read, H2Error>(() => readFrames(buffered, options))
  return r.ok ? r.value : { status: 'invalid', error: r.error, detail: r.detail }
}

/** Parses bytes that should hold the preface and a whole first header block (a fixture). */
export function parseH2ClientStart(bytes: Uint8Array, options: H2ReadOptions = {}): Parsed<H2ClientStart, H2Error> {
  const r = readH2ClientStart(bytes, options)
  switch (r.status) {
    case 'complete':
      return { ok: true, value: r.start }
    case 'need-more':
      return { ok: false, error: 'truncated', detail: 'Cannot read the HTTP/2 start: the bytes end before the first header block does' }
    case 'not-h2':
      return { ok: false, error: 'not-h2', detail: `Cannot read the HTTP/2 start: ${r.reason}` }
    case 'invalid':
      return { ok: false, error: r.error, detail: r.detail }
  }
}

function priorityFields(r: ByteReader): H2Priority {
  const word = r.u32()
  return { exclusive: word >= 0x80000000, dependsOn: word % 0x80000000, weight: r.u8() + 1 }
}

function readFrames(buf: Uint8Array, options: H2ReadOptions): H2Read {
  const maxFrameSize = options.maxFrameSize ?? 1 << 14
  const maxFrames = options.maxFrames ?? 64
  const maxHeaderBlock = options.maxHeaderBlock ?? 1 << 16
  const start: Omit<H2ClientStart, 'headers'> = { frames: [], settings: [], windowUpdate: null, priorities: [] }
  let pos = H2_PREFACE.length
  // The header block being collected: its stream, HEADERS flags and priority, and fragments.
  let block: { streamId: number; flags: number; priority: H2Priority | null; fragments: Uint8Array[]; size: number } | null = null
  for (;;) {
    if (buf.length - pos < 9) return { status: 'need-more' }
    const length = (buf[pos]! << 16) | (buf[pos + 1]! << 8) | buf[pos + 2]!
    const type = buf[pos + 3]!
    const flags = buf[pos + 4]!
    const streamId = ((buf[pos + 5]! & 0x7f) * 0x1000000) + ((buf[pos + 6]! << 16) | (buf[pos + 7]! << 8) | buf[pos + 8]!)
    if (length > maxFrameSize) fail('frame-too-large', `frame of ${length} bytes over SETTINGS_MAX_FRAME_SIZE ${maxFrameSize}`)
    if (buf.length - pos - 9 < length) return { status: 'need-more' }
    if (start.frames.length >= maxFrames) fail('too-many-frames', `no complete header block in the first ${maxFrames} frames`)
    start.frames.push({ type, flags, streamId, length })
    const r = new ByteReader(buf, pos + 9, pos + 9 + length, `frame type ${type}`)
    pos += 9 + length
    // §6.10: a header block is contiguous; only CONTINUATION frames of its stream may follow.
    if (block && (type !== H2_FRAME.continuation || streamId !== block.streamId)) fail('protocol', `frame type ${type} inside a header block (§6.10)`)
    switch (type) {
      case H2_FRAME.settings: {
        if (streamId !== 0) fail('protocol', 'SETTINGS on a stream (§6.5)')
        if (flags & FLAG_ACK) {
          if (length !== 0) fail('protocol', 'SETTINGS ACK with a payload (§6.5)')
          break
        }
        if (length % 6 !== 0) fail('protocol', `SETTINGS length ${length} is not a multiple of 6 (§6.5)`)
        while (r.remaining > 0) start.settings.push({ id: r.u16(), value: r.u32() })
        break
      }
      case H2_FRAME.windowUpdate: {
        if (length !== 4) fail('protocol', `WINDOW_UPDATE length ${length} is not 4 (§6.9)`)
        const increment = r.u32() % 0x80000000
        if (increment === 0) fail('protocol', 'WINDOW_UPDATE increment 0 (§6.9)')
        if (streamId === 0 && start.windowUpdate === null) start.windowUpdate = increment
        break
      }
      case H2_FRAME.priority: {
        if (length !== 5 || streamId === 0) fail('protocol', 'PRIORITY must be 5 bytes on a stream (§6.3)')
        start.priorities.push({ streamId, ...priorityFields(r) })
        break
      }
      case H2_FRAME.headers: {
        if (streamId === 0) fail('protocol', 'HEADERS on stream 0 (§6.2)')
        const padding = flags & FLAG_PADDED ? r.u8() : 0
        const priority = flags & FLAG_PRIORITY ? priorityFields(r) : null
        if (padding > r.remaining) fail('protocol', `padding ${padding} longer than the HEADERS payload (§6.2)`)
        const fragment = r.take(r.remaining - padding)
        block = { streamId, flags, priority, fragments: [fragment], size: fragment.length }
        break
      }
      case H2_FRAME.continuation: {
        if (!block) fail('protocol', 'CONTINUATION without HEADERS (§6.10)')
        const fragment = r.take(r.remaining)
        block.fragments.push(fragment)
        block.size += fragment.length
        if (block.size > maxHeaderBlock) fail('header-block', `header block over ${maxHeaderBlock} bytes`)
        break
      }
      case H2_FRAME.data:
      case H2_FRAME.pushPromise:
        fail('protocol', `frame type ${type} before the first request's headers`)
      // PING, RST_STREAM, GOAWAY and unknown types (§5.5) are recorded in `frames` only.
    }
    const last = start.frames.at(-1)!
    if (block && (last.type === H2_FRAME.headers || last.type === H2_FRAME.continuation) && last.flags & FLAG_END_HEADERS) {
      const joined = new Uint8Array(block.size)
      let o = 0
      for (const f of block.fragments) {
        joined.set(f, o)
        o += f.length
      }
      const decoder = createHpackDecoder(options.headerTableSize)
      const fields = decodeHeaderBlock(decoder, joined)
      if (!fields.ok) fail('header-block', `header block: ${fields.detail}`)
      const headers = {
        streamId: block.streamId,
        endStream: (block.flags & FLAG_END_STREAM) !== 0,
        priority: block.priority,
        fields: fields.value,
        pseudoHeaderOrder: fields.value.filter((f) => f.name.startsWith(':')).map((f) => f.name),
      }
      return { status: 'complete', start: { ...start, headers }, length: pos, decoder }
    }
  }
}

const PSEUDO_LETTER: Record<string, string> = { ':method': 'm', ':authority': 'a', ':scheme': 's', ':path': 'p' }

export interface AkamaiFingerprint {
  text: string
  /** MD5 of the text, as fingerprint databases index it. */
  hash: string
}

export function akamaiFingerprint(start: Pick<H2ClientStart, 'settings' | 'windowUpdate' | 'priorities' | 'headers'>): AkamaiFingerprint {
  const settings = start.settings.map((s) => `${s.id}:${s.value}`).join(';')
  const windowUpdate = start.windowUpdate === null ? '00' : String(start.windowUpdate)
  const priorities = start.priorities.map((p) => `${p.streamId}:${p.exclusive ? 1 : 0}:${p.dependsOn}:${p.weight}`).join(',') || '0'
  const pseudo = start.headers.pseudoHeaderOrder.map((n) => PSEUDO_LETTER[n] ?? n.slice(1, 2)).join(',')
  const text = `${settings}|${windowUpdate}|${priorities}|${pseudo}`
  return { text, hash: md5Hex(text) }
}

// PING (RFC 9113 §6.7): 8 opaque bytes on stream 0; the peer MUST answer with a PING carrying
// the ACK flag and the same bytes, "with a higher priority than any other frame". The TLS
// listener sends a few after reading the client's start and times the ACKs: a round trip that
// reaches the client's HTTP/2 stack itself, through whatever relays the TCP connection.

export const H2_PING_LENGTH = 8

/** One frame as it arrived: header fields and its payload (a view into the buffer). */
export interface H2Frame {
  type: number
  flags: number
  streamId: number
  payload: Uint8Array
}

export type H2FramesRead = { ok: true; frames: H2Frame[]; length: number } | { ok: false; detail: string }

/**
 * The whole frames at the front of `buf` (bytes after the client's start) and how many bytes
 * they take; a partial frame at the end is left for the next read. A frame header announcing
 * more than `maxFrameSize` is an error at once (§4.2), so a buffer never grows past one frame.
 */
export function splitH2Frames(buf: Uint8Array, maxFrameSize = 1 << 14): H2FramesRead {
  const frames: H2Frame[] = []
  let pos = 0
  while (buf.length - pos >= 9) {
    const length = (buf[pos]! << 16) | (buf[pos + 1]! << 8) | buf[pos + 2]!
    if (length > maxFrameSize) return { ok: false, detail: `frame of ${length} bytes over SETTINGS_MAX_FRAME_SIZE ${maxFrameSize}` }
    if (buf.length - pos - 9 < length) break
    const streamId = (buf[pos + 5]! & 0x7f) * 0x1000000 + ((buf[pos + 6]! << 16) | (buf[pos + 7]! << 8) | buf[pos + 8]!)
    frames.push({ type: buf[pos + 3]!, flags: buf[pos + 4]!, streamId, payload: buf.subarray(pos + 9, pos + 9 + length) })
    pos += 9 + length
  }
  return { ok: true, frames, length: pos }
}

/** A PING frame with these 8 opaque bytes; `ack` answers the peer's PING. */
export function h2PingFrame(opaque: Uint8Array, ack = false): Uint8Array {
  if (opaque.length !== H2_PING_LENGTH) throw new RangeError(`Cannot build a PING frame: the opaque data must be ${H2_PING_LENGTH} bytes, not ${opaque.length}`)
  const out = new Uint8Array(9 + H2_PING_LENGTH)
  out.set([0, 0, H2_PING_LENGTH, H2_FRAME.ping, ack ? FLAG_ACK : 0, 0, 0, 0, 0])
  out.set(opaque, 9)
  return out
}

export type H2PingRead =
  | { kind: 'not-ping' }
  | { kind: 'ping' | 'ack'; opaque: Uint8Array }
  /** A PING on a stream (§6.7: PROTOCOL_ERROR) or not 8 bytes long (FRAME_SIZE_ERROR). */
  | { kind: 'invalid'; detail: string }

/** What a frame is to a side waiting for a PING ACK: the peer's PING to answer, an ACK, or neither. */
export function readH2Ping(frame: H2Frame): H2PingRead {
  if (frame.type !== H2_FRAME.ping) return { kind: 'not-ping' }
  if (frame.streamId !== 0) return { kind: 'invalid', detail: `PING on stream ${frame.streamId} (§6.7)` }
  if (frame.payload.length !== H2_PING_LENGTH) return { kind: 'invalid', detail: `PING of ${frame.payload.length} bytes, not 8 (§6.7)` }
  return { kind: frame.flags & FLAG_ACK ? 'ack' : 'ping', opaque: frame.payload }
}

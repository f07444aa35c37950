// The HTTP/2 front's limits (issue 24): what one connection may make the service do. Without
// them a single connection drove unlimited work: 2,000 streams open at once, or 300
// HEADERS+RST_STREAM pairs each run through the app (a page, a nonce, its evidence) while the
// connection stayed open — "rapid reset" (CVE-2023-44487), where a stream limit alone is no
// help, since each reset frees its slot at once.
//
// - SETTINGS advertise MAX_CONCURRENT_STREAMS and MAX_HEADER_LIST_SIZE (RFC 9113 §6.5.2). Bun's
//   node:http2 enforces both (tested on the wire: a stream over the limit gets RST_STREAM
//   REFUSED_STREAM, a header list over it RST_STREAM ENHANCE_YOUR_CALM), and after
//   MAX_REJECTED_STREAMS refusals it ends the connection with GOAWAY ENHANCE_YOUR_CALM.
// - Resets are counted here, because Bun's node:http2 does not: a watcher reads the frame
//   headers of the decrypted client bytes and spends a token per RST_STREAM from a bucket of
//   RESET_BURST refilled at RESET_REFILL_PER_SECOND; an empty bucket trips it, and the server
//   answers GOAWAY ENHANCE_YOUR_CALM and closes. The burst is the stream limit, so a browser that
//   cancels every request it may have open at once (a page left mid-load) stays within it.
// - A request is handed to the app only after the bytes that came with it have been read: a
//   stream the client reset in the same read, or on a connection that tripped, never reaches it.

/** Streams a client may have open at once on a served connection. */
export const MAX_CONCURRENT_STREAMS = 100
/** Header list size (RFC 9113 §6.5.2: names and values plus 32 bytes a field): 16 KiB, as on HTTP/1.1. */
export const MAX_HEADER_LIST_SIZE = 16 * 1024
/** Header fields per request (node's default, made explicit). */
export const MAX_HEADER_LIST_PAIRS = 128
/** Streams refused (over the stream limit) before the connection gets GOAWAY ENHANCE_YOUR_CALM. */
export const MAX_REJECTED_STREAMS = 100
/** Client RST_STREAMs a connection may send at once, and the rate they are allowed at after. */
export const RESET_BURST = MAX_CONCURRENT_STREAMS
export const RESET_REFILL_PER_SECOND = 10
/** RFC 9113 §7. */
export const ENHANCE_YOUR_CALM = 0xb

/** The limits as SETTINGS entries (RFC 9113 §6.5.2: 0x3 MAX_CONCURRENT_STREAMS, 0x6 MAX_HEADER_LIST_SIZE). */
export const H2_SETTINGS: ReadonlyArray<readonly [number, number]> = [
  [0x3, MAX_CONCURRENT_STREAMS],
  [0x6, MAX_HEADER_LIST_SIZE],
]

/** Options for node:http2's createServer that carry the limits above. */
export function h2ServerOptions() {
  return {
    settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS, maxHeaderListSize: MAX_HEADER_LIST_SIZE },
    maxHeaderListPairs: MAX_HEADER_LIST_PAIRS,
    maxSessionRejectedStreams: MAX_REJECTED_STREAMS,
  }
}

const utf8 = new TextEncoder()

/** A header list's size as SETTINGS_MAX_HEADER_LIST_SIZE counts it (RFC 9113 §6.5.2). */
export function headerListSize(fields: ReadonlyArray<{ name: string; value: string }>): number {
  return fields.reduce((n, f) => n + utf8.encode(f.name).length + utf8.encode(f.value).length + 32, 0)
}

const FRAME_HEADER = 9
const PREFACE_LENGTH = 24
const RST_STREAM = 0x3

export interface ResetWatcher {
  /** Reads the next decrypted bytes from the client; true once the reset budget is spent. */
  push(chunk: Uint8Array): boolean
  readonly resets: number
  readonly tripped: boolean
}

/**
 * Counts the client's RST_STREAM frames on an h2 connection from its decrypted bytes (the
 * connection preface first), frame headers only: payloads are skipped, not kept. `now` in ms.
 */
export function resetWatcher(now: () => number = () => performance.now(), burst = RESET_BURST, perSecond = RESET_REFILL_PER_SECOND): ResetWatcher {
  let skip = PREFACE_LENGTH
  const header = new Uint8Array(FRAME_HEADER)
  let have = 0
  let resets = 0
  let tokens = burst
  let last = now()
  let tripped = false
  const reset = () => {
    const t = now()
    tokens = Math.min(burst, tokens + ((t - last) / 1000) * perSecond)
    last = t
    resets++
    tokens -= 1
    if (tokens < 0) tripped = true
  }
  return {
    push(chunk) {
      let i = 0
      while (i < chunk.length && !tripped) {
        if (skip > 0) {
          const n = Math.min(skip, chunk.length - i)
          skip -= n
          i += n
          continue
        }
        header[have++] = chunk[i++]!
        if (have < FRAME_HEADER) continue
        have = 0
        skip = (header[0]! << 16) | (header[1]! << 8) | header[2]!
        if (header[3] === RST_STREAM) reset()
      }
      return tripped
    },
    get resets() {
      return resets
    },
    get tripped() {
      return tripped
    },
  }
}

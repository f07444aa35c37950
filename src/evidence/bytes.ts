// Shared pieces of the wire-format parsers: a bounds-checked big-endian reader, hex and
// Latin-1 text, and the result shape every parser returns. Network byte order is big-endian
// in every protocol here (TLS, HTTP/2, STUN, DNS).
//
// The reader throws `WireError` when a read would pass the end of its window; each parser's
// exported functions catch it and return `{ ok: false, … }`, so no exception leaves a parser
// for malformed input. Anything else that throws is a bug and is left to surface.

/** What a parser returns: the value, or an error code with a sentence for the logs. */
export type Parsed<T, E extends string> = { ok: true; value: T } | { ok: false; error: E; detail: string }

export class WireError<E extends string = string> extends Error {
  constructor(
    readonly code: E,
    detail: string,
  ) {
    super(detail)
  }
}

/** Turns a WireError thrown by `body` into an error value; other exceptions are rethrown. */
export function attempt<T, E extends string>(body: () => T): Parsed<T, E> {
  try {
    return { ok: true, value: body() }
  } catch (e) {
    if (e instanceof WireError) return { ok: false, error: e.code as E, detail: e.message }
    throw e
  }
}

export function fail<E extends string>(code: E, detail: string): never {
  throw new WireError(code, detail)
}

/** A cursor over `bytes[start, end)`; reads past `end` throw WireError('truncated'). */
export class ByteReader {
  pos: number

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
    private readonly what = 'message',
  ) {
    this.pos = start
  }

  get remaining(): number {
    return this.end - this.pos
  }

  private need(n: number): void {
    if (n > this.end - this.pos) fail('truncated', `${this.what} ends ${n - (this.end - this.pos)} byte(s) early at offset ${this.pos}`)
  }

  u8(): number {
    this.need(1)
    return this.bytes[this.pos++]!
  }

  u16(): number {
    this.need(2)
    const v = (this.bytes[this.pos]! << 8) | this.bytes[this.pos + 1]!
    this.pos += 2
    return v
  }

  u24(): number {
    this.need(3)
    const v = (this.bytes[this.pos]! << 16) | (this.bytes[this.pos + 1]! << 8) | this.bytes[this.pos + 2]!
    this.pos += 3
    return v
  }

  u32(): number {
    this.need(4)
    const b = this.bytes
    const v = (b[this.pos]! * 0x1000000) + ((b[this.pos + 1]! << 16) | (b[this.pos + 2]! << 8) | b[this.pos + 3]!)
    this.pos += 4
    return v
  }

  take(n: number): Uint8Array {
    this.need(n)
    const out = this.bytes.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }

  skip(n: number): void {
    this.need(n)
    this.pos += n
  }

  /** A reader over the next `n` bytes (advancing this one past them), e.g. a length-prefixed vector. */
  sub(n: number, what = this.what): ByteReader {
    this.need(n)
    const r = new ByteReader(this.bytes, this.pos, this.pos + n, what)
    this.pos += n
    return r
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

export function toHex(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += HEX[b]
  return s
}

/** Bytes from hex; whitespace is ignored. Null when the text is not whole bytes of hex. */
export function fromHex(text: string): Uint8Array | null {
  const s = text.replace(/\s+/g, '')
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) return null
  const out = new Uint8Array(s.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(i * 2, i * 2 + 2), 16)
  return out
}

/** One character per byte (ISO-8859-1), so that no byte is lost or merged as UTF-8 decoding would. */
export function latin1(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return s
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

/** `0x0a0a`-style four-digit lower-case hex, as JA4 writes cipher and extension codes. */
export function hex4(n: number): string {
  return n.toString(16).padStart(4, '0')
}

/** A big-endian byte writer for the message builders. */
export class ByteWriter {
  private buf = new Uint8Array(256)
  length = 0

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.length + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.length))
    this.buf = next
  }

  u8(v: number): this {
    this.room(1)
    this.buf[this.length++] = v & 0xff
    return this
  }

  u16(v: number): this {
    this.room(2)
    this.buf[this.length++] = (v >>> 8) & 0xff
    this.buf[this.length++] = v & 0xff
    return this
  }

  u32(v: number): this {
    this.room(4)
    this.buf[this.length++] = (v >>> 24) & 0xff
    this.buf[this.length++] = (v >>> 16) & 0xff
    this.buf[this.length++] = (v >>> 8) & 0xff
    this.buf[this.length++] = v & 0xff
    return this
  }

  bytes(b: Uint8Array): this {
    this.room(b.length)
    this.buf.set(b, this.length)
    this.length += b.length
    return this
  }

  /** Overwrites two bytes already written (a length field filled in afterwards). */
  setU16(at: number, v: number): void {
    this.buf[at] = (v >>> 8) & 0xff
    this.buf[at + 1] = v & 0xff
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length)
  }
}

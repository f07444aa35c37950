// The TLS ClientHello, read from the first bytes of a TCP connection before a TLS terminator
// sees them (Bun's TLS server does not expose the hello). Grammar: RFC 8446 §4.1.2 (TLS 1.3)
// and RFC 5246 §7.4.1.2 (TLS 1.2, where the extensions block may be absent), carried in
// handshake records (RFC 8446 §5.1). A hello may be split across TCP reads, and also across
// several TLS records (§5.1 allows fragmenting handshake messages; post-quantum key shares
// make hellos large), so `readClientHello` says whether the bytes so far are a whole hello,
// need more bytes, or are not TLS at all (plain HTTP on the TLS port).
//
// Everything is kept as sent, in order and with GREASE values (RFC 8701): the fingerprints in
// ja.ts decide what to drop. Extension bodies the fingerprints or the pages use are decoded; a
// body that breaks its own grammar is listed in `malformedExtensions` instead of failing the
// whole hello, so that a fingerprint can still be computed from the rest.

import { ByteReader, attempt, fail, latin1, toHex, type Parsed } from './bytes'

/** IANA TLS ExtensionType values this module decodes or the fingerprints refer to. */
export const TLS_EXTENSION = {
  serverName: 0,
  statusRequest: 5,
  supportedGroups: 10,
  ecPointFormats: 11,
  signatureAlgorithms: 13,
  alpn: 16,
  signedCertificateTimestamp: 18,
  padding: 21,
  extendedMasterSecret: 23,
  compressCertificate: 27,
  recordSizeLimit: 28,
  delegatedCredentials: 34,
  sessionTicket: 35,
  supportedVersions: 43,
  pskKeyExchangeModes: 45,
  signatureAlgorithmsCert: 50,
  keyShare: 51,
  quicTransportParameters: 57,
  /** ALPS (draft-vvv-tls-alps) under the codepoint Chrome first shipped, 17513. */
  applicationSettingsOld: 0x4469,
  /** ALPS under its newer codepoint, 17613, which current Chrome sends. */
  applicationSettings: 0x44cd,
  encryptedClientHello: 0xfe0d,
  renegotiationInfo: 0xff01,
} as const

/**
 * GREASE (RFC 8701 §2): clients send random reserved values of the form 0x?A?A with both bytes
 * equal (0x0a0a, 0x1a1a … 0xfafa) as cipher suites, extensions, groups, versions and signature
 * algorithms, so that servers keep tolerating unknown values. They change per connection.
 */
export function isGrease(value: number): boolean {
  return (value & 0x0f0f) === 0x0a0a && value >> 8 === (value & 0xff)
}

export interface TlsExtension {
  type: number
  /** The extension body as hex (may be long: a post-quantum key share is over a kilobyte). */
  data: string
  length: number
}

export interface ClientHello {
  /** legacy_record_version of the first record (0x0301 from most clients, RFC 8446 §5.1). */
  recordVersion: number
  /** legacy_version in the hello body (0x0303 for TLS 1.2 and 1.3); JA3's SSLVersion. */
  version: number
  random: string
  sessionId: string
  /** Cipher suites in the order sent, GREASE included. */
  cipherSuites: number[]
  compressionMethods: number[]
  /** Extensions in the order sent, GREASE included. */
  extensions: TlsExtension[]
  /** host_name of server_name (RFC 6066 §3); null without the extension. */
  serverName: string | null
  /** ALPN protocol names (RFC 7301 §3.1), one character per byte. */
  alpn: string[] | null
  supportedGroups: number[] | null
  ecPointFormats: number[] | null
  signatureAlgorithms: number[] | null
  signatureAlgorithmsCert: number[] | null
  supportedVersions: number[] | null
  /** key_share entries (RFC 8446 §4.2.8): the group and the length of its key. */
  keyShares: Array<{ group: number; length: number }> | null
  pskKeyExchangeModes: number[] | null
  /** compress_certificate algorithms (RFC 8879 §3). */
  compressCertificate: number[] | null
  /** ALPS (application_settings): which codepoint carried it, and its protocols. */
  applicationSettings: { type: number; protocols: string[] } | null
  recordSizeLimit: number | null
  delegatedCredentials: number[] | null
  /** Extension types whose body did not follow its own grammar. */
  malformedExtensions: number[]
  /** Extension types sent more than once (RFC 8446 §4.2 forbids it). */
  duplicateExtensions: number[]
}

export type ClientHelloError = 'not-tls' | 'bad-record' | 'not-client-hello' | 'too-large' | 'truncated' | 'malformed'

export type HelloRead =
  | { status: 'need-more'; atLeast: number }
  | { status: 'not-tls'; reason: string }
  | { status: 'invalid'; error: ClientHelloError; detail: string }
  | { status: 'complete'; hello: ClientHello; length: number }

const CONTENT_HANDSHAKE = 22
const HANDSHAKE_CLIENT_HELLO = 1
/** RFC 8446 §5.1: a record's plaintext fragment is at most 2^14 bytes. */
const MAX_RECORD = 1 << 14
/**
 * Largest hello we wait for. Real hellos are 0.5–2 KB (up to ~3 KB with two post-quantum
 * shares); the cap bounds what a listener buffers for one connection.
 */
export const MAX_CLIENT_HELLO = 1 << 16

/**
 * Looks at the bytes read so far from a connection. `complete.length` is how many of them
 * belong to the records that carried the hello (the listener passes all bytes on either way).
 */
export function readClientHello(buffered: Uint8Array): HelloRead {
  const framed = reassemble(buffered)
  if (framed.status !== 'message') return framed
  const parsed = attempt<ClientHello, ClientHelloError>(() => parseBody(framed.message, framed.recordVersion))
  if (!parsed.ok) return { status: 'invalid', error: parsed.error, detail: parsed.detail }
  return { status: 'complete', hello: parsed.value, length: framed.length }
}

export interface ClientHelloReader {
  /** Takes the next bytes read from the connection and says where the hello stands. */
  push(chunk: Uint8Array): HelloRead
  /** Every byte pushed so far, in one buffer (to be replayed into the TLS handshake). */
  bytes(): Uint8Array
  readonly length: number
  /** How many times the bytes were joined and framed (for tests: a few per record, not one per read). */
  readonly looks: number
}

/**
 * readClientHello over a connection's reads, without joining and re-reading the whole buffer on
 * every one (issue 33: a 60 KB hello trickled in 5,000 reads cost over a second of CPU). Reads
 * are kept as they come; they are joined and looked at again only once as many bytes are there
 * as the last look said it needs at least (the next record header, or the rest of a record), so
 * a hello of n bytes in any number of reads is framed in O(n) plus a few looks per record.
 */
export function clientHelloReader(): ClientHelloReader {
  let chunks: Uint8Array[] = []
  let length = 0
  let atLeast = 1
  let looks = 0
  const joined = (): Uint8Array => {
    if (chunks.length !== 1) {
      const all = new Uint8Array(length)
      let o = 0
      for (const c of chunks) {
        all.set(c, o)
        o += c.length
      }
      chunks = [all]
    }
    return chunks[0] ?? new Uint8Array(0)
  }
  return {
    push(chunk) {
      chunks.push(chunk)
      length += chunk.length
      if (length < atLeast) return { status: 'need-more', atLeast }
      looks++
      const r = readClientHello(joined())
      if (r.status === 'need-more') atLeast = r.atLeast
      return r
    },
    bytes: joined,
    get length() {
      return length
    },
    get looks() {
      return looks
    },
  }
}

/** Parses bytes that should hold a whole hello (a fixture, or what a proxy forwarded). */
export function parseClientHello(bytes: Uint8Array): Parsed<ClientHello, ClientHelloError> {
  const r = readClientHello(bytes)
  switch (r.status) {
    case 'complete':
      return { ok: true, value: r.hello }
    case 'need-more':
      return { ok: false, error: 'truncated', detail: `Cannot parse the ClientHello: it needs at least ${r.atLeast} bytes, got ${bytes.length}` }
    case 'not-tls':
      return { ok: false, error: 'not-tls', detail: `Cannot parse the ClientHello: ${r.reason}` }
    case 'invalid':
      return { ok: false, error: r.error, detail: r.detail }
  }
}

type Framed =
  | { status: 'need-more'; atLeast: number }
  | { status: 'not-tls'; reason: string }
  | { status: 'invalid'; error: ClientHelloError; detail: string }
  | { status: 'message'; message: Uint8Array; recordVersion: number; length: number }

function invalid(error: ClientHelloError, detail: string): Framed {
  return { status: 'invalid', error, detail }
}

/** Collects the handshake bytes of consecutive handshake records until the hello is whole. */
function reassemble(buf: Uint8Array): Framed {
  // The first bytes tell TLS from anything else: a handshake record (22) of major version 3.
  // SSL 2.0-compatible hellos (high bit set in byte 0) are not supported by current clients.
  if (buf.length >= 1 && buf[0] !== CONTENT_HANDSHAKE) return { status: 'not-tls', reason: `first byte 0x${buf[0]!.toString(16).padStart(2, '0')} is not a TLS handshake record` }
  if (buf.length >= 2 && buf[1] !== 3) return { status: 'not-tls', reason: `record version major ${buf[1]} is not 3` }
  const fragments: Array<[number, number]> = []
  let collected = 0
  let messageLength = -1
  let pos = 0
  const recordVersion = buf.length >= 3 ? (buf[1]! << 8) | buf[2]! : 0
  // Byte `i` of the handshake stream, across the fragments collected so far.
  const handshakeByte = (i: number): number => {
    for (const [start, end] of fragments) {
      if (i < end - start) return buf[start + i]!
      i -= end - start
    }
    return -1
  }
  for (;;) {
    if (buf.length - pos < 5) return { status: 'need-more', atLeast: pos + 5 }
    if (buf[pos] !== CONTENT_HANDSHAKE) return invalid('bad-record', `record at offset ${pos} has content type ${buf[pos]} before the ClientHello was complete`)
    if (buf[pos + 1] !== 3) return invalid('bad-record', `record at offset ${pos} has version major ${buf[pos + 1]}`)
    const length = (buf[pos + 3]! << 8) | buf[pos + 4]!
    if (length === 0 || length > MAX_RECORD) return invalid('bad-record', `record at offset ${pos} has length ${length} (1 to ${MAX_RECORD} allowed)`)
    const start = pos + 5
    const available = Math.min(buf.length, start + length)
    // Refuse early when the first handshake byte is already readable and is not a hello.
    if (collected === 0 && available > start && buf[start] !== HANDSHAKE_CLIENT_HELLO) {
      return invalid('not-client-hello', `handshake message type ${buf[start]} is not ClientHello (1)`)
    }
    if (available < start + length) return { status: 'need-more', atLeast: start + length }
    fragments.push([start, start + length])
    collected += length
    pos = start + length
    if (messageLength < 0 && collected >= 4) {
      messageLength = (handshakeByte(1) << 16) | (handshakeByte(2) << 8) | handshakeByte(3)
      if (messageLength > MAX_CLIENT_HELLO) return invalid('too-large', `ClientHello of ${messageLength} bytes is over the ${MAX_CLIENT_HELLO}-byte limit`)
    }
    if (messageLength >= 0 && collected >= 4 + messageLength) {
      const message = new Uint8Array(collected)
      let o = 0
      for (const [s, e] of fragments) {
        message.set(buf.subarray(s, e), o)
        o += e - s
      }
      // Bytes after the hello in its last record would be another handshake message, which a
      // client cannot send before the server's reply; they are left out of the parse.
      return { status: 'message', message: message.subarray(4, 4 + messageLength), recordVersion, length: pos }
    }
  }
}

function parseBody(body: Uint8Array, recordVersion: number): ClientHello {
  const r = new ByteReader(body, 0, body.length, 'ClientHello')
  const version = r.u16()
  const random = toHex(r.take(32))
  const sessionIdLength = r.u8()
  if (sessionIdLength > 32) fail('malformed', `legacy_session_id of ${sessionIdLength} bytes is over 32`)
  const sessionId = toHex(r.take(sessionIdLength))
  const suitesLength = r.u16()
  if (suitesLength < 2 || suitesLength % 2 !== 0) fail('malformed', `cipher_suites length ${suitesLength} is not a positive even number`)
  const suites = r.sub(suitesLength, 'cipher_suites')
  const cipherSuites: number[] = []
  while (suites.remaining > 0) cipherSuites.push(suites.u16())
  const compressionLength = r.u8()
  if (compressionLength < 1) fail('malformed', 'legacy_compression_methods is empty')
  const compressionMethods = Array.from(r.take(compressionLength))
  const hello: ClientHello = {
    recordVersion,
    version,
    random,
    sessionId,
    cipherSuites,
    compressionMethods,
    extensions: [],
    serverName: null,
    alpn: null,
    supportedGroups: null,
    ecPointFormats: null,
    signatureAlgorithms: null,
    signatureAlgorithmsCert: null,
    supportedVersions: null,
    keyShares: null,
    pskKeyExchangeModes: null,
    compressCertificate: null,
    applicationSettings: null,
    recordSizeLimit: null,
    delegatedCredentials: null,
    malformedExtensions: [],
    duplicateExtensions: [],
  }
  // RFC 5246 §7.4.1.2: a TLS 1.2 hello may end after the compression methods.
  if (r.remaining === 0) return hello
  const extensionsLength = r.u16()
  if (extensionsLength !== r.remaining) fail('malformed', `extensions length ${extensionsLength} does not match the ${r.remaining} bytes left in the hello`)
  const seen = new Set<number>()
  while (r.remaining > 0) {
    const type = r.u16()
    const length = r.u16()
    const data = r.sub(length, `extension ${type}`)
    hello.extensions.push({ type, data: toHex(body.subarray(data.pos, data.end)), length })
    if (seen.has(type)) {
      if (!hello.duplicateExtensions.includes(type)) hello.duplicateExtensions.push(type)
      continue
    }
    seen.add(type)
    const decoded = attempt<void, string>(() => {
      decodeExtension(hello, type, data)
      if (data.remaining !== 0) fail('malformed', `${data.remaining} byte(s) left over`)
    })
    if (!decoded.ok) hello.malformedExtensions.push(type)
  }
  return hello
}

function u16List(r: ByteReader, lengthBytes: 1 | 2): number[] {
  const n = lengthBytes === 1 ? r.u8() : r.u16()
  if (n % 2 !== 0) fail('malformed', `list of 16-bit values has odd length ${n}`)
  const list = r.sub(n)
  const out: number[] = []
  while (list.remaining > 0) out.push(list.u16())
  return out
}

function u8List(r: ByteReader): number[] {
  return Array.from(r.take(r.u8()))
}

/** ProtocolNameList (RFC 7301 §3.1): u16 length, then names of 1–255 bytes each. */
function protocolNames(r: ByteReader): string[] {
  const list = r.sub(r.u16())
  const out: string[] = []
  while (list.remaining > 0) {
    const n = list.u8()
    if (n === 0) fail('malformed', 'empty protocol name')
    out.push(latin1(list.take(n)))
  }
  return out
}

function decodeExtension(h: ClientHello, type: number, r: ByteReader): void {
  const E = TLS_EXTENSION
  switch (type) {
    case E.serverName: {
      // An empty body is allowed (a server's echo); a client sends a ServerNameList.
      if (r.remaining === 0) return
      const list = r.sub(r.u16())
      while (list.remaining > 0) {
        const nameType = list.u8()
        const name = list.take(list.u16())
        if (nameType === 0 && h.serverName === null) h.serverName = latin1(name)
      }
      if (h.serverName === null) h.serverName = ''
      return
    }
    case E.supportedGroups:
      h.supportedGroups = u16List(r, 2)
      return
    case E.ecPointFormats:
      h.ecPointFormats = u8List(r)
      return
    case E.signatureAlgorithms:
      h.signatureAlgorithms = u16List(r, 2)
      return
    case E.signatureAlgorithmsCert:
      h.signatureAlgorithmsCert = u16List(r, 2)
      return
    case E.delegatedCredentials:
      h.delegatedCredentials = u16List(r, 2)
      return
    case E.alpn:
      h.alpn = protocolNames(r)
      return
    case E.supportedVersions:
      h.supportedVersions = u16List(r, 1)
      return
    case E.pskKeyExchangeModes:
      h.pskKeyExchangeModes = u8List(r)
      return
    case E.compressCertificate:
      h.compressCertificate = u16List(r, 1)
      return
    case E.recordSizeLimit:
      h.recordSizeLimit = r.u16()
      return
    case E.keyShare: {
      const list = r.sub(r.u16())
      const shares: Array<{ group: number; length: number }> = []
      while (list.remaining > 0) {
        const group = list.u16()
        const length = list.u16()
        list.skip(length)
        shares.push({ group, length })
      }
      h.keyShares = shares
      return
    }
    case E.applicationSettings:
    case E.applicationSettingsOld:
      // Both codepoints carry the same body; a client sends one of them.
      if (h.applicationSettings === null) h.applicationSettings = { type, protocols: protocolNames(r) }
      else r.skip(r.remaining)
      return
    default:
      r.skip(r.remaining)
  }
}

// STUN (RFC 8489) and the TURN Allocate exchange (RFC 8656), as a UDP listener needs them to
// see a browser's real source address: WebRTC sends a Binding request to every STUN server in
// its configuration and an Allocate request to every TURN server, from the socket its media
// would use, whatever the page's JavaScript says afterwards.
//
// Message layout (RFC 8489 §5): a 20-byte header (type, length, magic cookie 0x2112A442,
// 96-bit transaction ID), then attributes as type/length/value padded to 4 bytes (§14). The
// type interleaves a 12-bit method and a 2-bit class. MESSAGE-INTEGRITY (§14.5) is HMAC-SHA1
// over the message up to it, with the header length set as if it were the last attribute;
// FINGERPRINT (§14.7) is CRC-32 of the message up to it, XORed with 0x5354554e, and must be
// last. Under TURN's long-term credentials (RFC 8489 §9.2) the HMAC key is
// MD5(username ":" realm ":" password), and a request without them is answered with a 401
// carrying REALM and NONCE.

import { crc32 } from '../core/crc32'
import { formatIp, parseIp } from '../core/ip'
import { ByteReader, ByteWriter, attempt, fail, fromHex, toHex, type Parsed } from './bytes'
import { hmacSha1, md5 } from './digests'

export const MAGIC_COOKIE = 0x2112a442
const FINGERPRINT_XOR = 0x5354554e

/** Methods: Binding (RFC 8489 §18.2), and TURN's (RFC 8656 §17). */
export const STUN_METHOD = {
  binding: 0x001,
  allocate: 0x003,
  refresh: 0x004,
  send: 0x006,
  data: 0x007,
  createPermission: 0x008,
  channelBind: 0x009,
} as const

export type StunClass = 'request' | 'indication' | 'success' | 'error'
const CLASSES: readonly StunClass[] = ['request', 'indication', 'success', 'error']

export const STUN_ATTRIBUTE = {
  mappedAddress: 0x0001,
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  unknownAttributes: 0x000a,
  channelNumber: 0x000c,
  lifetime: 0x000d,
  xorPeerAddress: 0x0012,
  data: 0x0013,
  realm: 0x0014,
  nonce: 0x0015,
  xorRelayedAddress: 0x0016,
  requestedAddressFamily: 0x0017,
  evenPort: 0x0018,
  requestedTransport: 0x0019,
  dontFragment: 0x001a,
  messageIntegritySha256: 0x001c,
  passwordAlgorithm: 0x001d,
  userhash: 0x001e,
  xorMappedAddress: 0x0020,
  reservationToken: 0x0022,
  priority: 0x0024,
  useCandidate: 0x0025,
  software: 0x8022,
  alternateServer: 0x8023,
  fingerprint: 0x8028,
  iceControlled: 0x8029,
  iceControlling: 0x802a,
} as const

const A = STUN_ATTRIBUTE
const KNOWN = new Set<number>(Object.values(STUN_ATTRIBUTE))

export interface StunAddress {
  family: 'IPv4' | 'IPv6'
  /** Dotted quad, or RFC 5952 text for IPv6. */
  address: string
  port: number
}

export interface StunAttribute {
  type: number
  /** The value without padding, as hex. */
  value: string
  /** Where the attribute's header starts in the message. */
  offset: number
}

export interface StunMessage {
  method: number
  class: StunClass
  /** 96 bits as 24 hex characters. */
  transactionId: string
  attributes: StunAttribute[]
  username: string | null
  realm: string | null
  nonce: string | null
  software: string | null
  errorCode: { code: number; reason: string } | null
  mappedAddress: StunAddress | null
  xorMappedAddress: StunAddress | null
  xorRelayedAddress: StunAddress | null
  xorPeerAddress: StunAddress | null
  /** REQUESTED-TRANSPORT's protocol number (17 for UDP, RFC 8656 §18.8). */
  requestedTransport: number | null
  /** LIFETIME in seconds (RFC 8656 §18.2). */
  lifetime: number | null
  /** Offset of MESSAGE-INTEGRITY; attributes after it other than FINGERPRINT were ignored (§14.5). */
  messageIntegrityOffset: number | null
  /** Whether FINGERPRINT was present, and whether its CRC matched. */
  fingerprint: 'absent' | 'valid' | 'invalid'
  /** Comprehension-required attributes (0x0000–0x7FFF) this module does not know: a request with them gets a 420. */
  unknownRequired: number[]
}

export type StunError = 'not-stun' | 'truncated' | 'malformed'

/**
 * Whether a datagram is a STUN message (RFC 8489 §5): the top two bits zero and the magic
 * cookie in place. TURN's ChannelData messages (first bits 01) and RFC 3489 messages (no
 * cookie) are not.
 */
export function isStun(bytes: Uint8Array): boolean {
  return bytes.length >= 20 && (bytes[0]! & 0xc0) === 0 && ((bytes[4]! << 24) | (bytes[5]! << 16) | (bytes[6]! << 8) | bytes[7]!) >>> 0 === MAGIC_COOKIE
}

function decodeType(type: number): { method: number; class: StunClass } {
  // M11–M7 C1 M6–M4 C0 M3–M0 (§5)
  const method = (type & 0x000f) | ((type & 0x00e0) >> 1) | ((type & 0x3e00) >> 2)
  const cls = ((type & 0x0010) >> 4) | ((type & 0x0100) >> 7)
  return { method, class: CLASSES[cls]! }
}

export function encodeType(method: number, cls: StunClass): number {
  const c = CLASSES.indexOf(cls)
  return (method & 0x000f) | ((method & 0x0070) << 1) | ((method & 0x0f80) << 2) | ((c & 1) << 4) | ((c & 2) << 7)
}

const text = new TextDecoder()
const utf8 = new TextEncoder()

/** XOR-MAPPED-ADDRESS and its TURN siblings (§14.2): port ^ cookie>>16, address ^ cookie‖transaction ID. */
function xorAddress(value: Uint8Array, header: Uint8Array): StunAddress {
  const plain = value.slice()
  // Header bytes 4–7 are the cookie and 8–19 the transaction ID: the port is XORed with the
  // first two, the address with as many as it has bytes.
  if (plain.length >= 4) {
    plain[2]! ^= header[4]!
    plain[3]! ^= header[5]!
  }
  for (let i = 4; i < plain.length && i < 20; i++) plain[i]! ^= header[i]!
  return address(plain)
}

/** MAPPED-ADDRESS (§14.1): reserved byte, family (1 IPv4, 2 IPv6), port, address. */
function address(value: Uint8Array): StunAddress {
  const family = value[1]
  const length = family === 1 ? 4 : family === 2 ? 16 : fail('malformed', `address family ${family}`)
  if (value.length !== 4 + length) fail('malformed', `address attribute of ${value.length} bytes for family ${family}`)
  return { family: family === 1 ? 'IPv4' : 'IPv6', address: formatIp(value.slice(4)), port: (value[2]! << 8) | value[3]! }
}

export function parseStun(bytes: Uint8Array): Parsed<StunMessage, StunError> {
  return attempt(() => {
    if (bytes.length < 20) fail('truncated', `${bytes.length} bytes is shorter than a STUN header`)
    if (!isStun(bytes)) fail('not-stun', 'no STUN magic cookie, or the first two bits are not zero')
    const r = new ByteReader(bytes, 0, bytes.length, 'STUN message')
    const { method, class: cls } = decodeType(r.u16())
    const length = r.u16()
    if (length % 4 !== 0) fail('malformed', `message length ${length} is not a multiple of 4`)
    if (20 + length !== bytes.length) fail(20 + length > bytes.length ? 'truncated' : 'malformed', `header says ${length} bytes of attributes, the datagram has ${bytes.length - 20}`)
    r.skip(4)
    const transactionId = toHex(r.take(12))
    const m: StunMessage = {
      method,
      class: cls,
      transactionId,
      attributes: [],
      username: null,
      realm: null,
      nonce: null,
      software: null,
      errorCode: null,
      mappedAddress: null,
      xorMappedAddress: null,
      xorRelayedAddress: null,
      xorPeerAddress: null,
      requestedTransport: null,
      lifetime: null,
      messageIntegrityOffset: null,
      fingerprint: 'absent',
      unknownRequired: [],
    }
    while (r.remaining > 0) {
      const offset = r.pos
      const type = r.u16()
      const valueLength = r.u16()
      const value = r.take(valueLength)
      r.skip((4 - (valueLength % 4)) % 4)
      if (m.fingerprint !== 'absent') fail('malformed', 'an attribute after FINGERPRINT (§14.7)')
      if (type === A.fingerprint) {
        if (valueLength !== 4) fail('malformed', 'FINGERPRINT is not 4 bytes')
        const expected = (crc32(bytes.subarray(0, offset)) ^ FINGERPRINT_XOR) >>> 0
        const got = ((value[0]! << 24) | (value[1]! << 16) | (value[2]! << 8) | value[3]!) >>> 0
        m.fingerprint = expected === got ? 'valid' : 'invalid'
        m.attributes.push({ type, value: toHex(value), offset })
        continue
      }
      // §14.5: after MESSAGE-INTEGRITY only MESSAGE-INTEGRITY-SHA256 and FINGERPRINT count.
      if (m.messageIntegrityOffset !== null && type !== A.messageIntegritySha256) continue
      m.attributes.push({ type, value: toHex(value), offset })
      decodeAttribute(m, type, value, bytes)
      if (type === A.messageIntegrity) {
        if (valueLength !== 20) fail('malformed', 'MESSAGE-INTEGRITY is not 20 bytes')
        m.messageIntegrityOffset = offset
      }
    }
    return m
  })
}

function decodeAttribute(m: StunMessage, type: number, value: Uint8Array, header: Uint8Array): void {
  switch (type) {
    case A.username:
      m.username = text.decode(value)
      return
    case A.realm:
      m.realm = text.decode(value)
      return
    case A.nonce:
      m.nonce = text.decode(value)
      return
    case A.software:
      m.software = text.decode(value)
      return
    case A.errorCode: {
      // 21 reserved bits, class (hundreds, 3–6), number (0–99), then a UTF-8 reason (§14.8).
      if (value.length < 4) fail('malformed', 'ERROR-CODE shorter than 4 bytes')
      const cls = value[2]! & 0x07
      const number = value[3]!
      if (cls < 3 || cls > 6 || number > 99) fail('malformed', `error code ${cls * 100 + number} out of range`)
      m.errorCode = { code: cls * 100 + number, reason: text.decode(value.subarray(4)) }
      return
    }
    case A.mappedAddress:
      m.mappedAddress = address(value)
      return
    case A.xorMappedAddress:
      m.xorMappedAddress = xorAddress(value, header)
      return
    case A.xorRelayedAddress:
      m.xorRelayedAddress = xorAddress(value, header)
      return
    case A.xorPeerAddress:
      if (m.xorPeerAddress === null) m.xorPeerAddress = xorAddress(value, header)
      return
    case A.requestedTransport:
      // Protocol number, then 24 reserved bits (RFC 8656 §18.8).
      if (value.length !== 4) fail('malformed', 'REQUESTED-TRANSPORT is not 4 bytes')
      m.requestedTransport = value[0]!
      return
    case A.lifetime:
      if (value.length !== 4) fail('malformed', 'LIFETIME is not 4 bytes')
      m.lifetime = new ByteReader(value).u32()
      return
    default:
      if (type < 0x8000 && !KNOWN.has(type) && !m.unknownRequired.includes(type)) m.unknownRequired.push(type)
  }
}

/** MESSAGE-INTEGRITY key under long-term credentials (RFC 8489 §9.2.2): MD5(username:realm:password). */
export function longTermKey(username: string, realm: string, password: string): Uint8Array {
  return md5(`${username}:${realm}:${password}`)
}

/** MESSAGE-INTEGRITY key under short-term credentials (ICE): the password itself (§9.1.1). */
export function shortTermKey(password: string): Uint8Array {
  return utf8.encode(password)
}

/** HMAC-SHA1 over the message up to MESSAGE-INTEGRITY, with the length field ending at it (§14.5). */
function integrity(bytes: Uint8Array, offset: number, key: Uint8Array): Uint8Array {
  const covered = bytes.slice(0, offset)
  const length = offset - 20 + 24
  covered[2] = length >> 8
  covered[3] = length & 0xff
  return hmacSha1(key, covered)
}

/** Whether the message's MESSAGE-INTEGRITY matches the key; false when it has none. */
export function verifyMessageIntegrity(bytes: Uint8Array, message: Pick<StunMessage, 'messageIntegrityOffset'>, key: Uint8Array): boolean {
  const offset = message.messageIntegrityOffset
  if (offset === null || offset + 24 > bytes.length) return false
  const expected = integrity(bytes, offset, key)
  let diff = 0
  for (let i = 0; i < 20; i++) diff |= expected[i]! ^ bytes[offset + 4 + i]!
  return diff === 0
}

// Building messages.

export interface StunAttributeInput {
  type: number
  value: Uint8Array
}

export interface StunBuild {
  method: number
  class: StunClass
  /** 12 bytes, or 24 hex characters (a request's ID, for its response). */
  transactionId: Uint8Array | string
  attributes?: StunAttributeInput[]
  /** Adds MESSAGE-INTEGRITY with this key after the attributes. */
  integrityKey?: Uint8Array
  /** Adds FINGERPRINT last. */
  fingerprint?: boolean
}

function transactionBytes(id: Uint8Array | string): Uint8Array {
  const b = typeof id === 'string' ? fromHex(id) : id
  if (b?.length !== 12) throw new Error('Cannot build a STUN message: the transaction ID must be 12 bytes')
  return b
}

export function buildStun(m: StunBuild): Uint8Array {
  const w = new ByteWriter().u16(encodeType(m.method, m.class)).u16(0).u32(MAGIC_COOKIE).bytes(transactionBytes(m.transactionId))
  const put = (type: number, value: Uint8Array) => {
    w.u16(type).u16(value.length).bytes(value)
    for (let i = value.length; i % 4 !== 0; i++) w.u8(0)
  }
  for (const a of m.attributes ?? []) put(a.type, a.value)
  if (m.integrityKey) {
    const offset = w.length
    w.setU16(2, offset - 20 + 24)
    const mac = hmacSha1(m.integrityKey, w.finish())
    put(A.messageIntegrity, mac)
  }
  if (m.fingerprint) {
    const offset = w.length
    w.setU16(2, offset - 20 + 8)
    const crc = (crc32(w.finish()) ^ FINGERPRINT_XOR) >>> 0
    put(A.fingerprint, new ByteWriter().u32(crc).finish())
  }
  w.setU16(2, w.length - 20)
  return w.finish()
}

/** An address attribute; `xor` with the message's transaction ID for the XOR-… kinds (§14.2). */
export function addressAttribute(type: number, a: { address: string; port: number }, transactionId?: Uint8Array | string): StunAttributeInput {
  const ip = parseIp(a.address)
  if (!ip) throw new Error(`Cannot build a STUN address attribute: ${JSON.stringify(a.address)} is not an IP address`)
  const w = new ByteWriter().u8(0).u8(ip.length === 4 ? 1 : 2)
  if (transactionId === undefined) return { type, value: w.u16(a.port).bytes(ip).finish() }
  const key = new ByteWriter().u32(MAGIC_COOKIE).bytes(transactionBytes(transactionId)).finish()
  return { type, value: w.u16(a.port ^ (MAGIC_COOKIE >>> 16)).bytes(ip.map((b, i) => b ^ key[i]!)).finish() }
}

export function textAttribute(type: number, value: string): StunAttributeInput {
  return { type, value: utf8.encode(value) }
}

export function errorCodeAttribute(code: number, reason: string): StunAttributeInput {
  return { type: A.errorCode, value: new ByteWriter().u16(0).u8(Math.floor(code / 100)).u8(code % 100).bytes(utf8.encode(reason)).finish() }
}

export function u32Attribute(type: number, value: number): StunAttributeInput {
  return { type, value: new ByteWriter().u32(value).finish() }
}

export interface ResponseOptions {
  software?: string
  /** Add FINGERPRINT (a server should when the request had one, RFC 8489 §7.3). */
  fingerprint?: boolean
}

const softwareOf = (o: ResponseOptions) => (o.software ? [textAttribute(A.software, o.software)] : [])

/** Binding success response carrying the request's source address (RFC 8489 §7.3.1). */
export function bindingSuccess(request: Pick<StunMessage, 'transactionId'>, source: { address: string; port: number }, options: ResponseOptions = {}): Uint8Array {
  return buildStun({
    method: STUN_METHOD.binding,
    class: 'success',
    transactionId: request.transactionId,
    attributes: [addressAttribute(A.xorMappedAddress, source, request.transactionId), ...softwareOf(options)],
    fingerprint: options.fingerprint,
  })
}

/** An error response to any request, e.g. 400 Bad Request, 420 with UNKNOWN-ATTRIBUTES, 437, 438, 441, 442. */
export function errorResponse(
  request: Pick<StunMessage, 'method' | 'transactionId' | 'unknownRequired'>,
  code: number,
  reason: string,
  options: ResponseOptions & { extra?: StunAttributeInput[]; integrityKey?: Uint8Array } = {},
): Uint8Array {
  const attributes = [errorCodeAttribute(code, reason), ...(options.extra ?? [])]
  if (code === 420 && request.unknownRequired.length > 0) {
    const w = new ByteWriter()
    for (const t of request.unknownRequired) w.u16(t)
    attributes.push({ type: A.unknownAttributes, value: w.finish() })
  }
  return buildStun({ method: request.method, class: 'error', transactionId: request.transactionId, attributes: [...attributes, ...softwareOf(options)], integrityKey: options.integrityKey, fingerprint: options.fingerprint })
}

/**
 * The 401 that asks a client for long-term credentials (RFC 8489 §9.2.4), with the realm and
 * a server nonce (the nonce is the caller's: e.g. a MAC over a timestamp, so it can expire).
 * `reason` '' leaves the reason phrase out (the smallest challenge).
 */
export function unauthorized(
  request: Pick<StunMessage, 'method' | 'transactionId' | 'unknownRequired'>,
  challenge: { realm: string; nonce: string },
  options: ResponseOptions & { reason?: string } = {},
): Uint8Array {
  return errorResponse(request, 401, options.reason ?? 'Unauthorized', { ...options, extra: [textAttribute(A.realm, challenge.realm), textAttribute(A.nonce, challenge.nonce)] })
}

export interface AllocateRequest {
  /** 17 for UDP; anything else gets 442 Unsupported Transport Protocol (RFC 8656 §7.2). */
  transport: number
  /** Requested lifetime in seconds, if any. */
  lifetime: number | null
  /** Null until the client answers the 401 challenge. */
  credentials: { username: string; realm: string; nonce: string } | null
  hasIntegrity: boolean
}

export type AllocateError = 'not-allocate' | 'bad-request'

/** The parts of an Allocate request a server decides on (RFC 8656 §7.2). */
export function allocateRequest(m: StunMessage): Parsed<AllocateRequest, AllocateError> {
  if (m.method !== STUN_METHOD.allocate || m.class !== 'request') return { ok: false, error: 'not-allocate', detail: 'Cannot read an Allocate request: the message is not one' }
  if (m.requestedTransport === null) return { ok: false, error: 'bad-request', detail: 'Cannot allocate: REQUESTED-TRANSPORT is missing (400)' }
  const credentials = m.username !== null && m.realm !== null && m.nonce !== null ? { username: m.username, realm: m.realm, nonce: m.nonce } : null
  return { ok: true, value: { transport: m.requestedTransport, lifetime: m.lifetime, credentials, hasIntegrity: m.messageIntegrityOffset !== null } }
}

/**
 * Allocate success (RFC 8656 §7.3): the relayed address, the lifetime granted, the client's
 * reflexive address, then MESSAGE-INTEGRITY with the long-term key and FINGERPRINT.
 */
export function allocateSuccess(
  request: Pick<StunMessage, 'transactionId'>,
  grant: { relayed: { address: string; port: number }; mapped: { address: string; port: number }; lifetime: number; key: Uint8Array },
  options: { software?: string } = {},
): Uint8Array {
  return buildStun({
    method: STUN_METHOD.allocate,
    class: 'success',
    transactionId: request.transactionId,
    attributes: [
      addressAttribute(A.xorRelayedAddress, grant.relayed, request.transactionId),
      u32Attribute(A.lifetime, grant.lifetime),
      addressAttribute(A.xorMappedAddress, grant.mapped, request.transactionId),
      ...softwareOf(options),
    ],
    integrityKey: grant.key,
    fingerprint: true,
  })
}

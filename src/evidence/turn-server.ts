// What the service's STUN/TURN listener answers, as pure decisions over one datagram (the UDP
// socket and the database live in src/listeners/stun.ts). Binding requests get the source
// address back (RFC 8489 §7.3.1). Allocate requests are TURN's (RFC 8656 §7.2) under long-term
// credentials: the first one, without credentials, gets a 401 with REALM and a server NONCE;
// the second (Chromium sends it under a new transaction ID) carries USERNAME = the page nonce
// and MESSAGE-INTEGRITY keyed with MD5(nonce:realm:turnSecret). Once that verifies, the source
// address is what the service files under the page nonce, and the answer is 403: the service
// records, it never relays (see `allocateVerified` for why an error rather than a fake relay).
//
// The server NONCE is stateless: an expiry and an HMAC over it and the client's address and
// port, so any datagram can be checked without remembering the challenge and a nonce is useless
// from another socket. One that has our form but is expired, or was made under another key
// (another instance, or before a restart), gets 438 with a fresh one: Chromium retries an
// Allocate after a 438, whereas a second 401 ends its TURN port (RFC 8489 §9.2.5).
//
// Amplification (issue 13): anyone can put any source address on a UDP datagram, so what we
// send to a source that has not shown it receives our answers (a request without a valid server
// NONCE for it) is never more than MAX_UNAUTHENTICATED_GROWTH bytes larger than the request.
// Such replies carry only what RFC 8489/8656 require: no SOFTWARE, an empty reason phrase,
// FINGERPRINT only when the request had one, and the challenge's NONCE in 16 characters.
// Requests we could only answer with a larger reply (a Refresh or other TURN method without
// credentials: there is never an allocation here) and unknown methods are not answered at all.

import { ByteReader, ByteWriter } from './bytes'
import { hmacSha256 } from './digests'
import {
  allocateRequest,
  bindingSuccess,
  errorResponse,
  longTermKey,
  parseStun,
  STUN_METHOD,
  textAttribute,
  STUN_ATTRIBUTE as A,
  unauthorized,
  verifyMessageIntegrity,
  type StunMessage,
} from './stun'

export interface Source {
  address: string
  port: number
}

const utf8 = new TextEncoder()
/** Bytes of the HMAC kept in a server NONCE (64 bits: guessing one takes ~2^63 datagrams). */
const MAC_BYTES = 8

/**
 * The most an answer to a request without a valid server NONCE may exceed the request by, in
 * bytes. The largest such answers: the 401 to Chromium's 28-byte first Allocate (ERROR-CODE,
 * REALM `antibot`, NONCE: 60 bytes, +32) and a Binding success to an IPv6 source (+24).
 */
export const MAX_UNAUTHENTICATED_GROWTH = 32

function nonceMac(key: Uint8Array, expires: number, source: Source): Uint8Array {
  return hmacSha256(key, utf8.encode(`${expires}|${source.address}|${source.port}`)).subarray(0, MAC_BYTES)
}

/**
 * A server NONCE valid until `now + ttlSeconds` for this source: the expiry (seconds since the
 * epoch, 32 bits) and the MAC's first 8 bytes, as 16 base64url characters.
 */
export function serverNonce(key: Uint8Array, source: Source, now: Date, ttlSeconds: number): string {
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds
  const bytes = new ByteWriter().u32(expires >>> 0).bytes(nonceMac(key, expires >>> 0, source)).finish()
  return Buffer.from(bytes).toString('base64url')
}

export type NonceCheck = 'valid' | 'expired' | 'foreign' | 'malformed'

/**
 * `expired`: ours, for this source, past its expiry; `foreign`: our form, but its MAC does not
 * match (another key, another source, or altered); `malformed`: not our form at all.
 */
export function checkServerNonce(key: Uint8Array, nonce: string, source: Source, now: Date): NonceCheck {
  if (!/^[A-Za-z0-9_-]{16}$/.test(nonce)) return 'malformed'
  const bytes = new Uint8Array(Buffer.from(nonce, 'base64url'))
  // 16 characters carry 96 bits exactly, so every such string decodes to 12 bytes.
  const r = new ByteReader(bytes)
  const expires = r.u32()
  const got = r.take(MAC_BYTES)
  const expected = nonceMac(key, expires, source)
  let diff = 0
  for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ got[i]!
  if (diff !== 0) return 'foreign'
  return expires * 1000 > now.getTime() ? 'valid' : 'expired'
}

export interface TurnServerOptions {
  /** HMAC key of the server NONCE (random per process is enough: a 438 recovers across instances). */
  key: Uint8Array
  realm: string
  now: Date
  /** How long a server NONCE stays valid. */
  nonceTtlSeconds: number
  software?: string
}

/** The longest USERNAME looked up in the database (page nonces are far shorter). */
const MAX_USERNAME = 128

export type Step =
  /** Not a STUN request we answer (responses, indications, other protocols, garbage). */
  | { do: 'ignore'; why: string }
  /** Answer and be done; `binding` marks a Binding success (the listener may tie it to a page later). */
  | { do: 'reply'; reply: Uint8Array; binding?: boolean }
  /** A request with credentials and a valid server NONCE: look up the page nonce's TURN secret, then call `authenticated`. */
  | { do: 'authenticate'; request: StunMessage; username: string }

/**
 * The first decision on a datagram, before any database lookup. Every `reply` here answers a
 * source that has not shown it receives our datagrams, so none is more than
 * MAX_UNAUTHENTICATED_GROWTH bytes longer than the request (a larger one is not sent).
 */
export function firstStep(bytes: Uint8Array, source: Source, o: TurnServerOptions): Step {
  const step = unauthenticatedStep(bytes, source, o)
  if (step.do === 'reply' && step.reply.length > bytes.length + MAX_UNAUTHENTICATED_GROWTH) {
    return { do: 'ignore', why: `the answer (${step.reply.length} bytes) would exceed the request (${bytes.length}) by more than ${MAX_UNAUTHENTICATED_GROWTH}` }
  }
  return step
}

function unauthenticatedStep(bytes: Uint8Array, source: Source, o: TurnServerOptions): Step {
  const parsed = parseStun(bytes)
  if (!parsed.ok) return { do: 'ignore', why: parsed.detail }
  const m = parsed.value
  if (m.class !== 'request') return { do: 'ignore', why: `a STUN ${m.class}, not a request` }
  // Only what the RFCs require: no SOFTWARE, no reason phrase (RFC 8489 §14.8 leaves it free).
  const response = { fingerprint: m.fingerprint !== 'absent' }
  if (m.fingerprint === 'invalid') return { do: 'ignore', why: 'FINGERPRINT does not match (RFC 8489 §7.3: discard)' }
  const known = m.method === STUN_METHOD.binding || m.method === STUN_METHOD.allocate || m.method === STUN_METHOD.refresh
  // CreatePermission, ChannelBind…: only meaningful on an allocation, and we never make one.
  if (!known) return { do: 'ignore', why: `method 0x${m.method.toString(16)} is not answered (no allocation exists here)` }
  if (m.unknownRequired.length) return { do: 'reply', reply: errorResponse(m, 420, '', response) }
  if (m.method === STUN_METHOD.binding) return { do: 'reply', reply: bindingSuccess(m, source, response), binding: true }
  const hasCredentials = m.username !== null && m.nonce !== null && m.realm !== null && m.messageIntegrityOffset !== null
  // A Refresh needs an allocation, which never exists: without credentials its challenge would
  // only be a 60-byte answer to a 20-byte request.
  if (m.method === STUN_METHOD.refresh && !hasCredentials) return { do: 'ignore', why: 'a Refresh without credentials (no allocation exists here)' }
  if (m.method === STUN_METHOD.allocate) {
    const a = allocateRequest(m)
    if (!a.ok) return { do: 'reply', reply: errorResponse(m, 400, '', response) }
  }
  const challenge = () => unauthorized(m, { realm: o.realm, nonce: serverNonce(o.key, source, o.now, o.nonceTtlSeconds) }, { ...response, reason: '' })
  if (!hasCredentials || m.username === null || m.nonce === null) return { do: 'reply', reply: challenge() }
  if (m.realm !== o.realm) return { do: 'reply', reply: challenge() }
  const nonce = checkServerNonce(o.key, m.nonce, source, o.now)
  if (nonce === 'malformed') return { do: 'reply', reply: challenge() }
  if (nonce !== 'valid') {
    return {
      do: 'reply',
      reply: errorResponse(m, 438, '', { ...response, extra: [textAttribute(A.realm, o.realm), textAttribute(A.nonce, serverNonce(o.key, source, o.now, o.nonceTtlSeconds))] }),
    }
  }
  if (m.username.length === 0 || m.username.length > MAX_USERNAME) return { do: 'reply', reply: challenge() }
  return { do: 'authenticate', request: m, username: m.username }
}

export type Authenticated =
  | { verified: false; reply: Uint8Array }
  | { verified: true; reply: Uint8Array; method: 'allocate' | 'refresh'; requestedTransport: number | null; software: string | null }

/**
 * The answer once the page nonce's TURN secret is known (`null`: unknown, used or expired page
 * nonce, answered like a wrong password). A verified Allocate is answered 403 Forbidden:
 * Chromium's TurnPort treats any error other than 300, 401, 437 and 438 as final, so the port
 * is done at once (an `icecandidateerror` with code 403 on the page) and ICE gathering does not
 * wait for it. A success would need a relayed address that relays nothing: the page would then
 * report a relay candidate at the service's own address (which the leak checks would have to
 * explain away), and Chromium would keep refreshing an allocation that does not exist.
 */
export function authenticated(bytes: Uint8Array, request: StunMessage, secret: string | null, o: TurnServerOptions): Authenticated {
  const response = { software: o.software, fingerprint: request.fingerprint !== 'absent' }
  const key = secret === null ? null : longTermKey(request.username!, o.realm, secret)
  if (key === null || !verifyMessageIntegrity(bytes, request, key)) {
    // RFC 8489 §9.2.4: a bad USERNAME or MESSAGE-INTEGRITY gets a fresh 401 challenge.
    return { verified: false, reply: unauthorized(request, { realm: o.realm, nonce: request.nonce! }, response) }
  }
  const software = request.software
  if (request.method === STUN_METHOD.refresh) {
    // No allocation exists: 437 (RFC 8656 §7.3), integrity-protected since the client authenticated.
    return { verified: true, method: 'refresh', requestedTransport: null, software, reply: errorResponse(request, 437, 'Allocation Mismatch', { ...response, integrityKey: key }) }
  }
  return {
    verified: true,
    method: 'allocate',
    requestedTransport: request.requestedTransport,
    software,
    reply: errorResponse(request, 403, 'Forbidden: this TURN server records the allocation and relays nothing', { ...response, integrityKey: key }),
  }
}

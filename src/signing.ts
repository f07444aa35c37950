// Ed25519 signing keys for task responses: generation, the JWK form (RFC 8037) with an
// RFC 7638 thumbprint as kid, the signer the app uses, and the encryption of the private key
// at rest. Keys live in the database (db/signing-keys.ts) so every instance signs alike; the
// private key is stored there only encrypted, with a key derived from a secret the database
// does not hold (src/signing-secret.ts), so reading the database is not enough to forge a
// signed result.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto'
import { protectedHeader, signDetached } from './core/jws'

/** A signing key as the service holds it; db/signing-keys.ts stores and reads it. */
export interface SigningKeyRow {
  kid: string
  publicJwk: Record<string, unknown>
  /** PEM in memory; `enc:v1:…` in the database. */
  privatePkcs8: string
}

export interface ResponseSigner {
  kid: string
  /** `<protected>..<signature>` over the exact body. */
  sign(body: string): string
  /**
   * A body and its signature, kept in memory under `key` (the task id) with the `source` it was
   * built from (the stored row's fields, the results by their stored size: a task is written
   * once, so the keyed GET of a kept task does not read its results at all, db/fetch.ts
   * omitResults): while the same key comes with the same source, the
   * kept body and signature are the answer, so a task fetched again is neither rebuilt (its
   * checks' text put back, src/core/check-text.ts) nor signed again (about 35 µs a signature
   * here, more for large bodies). Both are deterministic: the body is a function of the row and
   * of this process's definitions, and Ed25519 signatures are deterministic (RFC 8032), so the
   * answer is the one building and signing afresh would give. Any field that differs builds and
   * signs afresh. A cache only: every instance computes the same answer, so nothing here needs
   * to be shared.
   */
  signed(key: string, source: readonly (string | number)[], build: () => string): { body: string; signature: string }
  /** The body and signature kept under `key` if they were built from `source` (a hit, as in `signed`); undefined otherwise. */
  kept(key: string, source: readonly (string | number)[]): { body: string; signature: string } | undefined
  /** Whether a body is kept under `key`, whatever it was built from (nothing is refreshed). */
  has(key: string): boolean
}

/** Bounds of the signed-body cache: entries, and characters of the bodies and sources it holds. */
export const SIGNATURE_CACHE = { entries: 4096, chars: 32 * 1024 * 1024 }

export function generateSigningKey(): SigningKeyRow {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const jwk = publicKey.export({ format: 'jwk' }) as { crv: string; kty: string; x: string }
  // RFC 7638: SHA-256 over the required members in lexicographic order, base64url.
  const kid = createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })).digest('base64url')
  return {
    kid,
    publicJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid, alg: 'EdDSA', use: 'sig' },
    privatePkcs8: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  }
}

export function responseSigner(row: SigningKeyRow, limits = SIGNATURE_CACHE): ResponseSigner {
  const key = createPrivateKey(row.privatePkcs8)
  const header = protectedHeader(row.kid)
  const signNow = (body: string) => signDetached(header, body, (data) => new Uint8Array(sign(null, data, key)))
  // Least recently used first (a Map iterates in insertion order; a hit is re-inserted).
  const cache = new Map<string, Kept>()
  let chars = 0
  /** The entry kept under `key` if it was built from `source`, made most recently used; a stale one is dropped. */
  const take = (key: string, source: readonly (string | number)[]): Kept | undefined => {
    const hit = cache.get(key)
    if (!hit) return undefined
    cache.delete(key)
    chars -= hit.chars
    if (!sameSource(hit.source, source)) return undefined
    cache.set(key, hit)
    chars += hit.chars
    return hit
  }
  return {
    kid: row.kid,
    sign: signNow,
    kept: (key, source) => take(key, source),
    has: (key) => cache.has(key),
    signed(key, source, build) {
      const hit = take(key, source)
      if (hit) return hit
      const body = build()
      const kept: Kept = { source: [...source], body, signature: signNow(body), chars: body.length + sourceChars(source) }
      if (kept.chars > limits.chars) return kept
      cache.set(key, kept)
      chars += kept.chars
      for (const [k, v] of cache) {
        if (cache.size <= limits.entries && chars <= limits.chars) break
        cache.delete(k)
        chars -= v.chars
      }
      return kept
    },
  }
}

interface Kept {
  /** What the body was built from (a copy): the row's fields, without the results. */
  source: readonly (string | number)[]
  body: string
  signature: string
  /** What it holds in characters: the body and the source. */
  chars: number
}

/**
 * Whether two sources are the same fields. Compared field by field: the fields are short (the
 * row's tool, score, address, User-Agent, results size and time, some 200 characters), so a
 * copy of them costs the cache a few per cent of a body, and comparing them is cheaper than
 * hashing them was. What it guards against is a stored row that changed under its id (tasks are
 * written once).
 */
function sameSource(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

const sourceChars = (source: readonly (string | number)[]) => source.reduce<number>((n, x) => n + (typeof x === 'string' ? x.length : 8), 0)

/** Whether a private key (PEM) belongs to a public JWK's `x`. */
export function privateKeyMatches(privatePkcs8: string, publicJwk: Record<string, unknown>): boolean {
  const jwk = createPublicKey(createPrivateKey(privatePkcs8)).export({ format: 'jwk' }) as { x?: string }
  return typeof publicJwk.x === 'string' && jwk.x === publicJwk.x
}

/**
 * The stored form of an encrypted private key: `enc:v1:<iv>:<ciphertext>` (base64url), AES-256-GCM
 * (the ciphertext ends with the 16-byte tag) under a key derived from the secret with HKDF-SHA-256,
 * with `enc:v1:<kid>` as additional data, so a ciphertext cannot be moved to another key's row.
 */
export const SEALED_PREFIX = 'enc:'
const V1 = 'enc:v1'

/** Raised when a stored key cannot be read; its message says what to do. */
export class SigningKeyError extends Error {}

export interface KeyProtector {
  /** Where the secret came from, for messages (never the secret itself). */
  readonly source: string
  /** What the database stores for a private key. */
  seal(kid: string, privatePkcs8: string): Promise<string>
  /** The private key (PEM) from what the database stores. Throws SigningKeyError. */
  open(kid: string, stored: string): Promise<string>
}

const utf8 = (s: string) => new TextEncoder().encode(s)
const b64url = (b: ArrayBuffer | Uint8Array) => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('base64url')

/** A protector for a secret (at least 32 characters; src/signing-secret.ts checks). */
export async function keyProtector(secret: string, source: string): Promise<KeyProtector> {
  const base = await crypto.subtle.importKey('raw', utf8(secret), 'HKDF', false, ['deriveKey'])
  const key = await crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: utf8('antibot signing_keys.private_pkcs8'), info: utf8('AES-256-GCM v1') },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
  return {
    source,
    async seal(kid, privatePkcs8) {
      const iv = crypto.getRandomValues(new Uint8Array(12))
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(`${V1}:${kid}`) }, key, utf8(privatePkcs8))
      return `${V1}:${b64url(iv)}:${b64url(sealed)}`
    },
    async open(kid, stored) {
      if (!stored.startsWith(SEALED_PREFIX)) throw new SigningKeyError(`Cannot start: the signing key ${kid} is stored in plain text (it should have been encrypted at start-up)`)
      const parts = stored.split(':')
      if (`${parts[0]}:${parts[1]}` !== V1) {
        throw new SigningKeyError(`Cannot start: the signing key ${kid} is stored as '${parts.slice(0, 2).join(':')}', which this version of the service cannot read (was it written by a newer one?)`)
      }
      const iv = parts.length === 4 ? Buffer.from(parts[2]!, 'base64url') : null
      const sealed = parts.length === 4 ? Buffer.from(parts[3]!, 'base64url') : null
      if (!iv || !sealed || iv.length !== 12 || sealed.length < 17) throw new SigningKeyError(`Cannot start: the signing key ${kid} is stored in a damaged form (expected ${V1}:<iv>:<ciphertext>)`)
      let plain: ArrayBuffer
      try {
        plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: new Uint8Array(iv), additionalData: utf8(`${V1}:${kid}`) }, key, new Uint8Array(sealed))
      } catch {
        throw new SigningKeyError(
          `Cannot start: the signing key ${kid} in the database cannot be decrypted with ${source}. ` +
            'The database was set up with another secret: give this instance the same SIGNING_KEY_SECRET or SIGNING_KEY_SECRET_FILE as the instances that created the key (or restore the secret it was made with). ' +
            'A lost secret cannot be recovered: to start over, delete the keys (DELETE FROM signing_keys) and a new one is made at the next start; results signed before can then no longer be verified against /.well-known/jwks.json.',
        )
      }
      return new TextDecoder().decode(plain)
    },
  }
}

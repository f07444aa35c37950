// Ed25519 keys of a key directory (JWK, RFC 8037) and their RFC 7638 thumbprints: Web Bot Auth's
// `keyid` is the base64url SHA-256 thumbprint of the key, so the verifier finds a key by
// computing it, never by trusting a directory's `kid`.

import { createHash } from 'node:crypto'

export interface OkpJwk {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
  kid?: string
}

/** The directory entry as an Ed25519 public key, or null (another key type, or not a key). */
export function asEd25519(value: unknown): OkpJwk | null {
  if (typeof value !== 'object' || value === null) return null
  const k = value as Record<string, unknown>
  if (k.kty !== 'OKP' || k.crv !== 'Ed25519' || typeof k.x !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(k.x)) return null
  return { kty: 'OKP', crv: 'Ed25519', x: k.x, ...(typeof k.kid === 'string' ? { kid: k.kid } : {}) }
}

/** RFC 7638 §3.2: the required members in lexicographic order, no whitespace, SHA-256, base64url. */
export function thumbprint(jwk: OkpJwk): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${jwk.x}"}`).digest('base64url')
}

/** Whether `signature` is the key's Ed25519 signature of `data` (false for a malformed key). */
export async function verifyEd25519(jwk: OkpJwk, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
  if (signature.length !== 64) return false
  try {
    const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify'])
    return await crypto.subtle.verify('Ed25519', key, new Uint8Array(signature), new Uint8Array(data))
  } catch {
    return false
  }
}

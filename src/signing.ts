// Ed25519 signing keys for task responses: generation, the JWK form (RFC 8037) with an
// RFC 7638 thumbprint as kid, and the signer the app uses. Keys live in the database
// (db/signing-keys.ts) so every instance signs alike.

import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto'
import type { SigningKeyRow } from '../db/signing-keys'
import { protectedHeader, signDetached } from './core/jws'

export interface ResponseSigner {
  kid: string
  /** `<protected>..<signature>` over the exact body. */
  sign(body: string): string
}

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

export function responseSigner(row: SigningKeyRow): ResponseSigner {
  const key = createPrivateKey(row.privatePkcs8)
  const header = protectedHeader(row.kid)
  return { kid: row.kid, sign: (body) => signDetached(header, body, (data) => new Uint8Array(sign(null, data, key))) }
}

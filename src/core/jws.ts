// Detached JWS (RFC 7515 Appendix F) with Ed25519 (RFC 8037, alg "EdDSA") over the exact bytes
// of a response body. The header carries `<protected>..<signature>`; a client puts
// BASE64URL(body) between the dots and verifies with the key named by `kid` from
// /.well-known/jwks.json. Signing and verifying come in as functions (node:crypto in the app),
// so this module is pure.

export type Signer = (data: Uint8Array) => Uint8Array
export type Verifier = (data: Uint8Array, signature: Uint8Array) => boolean

const enc = new TextEncoder()

export function base64url(bytes: Uint8Array | string): string {
  const b = typeof bytes === 'string' ? enc.encode(bytes) : bytes
  return Buffer.from(b).toString('base64url')
}

export function fromBase64url(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null
  return new Uint8Array(Buffer.from(s, 'base64url'))
}

export function protectedHeader(kid: string): string {
  return base64url(JSON.stringify({ alg: 'EdDSA', kid, typ: 'JOSE' }))
}

/** `<protected>..<signature>` for the body. `header` is protectedHeader(kid), computed once. */
export function signDetached(header: string, body: string | Uint8Array, sign: Signer): string {
  const input = enc.encode(`${header}.${base64url(body)}`)
  return `${header}..${base64url(sign(input))}`
}

export type VerifyResult = { ok: true; kid: string } | { ok: false; reason: string }

/** Verifies a detached JWS against the body, looking the key up by kid. */
export function verifyDetached(jws: string, body: string | Uint8Array, keyFor: (kid: string) => Verifier | undefined): VerifyResult {
  const parts = jws.split('.')
  if (parts.length !== 3 || parts[1] !== '') return { ok: false, reason: 'not a detached JWS (<header>..<signature>)' }
  const [header, , sig] = parts as [string, string, string]
  const headerBytes = fromBase64url(header)
  const sigBytes = fromBase64url(sig)
  if (!headerBytes || !sigBytes) return { ok: false, reason: 'not base64url' }
  let parsed: { alg?: unknown; kid?: unknown }
  try {
    parsed = JSON.parse(new TextDecoder().decode(headerBytes))
  } catch {
    return { ok: false, reason: 'header is not JSON' }
  }
  if (parsed.alg !== 'EdDSA' || typeof parsed.kid !== 'string') return { ok: false, reason: 'header must name alg EdDSA and a kid' }
  const verify = keyFor(parsed.kid)
  if (!verify) return { ok: false, reason: `unknown kid '${parsed.kid}'` }
  const input = enc.encode(`${header}.${base64url(body)}`)
  return verify(input, sigBytes) ? { ok: true, kid: parsed.kid } : { ok: false, reason: 'signature does not match' }
}

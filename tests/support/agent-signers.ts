// Real Web Bot Auth signers from the npm registry, for the tests of issue 60: `web-bot-auth`
// (Cloudflare's, the legacy form: Signature-Agent a single String, covered as "signature-agent")
// and `http-message-sig` 0.3 (the dictionary form: Signature-Agent a Dictionary whose member the
// signature covers with `component("signature-agent", { key })`). Each returns the headers to add.

import { component, createSignature } from 'http-message-sig'
import { directoryResponseHeaders, signatureHeaders } from 'web-bot-auth'
import { signerFromJWK } from 'web-bot-auth/crypto'
import { generateKeyPairSync } from 'node:crypto'
import { thumbprint } from '../../src/agents/jwk'

export interface AgentKey {
  /** The private JWK (d, x). */
  jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; d: string }
  /** The public JWK as a directory serves it, its kid the thumbprint. */
  publicJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string }
  keyid: string
}

export function makeAgentKey(): AgentKey {
  const { privateKey } = generateKeyPairSync('ed25519')
  const jwk = privateKey.export({ format: 'jwk' }) as { kty: 'OKP'; crv: 'Ed25519'; x: string; d: string }
  const keyid = thumbprint({ kty: 'OKP', crv: 'Ed25519', x: jwk.x })
  return { jwk, publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: keyid }, keyid }
}

export interface SignOptions {
  /** Seconds since the epoch; the lifetime in seconds (default 300). */
  created: number
  lifetime?: number
  /** The Signature-Agent value's URL (an origin: its well-known directory). */
  agent: string
}

/** web-bot-auth 0.1: the legacy form. */
export async function signLegacy(url: string, method: string, key: AgentKey, o: SignOptions): Promise<Record<string, string>> {
  const agentHeader = JSON.stringify(o.agent)
  const req = new Request(url, { method, headers: { 'signature-agent': agentHeader } })
  const signer = await signerFromJWK({ ...key.jwk, kid: key.keyid } as JsonWebKey)
  const h = await signatureHeaders(req, signer, { created: new Date(o.created * 1000), expires: new Date((o.created + (o.lifetime ?? 300)) * 1000) })
  return { 'signature-agent': agentHeader, signature: h.Signature, 'signature-input': h['Signature-Input'] }
}

/** http-message-sig 0.3: the dictionary form, with the member's `type`. */
export async function signDictionary(
  url: string,
  method: string,
  key: AgentKey,
  o: SignOptions & { keyid?: string; components?: Array<string | ReturnType<typeof component>>; tag?: string },
): Promise<Record<string, string>> {
  const agentHeader = `agent1=${JSON.stringify(o.agent)};type="jwks_uri"`
  const req = new Request(url, { method, headers: { 'signature-agent': agentHeader } })
  const priv = await crypto.subtle.importKey('jwk', key.jwk, { name: 'Ed25519' }, false, ['sign'])
  const fields = await createSignature(req, {
    label: 'sig1',
    components: o.components ?? ['@method', '@authority', '@path', component('signature-agent', { key: 'agent1' })],
    parameters: { created: o.created, expires: o.created + (o.lifetime ?? 300), keyid: o.keyid ?? key.keyid, alg: 'ed25519', tag: o.tag ?? 'web-bot-auth' },
    signer: { algorithm: 'ed25519', sign: async (d: Uint8Array) => new Uint8Array(await crypto.subtle.sign('Ed25519', priv, new Uint8Array(d))) },
  })
  return { 'signature-agent': agentHeader, signature: fields.signature, 'signature-input': fields.signatureInput }
}

/** web-bot-auth's signature of a directory response (tag "http-message-signatures-directory", over "@authority";req). */
export async function signDirectory(request: Request, key: AgentKey, created: number): Promise<Record<string, string>> {
  const signer = await signerFromJWK({ ...key.jwk, kid: key.keyid } as JsonWebKey)
  const h = await directoryResponseHeaders({ request, response: new Response(null) }, [signer], { created: new Date(created * 1000), expires: new Date((created + 300) * 1000) })
  return { signature: h.Signature, 'signature-input': h['Signature-Input'] }
}

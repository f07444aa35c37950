import { describe, expect, test } from 'bun:test'
import { generateKeyPairSync, sign, verify } from 'node:crypto'
import { base64url, protectedHeader, signDetached, verifyDetached } from './jws'

const { privateKey, publicKey } = generateKeyPairSync('ed25519')
const signer = (d: Uint8Array) => new Uint8Array(sign(null, d, privateKey))
const verifier = (d: Uint8Array, s: Uint8Array) => verify(null, d, publicKey, s)
const keys = (kid: string) => (kid === 'k1' ? verifier : undefined)

describe('detached JWS', () => {
  const body = '{"task_id":"x","score":97}'
  const jws = signDetached(protectedHeader('k1'), body, signer)

  test('has an empty payload part and an EdDSA header naming the key', () => {
    const [h, p, s] = jws.split('.')
    expect(p).toBe('')
    expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toEqual({ alg: 'EdDSA', kid: 'k1', typ: 'JOSE' })
    expect(Buffer.from(s!, 'base64url')).toHaveLength(64)
  })
  test('verifies against the exact body', () => {
    expect(verifyDetached(jws, body, keys)).toEqual({ ok: true, kid: 'k1' })
  })
  test('fails for a body changed by one character', () => {
    expect(verifyDetached(jws, body.replace('97', '98'), keys)).toEqual({ ok: false, reason: 'signature does not match' })
  })
  test('fails for an unknown key, a mangled header and an attached payload', () => {
    expect(verifyDetached(signDetached(protectedHeader('k2'), body, signer), body, keys).ok).toBe(false)
    expect(verifyDetached(`x${jws}`, body, keys).ok).toBe(false)
    const [h, , s] = jws.split('.')
    expect(verifyDetached(`${h}.${base64url(body)}.${s}`, body, keys).ok).toBe(false)
  })
})

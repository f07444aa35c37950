import { describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { verifyDetached } from './core/jws'
import { generateSigningKey, responseSigner } from './signing'

const row = generateSigningKey()
const verifies = (jws: string, body: string) =>
  verifyDetached(jws, body, (kid) => (kid === row.kid ? (data, sig) => verify(null, data, createPublicKey({ key: row.publicJwk as never, format: 'jwk' }), sig) : undefined)).ok

describe('response signer', () => {
  test('a cached signature is the one signing afresh gives (Ed25519 is deterministic)', () => {
    const cached = responseSigner(row)
    const fresh = responseSigner(row)
    const body = '{"task_id":"a","score":1}'
    const first = cached.sign(body, 'a')
    expect(cached.sign(body, 'a')).toBe(first)
    expect(fresh.sign(body)).toBe(first)
    expect(verifies(first, body)).toBe(true)
  })

  test('a body that changed under the same key is signed again, never given the old signature', () => {
    const signer = responseSigner(row)
    const a = signer.sign('{"v":1}', 't')
    const b = signer.sign('{"v":2}', 't')
    expect(b).not.toBe(a)
    expect(verifies(b, '{"v":2}')).toBe(true)
    expect(verifies(a, '{"v":2}')).toBe(false)
    expect(signer.sign('{"v":1}', 't')).toBe(a)
  })

  test('stays within its bounds of entries and characters, and every answer verifies', () => {
    const signer = responseSigner(row, { entries: 3, chars: 40 })
    const bodies = Array.from({ length: 10 }, (_, i) => `{"i":${i},"pad":"${'x'.repeat(i)}"}`)
    for (let round = 0; round < 3; round++) {
      for (const [i, body] of bodies.entries()) expect(verifies(signer.sign(body, String(i)), body)).toBe(true)
    }
    // A body longer than the whole budget is signed and not kept.
    const long = `{"pad":"${'y'.repeat(100)}"}`
    expect(verifies(signer.sign(long, 'long'), long)).toBe(true)
  })
})

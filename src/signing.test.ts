import { describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { verifyDetached } from './core/jws'
import { generateSigningKey, responseSigner } from './signing'

const row = generateSigningKey()
const verifies = (jws: string, body: string) =>
  verifyDetached(jws, body, (kid) => (kid === row.kid ? (data, sig) => verify(null, data, createPublicKey({ key: row.publicJwk as never, format: 'jwk' }), sig) : undefined)).ok

/** A build function that returns `body` and counts its calls. */
function counted() {
  const c = {
    n: 0,
    of: (body: string) => () => {
      c.n++
      return body
    },
  }
  return c
}

describe('response signer', () => {
  test('a kept body and signature are the ones building and signing afresh give (Ed25519 is deterministic)', () => {
    const cached = responseSigner(row)
    const fresh = responseSigner(row)
    let builds = 0
    const build = () => {
      builds++
      return `{"task_id":"a","score":${'1'}}`
    }
    const first = cached.signed('a', ['row', 1], build)
    expect(cached.signed('a', ['row', 1], build)).toEqual(first)
    expect(builds).toBe(1)
    expect(first.body).toBe('{"task_id":"a","score":1}')
    expect(fresh.sign(first.body)).toBe(first.signature)
    expect(verifies(first.signature, first.body)).toBe(true)
  })

  test('kept answers only for the source it was built from; has says whether anything is kept', () => {
    const signer = responseSigner(row)
    expect(signer.has('k')).toBe(false)
    expect(signer.kept('k', ['x', 1])).toBeUndefined()
    const a = signer.signed('k', ['x', 1], () => '{"v":1}')
    expect(signer.has('k')).toBe(true)
    expect(signer.kept('k', ['x', 1])).toEqual(a)
    // Another source drops what was kept: nothing stale is answered later.
    expect(signer.kept('k', ['x', 2])).toBeUndefined()
    expect(signer.has('k')).toBe(false)
    expect(signer.kept('k', ['x', 1])).toBeUndefined()
  })

  test('a source that changed in any field is built and signed again, never given the old answer', () => {
    const signer = responseSigner(row)
    const a = signer.signed('t', ['x', 1], () => '{"v":1}')
    for (const source of [['x', 2], ['y', 1], ['x', 1, 'z'], ['x']] as const) {
      const b = signer.signed('t', source, () => '{"v":2}')
      expect(b.body).toBe('{"v":2}')
      expect(verifies(b.signature, '{"v":2}')).toBe(true)
      expect(verifies(a.signature, '{"v":2}')).toBe(false)
      expect(signer.signed('t', ['x', 1], () => '{"v":1}')).toEqual(a)
    }
  })

  test('stays within its bounds of entries and characters, and every answer verifies', () => {
    const signer = responseSigner(row, { entries: 3, chars: 60 })
    const bodies = Array.from({ length: 10 }, (_, i) => `{"i":${i},"pad":"${'x'.repeat(i)}"}`)
    const builds = counted()
    for (let round = 0; round < 3; round++) {
      for (const [i, body] of bodies.entries()) {
        const got = signer.signed(String(i), [String(i)], builds.of(body))
        expect(got.body).toBe(body)
        expect(verifies(got.signature, body)).toBe(true)
      }
    }
    // Ten keys through three places: every answer was built afresh.
    expect(builds.n).toBe(30)
    // An answer longer than the whole budget is signed and not kept.
    const long = `{"pad":"${'y'.repeat(100)}"}`
    const longBuilds = counted()
    for (let i = 0; i < 2; i++) expect(verifies(signer.signed('long', ['l'], longBuilds.of(long)).signature, long)).toBe(true)
    expect(longBuilds.n).toBe(2)
    // Within the bounds, the last ones used are kept.
    const kept = responseSigner(row, { entries: 3, chars: 1000 })
    const keptBuilds = counted()
    for (let round = 0; round < 3; round++) for (const i of [1, 2, 3]) kept.signed(String(i), ['s'], keptBuilds.of(bodies[i]!))
    expect(keptBuilds.n).toBe(3)
  })
})

// The test helpers that make identifiers (issue 43): 100,000 of each, no duplicate, each in the
// alphabet the code that takes it accepts.

import { describe, expect, test } from 'bun:test'
import { isNonce } from '../../src/core/nonce'
import { base32, base32Counter, processLoopbackAddress, uniqueDatabaseName, uniqueEmail, uniqueName, uniqueNonce } from './unique'

const N = 100_000

function allDistinct(make: (i: number) => string, check?: (id: string) => void): void {
  const seen = new Set<string>()
  for (let i = 0; i < N; i++) {
    const id = make(i)
    check?.(id)
    seen.add(id)
  }
  expect(seen.size).toBe(N)
}

describe('unique test identifiers', () => {
  test('uniqueNonce: 100,000 distinct page nonces, every one accepted by isNonce', () => {
    let bad = 0
    allDistinct(uniqueNonce, (n) => {
      if (!isNonce(n)) bad++
    })
    expect(bad).toBe(0)
  })

  test('uniqueName and uniqueEmail: 100,000 distinct each, also across tags that share a prefix', () => {
    allDistinct((i) => uniqueName(i % 2 ? 'a' : 'a-b'))
    allDistinct((i) => uniqueEmail(i % 2 ? 'x' : 'x-1'), (e) => expect(e).toMatch(/^[a-z0-9-]+@example\.test$/))
  })

  test('uniqueDatabaseName: 100,000 distinct names PostgreSQL takes unquoted', () => {
    allDistinct(() => uniqueDatabaseName('antibot_t'), (n) => {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(n)) throw new Error(`bad database name ${n}`)
    })
  })

  test('processLoopbackAddress: 100,000 pids, 100,000 addresses, all in 127.64.0.0/10', () => {
    allDistinct(
      (i) => processLoopbackAddress(i * 41 + 7),
      (a) => {
        const [first, second] = a.split('.').map(Number)
        if (first !== 127 || second! < 64 || second! > 127) throw new Error(`address ${a} is outside 127.64.0.0/10`)
      },
    )
    expect(() => processLoopbackAddress(2 ** 22)).toThrow()
  })

  test('the encodings lose nothing: base32 of distinct bytes and counters of distinct numbers differ', () => {
    allDistinct((i) => base32(new Uint8Array([i >> 16, (i >> 8) & 255, i & 255])))
    allDistinct((i) => base32Counter(i * 977, 10))
    // The lossy mapping issue 43 found: base-32 digits 0, 1, 8 and 9 all became `b`.
    expect(base32Counter(0, 2)).not.toBe(base32Counter(1, 2))
    expect(base32(new Uint8Array([0xff, 0x00]))).toBe('74aa')
    expect(() => base32Counter(32 ** 2, 2)).toThrow()
  })
})

import { describe, expect, test } from 'bun:test'
import { DROPPED_LISTED, keptMembers, UNVERIFIED_REASONS, unverifiedOf } from './verified'

describe('unverifiedOf: a task is verified only when the service judged it, for a page load it rendered', () => {
  test('judged by the service with the live nonce: verified, whether the page sent signals or the client none', () => {
    expect(unverifiedOf('signals', 'valid')).toBeNull()
    expect(unverifiedOf('unsent', 'valid')).toBeNull()
  })

  test('a spec-shaped body is the client’s word whatever nonce it carries, the live one included', () => {
    for (const nonce of ['valid', 'missing', 'unknown', 'expired', 'wrong-tool', undefined]) {
      expect(unverifiedOf('spec', nonce)).toEqual({ code: 'client-scored', reason: UNVERIFIED_REASONS['client-scored'] })
    }
  })

  test('without a live nonce, the reason is the nonce’s state; no nonce at all is `missing`', () => {
    expect(unverifiedOf('signals', undefined)?.code).toBe('nonce-missing')
    expect(unverifiedOf('signals', 'missing')?.code).toBe('nonce-missing')
    expect(unverifiedOf('unsent', 'unknown')?.code).toBe('nonce-unknown')
    expect(unverifiedOf('signals', 'expired')?.code).toBe('nonce-expired')
    expect(unverifiedOf('signals', 'wrong-tool')?.code).toBe('nonce-wrong-tool')
    expect(unverifiedOf('signals', 'used')?.code).toBe('nonce-used')
  })
})

describe('keptMembers: a task keeps only what its judging read', () => {
  test('the page’s body keeps its signals; the service’s own members beside them are dropped and named in order', () => {
    const { kept, dropped } = keptMembers('signals', { verdict: 'human', signals: { a: 1 }, summary: { score: 100 }, checks: [], leaks: {} })
    expect(kept).toEqual({ signals: { a: 1 } })
    expect(dropped).toEqual(['verdict', 'summary', 'checks', 'leaks'])
  })

  test('a spec body keeps its six sections as sent; its summary is read, not kept (the service computes its own), and is not named', () => {
    const sections = { leaks: 1, navigator: 2, screen: 3, webgl: 4, canvas: 5, scoring: 6 }
    const { kept, dropped } = keptMembers('spec', { summary: {}, ...sections, verdict: 'human', frameworks: [] })
    expect(kept).toEqual(sections)
    expect(dropped).toEqual(['verdict', 'frameworks'])
  })

  test('a client without signals keeps nothing of its results', () => {
    expect(keptMembers('unsent', { tls: { ja4: 'forged' }, tested: true })).toEqual({ kept: {}, dropped: ['tls', 'tested'] })
    expect(keptMembers('unsent', {})).toEqual({ kept: {}, dropped: [] })
  })

  test('the list is bounded: the first 16 names, each cut to 64 characters', () => {
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${'x'.repeat(100)}${i}`, i]))
    const { dropped } = keptMembers('unsent', many)
    expect(dropped).toHaveLength(DROPPED_LISTED)
    expect(dropped[0]).toBe(`${'x'.repeat(64)}…`)
  })
})

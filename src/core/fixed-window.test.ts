import { describe, expect, test } from 'bun:test'
import { afterHit, decideBlocked, decideHit, DEFAULT_MISS_LIMIT, parseWindowPolicy, type WindowState } from './fixed-window'

const policy = { max: 3, windowSeconds: 60 }
const t0 = new Date('2026-11-15T12:00:00Z')
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000)

function hits(n: number, when = t0): WindowState | null {
  let s: WindowState | null = null
  for (let i = 0; i < n; i++) s = afterHit(policy, s, when)
  return s
}

describe('afterHit', () => {
  test('opens a window at the first hit', () => {
    expect(afterHit(policy, null, t0)).toEqual({ count: 1, windowStartedAt: t0 })
  })

  test('counts further hits in the window without moving its start', () => {
    expect(afterHit(policy, hits(2), at(59))).toEqual({ count: 3, windowStartedAt: t0 })
  })

  test('opens a new window once the old one has ended', () => {
    expect(afterHit(policy, hits(5), at(60))).toEqual({ count: 1, windowStartedAt: at(60) })
  })
})

describe('decideHit (submissions: the hit is already counted)', () => {
  test('allows up to the maximum in one window', () => {
    for (let n = 1; n <= 3; n++) expect(decideHit(policy, hits(n)!, at(1))).toEqual({ ok: true })
  })

  test('refuses the hit after the maximum, with the seconds left in the window', () => {
    expect(decideHit(policy, hits(4)!, at(1))).toEqual({ ok: false, retryAfterSeconds: 59 })
    expect(decideHit(policy, hits(4)!, at(59.5))).toEqual({ ok: false, retryAfterSeconds: 1 })
  })

  test('never asks to wait less than one second', () => {
    expect(decideHit(policy, hits(9)!, at(59.999))).toEqual({ ok: false, retryAfterSeconds: 1 })
  })
})

describe('decideBlocked (misses: nothing counted yet)', () => {
  test('allows a subject with no window', () => {
    expect(decideBlocked(policy, null, t0)).toEqual({ ok: true })
  })

  test('allows while misses are below the maximum', () => {
    expect(decideBlocked(policy, hits(2), at(1))).toEqual({ ok: true })
  })

  test('refuses once misses reach the maximum, until the window ends', () => {
    expect(decideBlocked(policy, hits(3), at(1))).toEqual({ ok: false, retryAfterSeconds: 59 })
    expect(decideBlocked(policy, hits(3), at(60))).toEqual({ ok: true })
  })

  test('the default allows 100 misses per 10 minutes', () => {
    expect(DEFAULT_MISS_LIMIT).toEqual({ max: 100, windowSeconds: 600 })
  })
})

describe('parseWindowPolicy', () => {
  test('reads <max>/<seconds>', () => {
    expect(parseWindowPolicy('120/60')).toEqual({ max: 120, windowSeconds: 60 })
    expect(parseWindowPolicy(' 5 / 1 ')).toEqual({ max: 5, windowSeconds: 1 })
  })

  test('refuses zero, negatives, fractions, missing parts and other text', () => {
    for (const bad of ['0/60', '10/0', '-1/60', '1.5/60', '10', '/60', '10/', '10/60/2', 'ten/60', '1e3/60', '']) {
      expect(parseWindowPolicy(bad)).toBeNull()
    }
  })
})

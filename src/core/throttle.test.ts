import { describe, expect, test } from 'bun:test'
import { afterFailure, decideLoginThrottle, decideThrottle, LOGIN_THROTTLE, type ThrottleState } from './throttle'

const policy = { maxFailures: 3, windowSeconds: 600 }
const t0 = new Date('2026-11-15T12:00:00Z')
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000)

function fail(times: number, start = t0): ThrottleState | null {
  let s: ThrottleState | null = null
  for (let i = 0; i < times; i++) s = afterFailure(policy, s, start)
  return s
}

describe('decideThrottle', () => {
  test('allows a subject that never failed', () => {
    expect(decideThrottle(policy, null, t0)).toEqual({ ok: true })
  })

  test('allows while failures are below the maximum', () => {
    expect(decideThrottle(policy, fail(2), at(1))).toEqual({ ok: true })
  })

  test('refuses when failures equal the maximum, until the window ends', () => {
    expect(decideThrottle(policy, fail(3), at(1))).toEqual({ ok: false, retryAfterSeconds: 599 })
    expect(decideThrottle(policy, fail(3), at(599.2))).toEqual({ ok: false, retryAfterSeconds: 1 })
  })

  test('allows again once the window has ended', () => {
    expect(decideThrottle(policy, fail(3), at(600))).toEqual({ ok: true })
  })
})

describe('afterFailure', () => {
  test('opens a window at the first failure', () => {
    expect(afterFailure(policy, null, t0)).toEqual({ failures: 1, windowStartedAt: t0 })
  })

  test('counts further failures in the same window without moving its start', () => {
    const s = afterFailure(policy, afterFailure(policy, null, t0), at(30))
    expect(s).toEqual({ failures: 2, windowStartedAt: t0 })
  })

  test('starts a new window after the old one ended', () => {
    expect(afterFailure(policy, fail(3), at(600))).toEqual({ failures: 1, windowStartedAt: at(600) })
  })
})

describe('decideLoginThrottle', () => {
  test('allows when every scope allows', () => {
    expect(decideLoginThrottle([{ policy, state: null }, { policy, state: fail(1) }], at(1))).toEqual({ ok: true })
  })

  test('refuses when any scope refuses, with the longest wait', () => {
    const early = fail(3, t0)
    const late = fail(3, at(100))
    expect(decideLoginThrottle([{ policy, state: early }, { policy, state: late }], at(200))).toEqual({ ok: false, retryAfterSeconds: 500 })
  })

  test('the shipped policy gives addresses more room than accounts', () => {
    expect(LOGIN_THROTTLE.account.maxFailures).toBe(5)
    expect(LOGIN_THROTTLE.address.maxFailures).toBeGreaterThan(LOGIN_THROTTLE.account.maxFailures)
  })
})

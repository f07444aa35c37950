import { describe, expect, test } from 'bun:test'
import { afterHit, decideBlocked, type WindowState } from './fixed-window'
import { decideLoginThrottle, LOGIN_THROTTLE, LONGEST_ACCOUNT_WINDOW_SECONDS, SIGNUP_THROTTLE } from './throttle'

// A log-in attempt is one hit of the fixed-window limiter, counted before its password is checked;
// the attempt is judged while its window holds at most `max`.
const policy = { max: 3, windowSeconds: 600 }
const t0 = new Date('2026-11-15T12:00:00Z')
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000)

function fail(times: number, start = t0): WindowState | null {
  let s: WindowState | null = null
  for (let i = 0; i < times; i++) s = afterHit(policy, s, start)
  return s
}

describe('decideBlocked (log-in failures)', () => {
  test('allows a subject that never failed', () => {
    expect(decideBlocked(policy, null, t0)).toEqual({ ok: true })
  })

  test('allows while failures are below the maximum', () => {
    expect(decideBlocked(policy, fail(2), at(1))).toEqual({ ok: true })
  })

  test('refuses when failures equal the maximum, until the window ends', () => {
    expect(decideBlocked(policy, fail(3), at(1))).toEqual({ ok: false, retryAfterSeconds: 599 })
    expect(decideBlocked(policy, fail(3), at(599.2))).toEqual({ ok: false, retryAfterSeconds: 1 })
  })

  test('allows again once the window has ended', () => {
    expect(decideBlocked(policy, fail(3), at(600))).toEqual({ ok: true })
  })
})

describe('afterHit (log-in failures)', () => {
  test('opens a window at the first failure', () => {
    expect(afterHit(policy, null, t0)).toEqual({ count: 1, windowStartedAt: t0 })
  })

  test('counts further failures in the same window without moving its start', () => {
    const s = afterHit(policy, afterHit(policy, null, t0), at(30))
    expect(s).toEqual({ count: 2, windowStartedAt: t0 })
  })

  test('starts a new window after the old one ended', () => {
    expect(afterHit(policy, fail(3), at(600))).toEqual({ count: 1, windowStartedAt: at(600) })
  })
})

describe('decideLoginThrottle (windows already counting this attempt)', () => {
  test('allows while every counted subject is within its maximum', () => {
    expect(decideLoginThrottle([{ policy, after: fail(3) }, { policy, after: fail(1) }], at(1))).toEqual({ ok: true })
  })

  test('refuses when any subject is over, with the longest wait', () => {
    const early = fail(4, t0)
    const late = fail(4, at(100))
    expect(decideLoginThrottle([{ policy, after: early }, { policy, after: late }], at(200))).toEqual({ ok: false, retryAfterSeconds: 500 })
  })

  test('a subject that was not counted (an earlier one refused) does not decide', () => {
    expect(decideLoginThrottle([{ policy, after: fail(4) }, { policy, after: null }], at(1))).toEqual({ ok: false, retryAfterSeconds: 599 })
    expect(decideLoginThrottle([{ policy, after: fail(1) }, { policy, after: null }], at(1))).toEqual({ ok: true })
  })

  test('the shipped policy: the address strictly, the account with five times the room', () => {
    expect(LOGIN_THROTTLE.address).toEqual({ max: 10, windowSeconds: 900 })
    expect(LOGIN_THROTTLE.account).toEqual({ max: 50, windowSeconds: 900 })
    expect(SIGNUP_THROTTLE).toEqual({ max: 10, windowSeconds: 3600 })
    expect(LONGEST_ACCOUNT_WINDOW_SECONDS).toBe(3600)
  })
})

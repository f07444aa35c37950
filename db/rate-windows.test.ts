// hitGatedWindows and forgiveHit (db/rate-windows.ts), on each driver: the second subject is
// counted only while the first is within its limit, windows roll over as afterHit() says, each
// concurrent caller gets its own count, and a forgiven hit is taken back only from its window.

import { describe, expect, test } from 'bun:test'
import { afterHit, type WindowPolicy, type WindowState } from '../src/core/fixed-window'
import { testDrivers } from '../tests/support/db'
import { useTestDatabase } from '../tests/support/db-suite'
import type { Db } from './client'
import { forgiveHit, getWindow, hitGatedWindows, type RateSubject } from './rate-windows'
import { uniqueName } from '../tests/support/unique'

const T0 = new Date('2026-11-15T12:00:00Z')
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000)
const unique = (tag: string) => uniqueName(tag)

describe.each(testDrivers())('gated fixed windows on %s', (driver) => {
  let db: Db
  useTestDatabase(driver, (t) => (db = t.db))

  const gate: WindowPolicy = { max: 3, windowSeconds: 60 }
  const inner: WindowPolicy = { max: 100, windowSeconds: 600 }
  const pair = () => {
    const first: RateSubject = { scope: 'login_address', subject: unique('first') }
    const second: RateSubject = { scope: 'login_account', subject: unique('second') }
    return { first: { ...first, policy: gate }, second: { ...second, policy: inner } }
  }

  test('counts both while the first is within its limit, then only the first, as afterHit() says', async () => {
    const p = pair()
    let first: WindowState | null = null
    let second: WindowState | null = null
    for (const s of [0, 1, 2, 3, 4, 59.999, 60, 61]) {
      const now = at(s)
      first = afterHit(gate, first, now)
      const gotThrough = first.count <= gate.max
      if (gotThrough) second = afterHit(inner, second, now)
      const got = await hitGatedWindows(db, { ...p, now })
      expect(got).toEqual({ first, second: gotThrough ? second : null })
    }
    expect(await getWindow(db, p.second)).toEqual({ count: 5, windowStartedAt: T0 })
  })

  test('concurrent callers each get their own count: exactly `max` get through', async () => {
    const p = pair()
    const got = await Promise.all(Array.from({ length: 20 }, () => hitGatedWindows(db, { ...p, now: T0 })))
    expect(got.map((g) => g.first.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(got.filter((g) => g.second !== null)).toHaveLength(gate.max)
    expect((await getWindow(db, p.second))?.count).toBe(gate.max)
  })

  test('refuses to gate a subject on itself', async () => {
    const p = pair()
    await expect(hitGatedWindows(db, { first: p.first, second: { ...p.first }, now: T0 })).rejects.toThrow('same subject')
  })

  test('forgiveHit takes back one hit of the same window only, never below zero', async () => {
    const p = pair()
    const { first } = await hitGatedWindows(db, { ...p, now: T0 })
    await hitGatedWindows(db, { ...p, now: at(1) })
    await forgiveHit(db, p.first, first.windowStartedAt)
    expect((await getWindow(db, p.first))?.count).toBe(1)
    await forgiveHit(db, p.first, first.windowStartedAt)
    await forgiveHit(db, p.first, first.windowStartedAt)
    expect((await getWindow(db, p.first))?.count).toBe(0)
    // A new window has started since: a hit of the old one is not taken from it.
    await hitGatedWindows(db, { ...p, now: at(60) })
    await forgiveHit(db, p.first, first.windowStartedAt)
    expect(await getWindow(db, p.first)).toEqual({ count: 1, windowStartedAt: at(60) })
  })
})

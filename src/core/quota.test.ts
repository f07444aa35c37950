import { describe, expect, test } from 'bun:test'
import { decideFetch, decideQuota, keyUsable, type FetchObservation } from './quota'

const NOW = new Date('2026-11-15T12:00:00Z')

describe('decideQuota', () => {
  test('allows while used is below the limit', () => {
    expect(decideQuota({ monthlyLimit: 10 }, 0)).toEqual({ allowed: true, remaining: 10 })
    expect(decideQuota({ monthlyLimit: 10 }, 9)).toEqual({ allowed: true, remaining: 1 })
  })
  test('denies when used equals the limit', () => {
    expect(decideQuota({ monthlyLimit: 10 }, 10)).toEqual({ allowed: false, remaining: 0 })
  })
  test('denies with 0 remaining when used is above the limit (plan lowered mid-month)', () => {
    expect(decideQuota({ monthlyLimit: 10 }, 25)).toEqual({ allowed: false, remaining: 0 })
  })
  test('denies everything on a zero limit', () => {
    expect(decideQuota({ monthlyLimit: 0 }, 0)).toEqual({ allowed: false, remaining: 0 })
  })
})

describe('keyUsable', () => {
  test('accepts an active key without expiry', () => {
    expect(keyUsable({ status: 'active', expiresAt: null }, NOW)).toEqual({ ok: true })
  })
  test('accepts an active key expiring after now', () => {
    expect(keyUsable({ status: 'active', expiresAt: new Date(NOW.getTime() + 1) }, NOW)).toEqual({ ok: true })
  })
  test('counts an expiry equal to now as expired', () => {
    expect(keyUsable({ status: 'active', expiresAt: new Date(NOW) }, NOW)).toEqual({ ok: false, code: 'expired' })
  })
  test('refuses an expiry in the past', () => {
    expect(keyUsable({ status: 'active', expiresAt: new Date('2020-01-01T00:00:00Z') }, NOW)).toEqual({ ok: false, code: 'expired' })
  })
  test('refuses an inactive key, before looking at its expiry', () => {
    expect(keyUsable({ status: 'inactive', expiresAt: null }, NOW)).toEqual({ ok: false, code: 'inactive' })
    expect(keyUsable({ status: 'inactive', expiresAt: new Date('2020-01-01T00:00:00Z') }, NOW)).toEqual({ ok: false, code: 'inactive' })
  })
})

describe('decideFetch', () => {
  const task = { id: 't' }
  type Obs = FetchObservation<typeof task>
  const key = (over: Partial<NonNullable<Obs['key']>> = {}): NonNullable<Obs['key']> => ({
    id: 'k',
    status: 'active',
    expiresAt: null,
    monthlyLimit: 5,
    usedBefore: 2,
    ...over,
  })

  test('401 (invalid_key) when the key does not exist, whatever the task', () => {
    expect(decideFetch<typeof task>({ key: null, task: null, usedAfter: null }, NOW)).toEqual({ ok: false, code: 'invalid_key' })
    expect(decideFetch({ key: null, task, usedAfter: null }, NOW)).toEqual({ ok: false, code: 'invalid_key' })
  })

  test('403 inactive even when the task exists and quota is left', () => {
    expect(decideFetch({ key: key({ status: 'inactive' }), task, usedAfter: null }, NOW)).toEqual({ ok: false, code: 'inactive', limit: 5, used: 2 })
  })

  test('403 expired when the expiry is now', () => {
    expect(decideFetch({ key: key({ expiresAt: new Date(NOW) }), task, usedAfter: null }, NOW)).toEqual({ ok: false, code: 'expired', limit: 5, used: 2 })
  })

  test('403 for a key at its limit', () => {
    expect(decideFetch({ key: key({ usedBefore: 5 }), task, usedAfter: null }, NOW)).toEqual({ ok: false, code: 'limit', limit: 5, used: 5 })
  })

  test('403 beats 404 for an exhausted key', () => {
    expect(decideFetch<typeof task>({ key: key({ usedBefore: 5 }), task: null, usedAfter: null }, NOW)).toMatchObject({ ok: false, code: 'limit' })
  })

  test('403 beats 404 for an inactive or expired key', () => {
    expect(decideFetch<typeof task>({ key: key({ status: 'inactive' }), task: null, usedAfter: null }, NOW)).toMatchObject({ code: 'inactive' })
    expect(decideFetch<typeof task>({ key: key({ expiresAt: new Date(0) }), task: null, usedAfter: null }, NOW)).toMatchObject({ code: 'expired' })
  })

  test('403 with used capped at the limit when the plan was lowered below the count', () => {
    expect(decideFetch({ key: key({ monthlyLimit: 3, usedBefore: 7 }), task, usedAfter: null }, NOW)).toEqual({ ok: false, code: 'limit', limit: 3, used: 7 })
  })

  test('404 when the key is usable but the task does not exist', () => {
    expect(decideFetch<typeof task>({ key: key(), task: null, usedAfter: null }, NOW)).toEqual({ ok: false, code: 'not_found', limit: 5, used: 2 })
  })

  test('200 with the count after the increment', () => {
    expect(decideFetch({ key: key(), task, usedAfter: 3 }, NOW)).toEqual({ ok: true, task, limit: 5, used: 3 })
  })

  test('200 for the last unit: used before is limit - 1, used after is the limit', () => {
    expect(decideFetch({ key: key({ usedBefore: 4 }), task, usedAfter: 5 }, NOW)).toEqual({ ok: true, task, limit: 5, used: 5 })
  })

  test('403 when a concurrent request took the last unit (no increment although the snapshot had room)', () => {
    expect(decideFetch({ key: key({ usedBefore: 4 }), task, usedAfter: null }, NOW)).toEqual({ ok: false, code: 'limit', limit: 5, used: 5 })
  })

  test('403 on a zero limit even for an existing task', () => {
    expect(decideFetch({ key: key({ monthlyLimit: 0, usedBefore: 0 }), task, usedAfter: null }, NOW)).toMatchObject({ ok: false, code: 'limit' })
  })

  describe('with a miss block (db/rate-windows.ts recordMiss)', () => {
    const until = new Date(NOW.getTime() + 540_000)

    test('429 for any id while the key is blocked for its misses, with the seconds left', () => {
      const blocked = { ok: false as const, code: 'too_many_misses' as const, limit: 5, used: 2, retryAfterSeconds: 540 }
      expect(decideFetch({ key: key({ missesBlockedUntil: until }), task, usedAfter: null }, NOW)).toEqual(blocked)
      expect(decideFetch<typeof task>({ key: key({ missesBlockedUntil: until }), task: null, usedAfter: null }, NOW)).toEqual(blocked)
      expect(decideFetch({ key: key({ missesBlockedUntil: new Date(NOW.getTime() + 200) }), task, usedAfter: null }, NOW)).toMatchObject({ retryAfterSeconds: 1 })
    })

    test('404 and 200 as usual without a block, or with one that has ended', () => {
      for (const missesBlockedUntil of [null, undefined, NOW, new Date(NOW.getTime() - 1)]) {
        expect(decideFetch<typeof task>({ key: key({ missesBlockedUntil }), task: null, usedAfter: null }, NOW)).toMatchObject({ code: 'not_found' })
        expect(decideFetch({ key: key({ missesBlockedUntil }), task, usedAfter: 3 }, NOW)).toMatchObject({ ok: true })
      }
    })

    test('403 beats 429: an inactive or exhausted key says so first', () => {
      expect(decideFetch({ key: key({ status: 'inactive', missesBlockedUntil: until }), task, usedAfter: null }, NOW)).toMatchObject({ code: 'inactive' })
      expect(decideFetch({ key: key({ usedBefore: 5, missesBlockedUntil: until }), task, usedAfter: null }, NOW)).toMatchObject({ code: 'limit' })
    })
  })
})

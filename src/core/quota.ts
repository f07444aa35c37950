// Quota and key-state decisions. The database does the atomic part (one conditional
// increment); these functions decide what its answer means, and are what the tests pin down.

import type { FetchFailure } from './errors'
import { retryAfter } from './fixed-window'

export type KeyStatus = 'active' | 'inactive'

export interface Plan {
  id: number
  name: string
  monthlyLimit: number
}

export interface QuotaDecision {
  allowed: boolean
  remaining: number
}

/** Whether one more counted request fits: allowed while used < limit. */
export function decideQuota(plan: Pick<Plan, 'monthlyLimit'>, used: number): QuotaDecision {
  const remaining = Math.max(0, plan.monthlyLimit - used)
  return { allowed: used < plan.monthlyLimit, remaining }
}

export interface KeyState {
  status: KeyStatus
  expiresAt: Date | null
}

/** A key can be used when it is active and its expiry (if any) is strictly in the future. */
export function keyUsable(key: KeyState, now: Date): { ok: true } | { ok: false; code: 'inactive' | 'expired' } {
  if (key.status !== 'active') return { ok: false, code: 'inactive' }
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return { ok: false, code: 'expired' }
  return { ok: true }
}

/** What the single fetch statement observed; see db/fetch.ts. */
export interface FetchObservation<Task> {
  /** `missesBlockedUntil`: until when the key is refused for its misses (null: never, or not now). */
  key: (KeyState & { id: string; monthlyLimit: number; usedBefore: number; missesBlockedUntil?: Date | null }) | null
  task: Task | null
  /** The count after our increment, or null when no increment happened. */
  usedAfter: number | null
}

export type FetchDecision<Task> =
  | { ok: true; task: Task; limit: number; used: number }
  | { ok: false; code: FetchFailure; limit?: number; used?: number; retryAfterSeconds?: number }

/**
 * The order is the spec's: no key → 401; inactive, expired or at the limit → 403; no such task
 * → 404; otherwise 200 and the request was counted. A key at its limit gets 403 even for a task
 * id that does not exist, so the 404 never tells an exhausted key anything. Between the 403s
 * and the rest: a key that has used up its misses (src/core/fixed-window.ts) gets 429 for every id
 * until its window ends (db/rate-windows.ts recordMiss marks it); the statement did not count it either.
 */
export function decideFetch<Task>(obs: FetchObservation<Task>, now: Date): FetchDecision<Task> {
  const { key, task, usedAfter } = obs
  if (!key) return { ok: false, code: 'invalid_key' }
  const limit = key.monthlyLimit
  const usable = keyUsable(key, now)
  if (!usable.ok) return { ok: false, code: usable.code, limit, used: key.usedBefore }
  if (usedAfter !== null && task) return { ok: true, task, limit, used: usedAfter }
  if (!decideQuota(key, key.usedBefore).allowed) return { ok: false, code: 'limit', limit, used: Math.max(key.usedBefore, limit) }
  const blockedUntil = key.missesBlockedUntil?.getTime() ?? 0
  if (blockedUntil > now.getTime()) return { ok: false, code: 'too_many_misses', limit, used: key.usedBefore, retryAfterSeconds: retryAfter(blockedUntil, now) }
  if (!task) return { ok: false, code: 'not_found', limit, used: key.usedBefore }
  // The task exists and the key looked usable, but the conditional increment found the limit
  // reached: a concurrent request took the last unit between our snapshot and the update.
  return { ok: false, code: 'limit', limit, used: limit }
}
